"""Completes the regulations of editions stored before the ``[systems]`` section (R6, I9) existed.

Every number of an edition is required in its regulations (``regulations.from_dict``), so a TOML
text stored without ``[systems]`` would no longer load. The rule: such an edition gets the section
with the 1999 values (``SystemRules()``: 12 HCP for R6.1, 16 HCP and less than five points for
R6.5/I9), appended with a comment saying so; the TD can change them on the edit page. A text that
already has the section, or that cannot be read as TOML at all, is left as it is.

The section is written out here as ``regulations.dumps_section("systems", SystemRules())`` wrote
it when this migration was made: a migration never imports live engine code (a later change of the
engine must not change what this migration did).
"""

import tomllib

from django.db import migrations

MARKER = "# Added by migration editions.0002: the 1999 numbers of R6.1, R6.5 and I9."
SYSTEMS_SECTION = (
    "[systems]\n"
    "one_level_minimum = 12  # R6.1: HCP normally worth a one-level opening\n"
    "nt_relay_threshold = 16  # R6.5: applies to a 1NT below this many HCP\n"
    "nt_range_limit = 5  # R6.5, I9: range (inclusive) less than this\n"
)


def add_systems_section(apps, schema_editor):  # type: ignore[no-untyped-def]
    Edition = apps.get_model("editions", "Edition")
    section = SYSTEMS_SECTION
    for edition in Edition.objects.only("pk", "regulations_toml").order_by("pk").iterator():
        text = edition.regulations_toml
        try:
            data = tomllib.loads(text.removeprefix("\ufeff"))
        except tomllib.TOMLDecodeError:
            continue  # unreadable before this migration too: the TD sees the problem
        if "systems" in data:
            continue
        newline = "" if text.endswith("\n") or not text else "\n"
        edition.regulations_toml = f"{text}{newline}\n{MARKER}\n{section}"
        edition.save(update_fields=["regulations_toml"])


def remove_systems_section(apps, schema_editor):  # type: ignore[no-untyped-def]
    Edition = apps.get_model("editions", "Edition")
    for edition in Edition.objects.filter(regulations_toml__contains=MARKER).iterator():
        text = edition.regulations_toml
        edition.regulations_toml = text[: text.index(MARKER)].removesuffix("\n")
        edition.save(update_fields=["regulations_toml"])


class Migration(migrations.Migration):
    dependencies = [("editions", "0001_initial")]

    operations = [migrations.RunPython(add_systems_section, remove_systems_section)]
