"""``make demo``: a demo edition on SQLite, loaded through the same services as the web pages.

``python -m bridgeko.demo`` migrates the database in the data directory (``BRIDGEKO_DATA_DIR``,
default ``data/`` of the checkout), loads the demo once (nothing is loaded twice), sets the demo
logins' passwords, prints the URL and the logins and serves on http://127.0.0.1:8000.

What it loads: the 1999 regulations (``editions/bridge-open-ko-1999.toml``); 74 invented Czech
players and the Elo list of 30 June 1998 (some players without Elo); the 1998 edition with eight
teams and its draw held, one of which failed to appear for its first match of the bracket without
notice (its players are barred in 1999, R15.3), played and finished (stage "finished"; every
match has its results, so its standings and prize list exist); the
1999 edition with 13 teams of 4-6 players (one returning from 1998, R4.1), every condition of
entry met in time, the entries closed, the draw announced, committed to and held (fixed seeds,
:data:`DRAW_SEEDS`), and the preliminary-round dates published; a 14th team entered late (after
the closing, with its reason) awaiting the organiser's decision, a convention card and its fee
missing; and the 1999 edition in play — the first round played, the quarterfinals under way, one
of them tied after 32 boards and in its extra segment (:mod:`bridgeko.demo_play`, results from a
seeded generator: the same every run).

The demo stays a demo: it refuses to run (one line, exit code 2) in production mode
(``BRIDGEKO_ENV=production``) and against a database holding an edition it did not make. The
demo's editions are marked: their slugs are ``ko-1998`` and ``ko-1999`` and the audit log holds,
for each, an entry :data:`DEMO_MARKER` written in the transaction that made it (the log is
append-only, so the mark survives any later change of the edition); any other edition is
someone's real data.
Its password is published (below, and printed at every start): it is a demo's, never for a
real event.

Environment: ``BRIDGEKO_DEMO_NO_SERVE=1`` loads and exits (tests); ``BRIDGEKO_DEMO_ADDR``
(default ``127.0.0.1:8000``); ``BRIDGEKO_DEMO_PASSWORD`` (default ``bridge-open-1999``).
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from dataclasses import dataclass, replace
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

DEMO_SLUG = "ko-1999"
PREVIOUS_SLUG = "ko-1998"
DEFAULT_PASSWORD = "bridge-open-1999"
DEFAULT_ADDR = "127.0.0.1:8000"
NEXT_SLUG = "ko-2001"
"""The 2001 edition (:mod:`bridgeko.demo_2001`): double elimination, the final in 8-board sets."""
DEMO_SLUGS = frozenset({DEMO_SLUG, PREVIOUS_SLUG, NEXT_SLUG})
DEMO_MARKER = "bridgeko.demo.loaded"
"""The audit action marking an edition the demo loader made."""
REFUSAL_EXIT = 2
DRAW_SEEDS = {
    slug: hashlib.sha256(f"bridgeko demo draw {slug}".encode()).digest() for slug in DEMO_SLUGS
}
"""The demo's draws use fixed seeds (published with each draw's protocol, as every seed is after
the draw, I8): the same numbers, matches and results every run."""
PRAGUE = ZoneInfo("Europe/Prague")

SURNAMES = (
    ("Novák", "Nováková"),
    ("Svoboda", "Svobodová"),
    ("Dvořák", "Dvořáková"),
    ("Černý", "Černá"),
    ("Procházka", "Procházková"),
    ("Kučera", "Kučerová"),
    ("Veselý", "Veselá"),
    ("Horák", "Horáková"),
    ("Němec", "Němcová"),
    ("Pokorný", "Pokorná"),
    ("Marek", "Marková"),
    ("Pospíšil", "Pospíšilová"),
    ("Hájek", "Hájková"),
    ("Jelínek", "Jelínková"),
    ("Král", "Králová"),
    ("Růžička", "Růžičková"),
    ("Beneš", "Benešová"),
    ("Fiala", "Fialová"),
    ("Sedláček", "Sedláčková"),
    ("Doležal", "Doležalová"),
    ("Zeman", "Zemanová"),
    ("Kolář", "Kolářová"),
    ("Navrátil", "Navrátilová"),
    ("Čermák", "Čermáková"),
    ("Vaněk", "Vaňková"),
    ("Urban", "Urbanová"),
    ("Blažek", "Blažková"),
    ("Kříž", "Křížová"),
    ("Kovář", "Kovářová"),
    ("Bartoš", "Bartošová"),
    ("Vlček", "Vlčková"),
    ("Polák", "Poláková"),
    ("Musil", "Musilová"),
    ("Kopecký", "Kopecká"),
    ("Šimek", "Šimková"),
)
MEN = ("Jan", "Petr", "Josef", "Pavel", "Jiří", "Martin", "Tomáš", "Jaroslav", "Miroslav")
WOMEN = ("Marie", "Jana", "Eva", "Hana", "Anna", "Lenka", "Kateřina", "Věra", "Alena")
CLUBS = (
    "BK Nové Město nad Metují",
    "BK Praha",
    "BK Hradec Králové",
    "BK Brno",
    "BK Olomouc",
    "BK Pardubice",
)
PLAYERS = 74  # 60 on the 1999 rosters, 4 barred (R15.3), 4 of the late entry, 6 free
FIRST_ID = 1001

TEAMS_1998 = (
    "Sokol Hradec Králové",
    "Pražští kouzelníci",
    "Brněnské esa",
    "Olomoucký impas",
    "Pardubický blok",
    "Orlické hory",
    "Modrý klub",
    "Rychlé šípy",
)
NO_SHOW_1998 = "Rychlé šípy"
"""Failed to appear without timely notice in 1998: its players are barred in 1999 (R15.3)."""
TEAMS_1999 = (
    ("Sokol Hradec Králové", 5),  # returning from 1998 (R4.1: 300 CZK)
    ("Pražští kouzelníci II", 4),
    ("Brněnští draci", 6),
    ("Impas Olomouc", 4),
    ("Východočeši", 4),
    ("Krkonošské kvarteto", 5),
    ("Metuje", 4),
    ("Zlatá Praha", 6),
    ("Jihočeští pikoví", 4),
    ("Moravská slavia", 5),
    ("Náchodské srdce", 4),
    ("Trumfové eso", 4),
    ("Kontra", 5),
)
LATE_TEAM = "Pozdní sběr"
LATE_REASON = (
    "Přihláška poslaná 4. 3. došla poštou až 16. 3.; rozhodne pořadatel (do losu se už nedostane)."
)
"""A late entry (after the closing) awaiting the organiser's decision, its fee not paid."""


def _player_name(k: int) -> str:
    """The k-th invented player (k from 0): a surname in its male or female form."""
    surname = SURNAMES[k % len(SURNAMES)]
    woman = (k // len(SURNAMES)) % 2 == 1
    given = (WOMEN if woman else MEN)[(k * 7) % len(MEN)]
    return f"{surname[1] if woman else surname[0]} {given}"


def _elo(k: int) -> int | None:
    """A spread of Elo values; every seventh player has none on the list (R10.1)."""
    if k % 7 == 6:
        return None
    return 480 + (k * 53) % 260


def elo_csv() -> bytes:
    """The demo's Elo list of 30 June 1998 (CSV as the federation sends it)."""
    lines = ["id;jmeno;klub;clen;elo"]
    for k in range(PLAYERS):
        elo = _elo(k)
        member = "ne" if k % 11 == 10 else "ano"
        lines.append(
            f"{FIRST_ID + k};{_player_name(k)};{CLUBS[k % len(CLUBS)]};{member};"
            f"{'' if elo is None else elo}"
        )
    return ("\n".join(lines) + "\n").encode("utf-8")


@dataclass(frozen=True, slots=True)
class Login:
    username: str
    password: str
    what: str


def _at(day: date, hour: int = 12, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=PRAGUE)


def _regulations_dir() -> Path:
    from bridgeko.editions.services import editions_dir

    directory = editions_dir()
    if directory is None:  # pragma: no cover - an installed package without the files
        raise RuntimeError("the editions/ directory with the regulations files is not found")
    return directory


def _toml_1998(text_1999: str) -> str:
    from bridgeko.competition import regulations as regs

    reg = regs.loads(text_1999)
    reg = replace(
        reg,
        edition=replace(reg.edition, name="Bridge Open K.O. 1998", year=1998),
        entry=replace(reg.entry, deadline=date(1998, 3, 6)),
        rating=replace(reg.rating, reference_date=date(1997, 6, 30)),
        schedule=replace(reg.schedule, finals_start=date(1998, 6, 5), finals_end=date(1998, 6, 7)),
    )
    return regs.dumps(reg)


def _user(username: str, password: str, **extra: Any) -> Any:
    from django.contrib.auth import get_user_model

    user, _created = get_user_model().objects.get_or_create(username=username, defaults=extra)
    user.set_password(password)
    user.save()
    return user


def _pairs(roster: list[Any]) -> list[tuple[Any, Any]]:
    """Declared pairs: 1-2 and 3-4, a fifth player partners the third, a sixth the fifth."""
    pairs = [(roster[0], roster[1]), (roster[2], roster[3])]
    if len(roster) == 5:
        pairs.append((roster[2], roster[4]))
    elif len(roster) == 6:
        pairs.append((roster[4], roster[5]))
    return pairs


def _enter(
    edition: Any, name: str, roster: list[Any], user: Any, day: date, captain: int | None = None
) -> Any:
    """One team through the services: the entry, its pairs, (``captain``: its captain's account,
    :func:`_captain`), then what the organiser received."""
    from bridgeko.entries import queries, services

    team = services.create_team(
        edition=edition, name=name, roster=roster, user=user, now=_at(day, 10)
    )
    pairs = services.set_pairs(team=team, pairs=_pairs(roster), user=user, now=_at(day, 10, 5))
    if captain is not None:
        _captain(edition, team, captain, user, _at(day, 10, 10))
    fee = queries.team_info(team).fee
    assert fee is not None
    services.record_conditions(
        team=team,
        form_received=day,
        fee_received=day,
        fee_paid=fee.amount,
        cards={p.pk: day for p in pairs},
        user=user,
        now=_at(day, 16),
    )
    return team


def _captain(edition: Any, team: Any, k: int, organiser: Any, now: datetime) -> None:
    """The captain's account of the ``k``-th 1999 team, with an e-mail address (the mail to
    captains, bridgeko.mail: the demo's actions fill the outbox): the ``captain`` login for the
    first team, ``kapitan-NN`` (no password) for the others; every third chose English."""
    from bridgeko.accounts.models import Role
    from bridgeko.accounts.services import NewAccount, assign_role, remember_language

    username = "captain" if k == 0 else f"kapitan-{k + 1:02d}"
    new = None if k == 0 else NewAccount(email=f"{username}@example.org", last_name=team.name)
    assign_role(
        edition=edition,
        username=username,
        role=Role.CAPTAIN,
        user=organiser,
        team_id=team.pk,
        new_account=new,
    )
    if k % 3 == 1:
        from django.contrib.auth import get_user_model

        captain = get_user_model().objects.get(username=username)
        remember_language(user=captain, language="en", now=now)


def free_players() -> list[Any]:
    """Players of the register on no roster of the demo edition and not barred from it (for
    another team)."""
    from bridgeko.editions.models import Edition
    from bridgeko.entries.models import RosterEntry
    from bridgeko.entries.queries import barred_players
    from bridgeko.players.models import Player

    edition = Edition.objects.get(slug=DEMO_SLUG)
    taken = set(RosterEntry.objects.filter(edition=edition).values_list("player_id", flat=True))
    taken |= barred_players(edition)  # R15.3
    return list(Player.objects.exclude(pk__in=taken).order_by("federation_id"))


def demo_mail_dir() -> Path:
    """Where the mail of the demo's loading is written (one file per sending)."""
    from django.conf import settings

    return Path(settings.DATA_DIR) / "demo-mail"


def load_demo(password: str = DEFAULT_PASSWORD) -> tuple[bool, list[Login]]:
    """Loads the demo unless it is there; returns (loaded now, the logins). The logins'
    passwords are (re)set every time."""
    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.editions.models import Edition

    organiser = _user("organiser", password, first_name="Demo", last_name="Organiser")
    td = _user("td", password)
    captain = _user("captain", password, email="captain@example.org")
    registrar = _user("registrar", password)
    loaded = False
    for slug, load in ((DEMO_SLUG, _load), (NEXT_SLUG, _load_2001)):
        if not Edition.objects.filter(slug=slug).exists():
            from django.test.utils import override_settings

            # The mail the loading causes (bridgeko.mail) is sent at once into files of the
            # data directory, not printed: the outbox page lists it. Later actions print on the
            # console.
            with override_settings(
                BRIDGEKO_BACKGROUND="inline",
                EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                EMAIL_FILE_PATH=str(demo_mail_dir()),
            ):
                load(organiser, td)
            loaded = True
    edition = Edition.objects.get(slug=DEMO_SLUG)
    from bridgeko.entries.models import Team

    sokol = Team.objects.get(edition=edition, name=TEAMS_1999[0][0])
    for user, role, team_id in (
        (organiser, Role.ORGANISER, None),
        (td, Role.TD, None),
        (captain, Role.CAPTAIN, sokol.pk),
    ):
        if not RoleAssignment.objects.filter(user=user, edition=edition, role=role).exists():
            from bridgeko.accounts.services import assign_role

            assign_role(
                edition=edition, username=user.username, role=role, user=organiser, team_id=team_id
            )
    following = Edition.objects.get(slug=NEXT_SLUG)
    for user, role in ((organiser, Role.ORGANISER), (td, Role.TD)):
        if not RoleAssignment.objects.filter(user=user, edition=following, role=role).exists():
            from bridgeko.accounts.services import assign_role

            assign_role(edition=following, username=user.username, role=role, user=organiser)
    if not RoleAssignment.objects.filter(user=registrar, edition=None).exists():
        from bridgeko.accounts.services import assign_role

        assign_role(edition=None, username="registrar", role=Role.REGISTRAR, user=None)
    return loaded, [
        Login("organiser", password, "organiser of every edition (can enter another team)"),
        Login("td", password, "tournament director of 1999 and 2001"),
        Login("captain", password, f"captain of {sokol.name}"),
        Login("registrar", password, "registrar: new editions, the player register, Elo lists"),
    ]


def _load(organiser: Any, td: Any) -> None:
    from django.db import transaction

    from bridgeko import demo_play
    from bridgeko.audit.services import record
    from bridgeko.competition.messages import N_, Message
    from bridgeko.draw import no_shows, schedule_services
    from bridgeko.draw import services as draw
    from bridgeko.editions.models import EditionStage
    from bridgeko.editions.services import create_edition, move_stage
    from bridgeko.entries import queries as entry_queries
    from bridgeko.entries import services as entries
    from bridgeko.entries.models import Team
    from bridgeko.players import elo_csv as csv_format
    from bridgeko.players.models import Player
    from bridgeko.players.services import import_elo

    text_1999 = (_regulations_dir() / "bridge-open-ko-1999.toml").read_text(encoding="utf-8")
    with transaction.atomic():  # the demo appears whole or not at all
        previous = create_edition(
            slug=PREVIOUS_SLUG, toml_text=_toml_1998(text_1999), user=organiser
        )
        edition = create_edition(
            slug=DEMO_SLUG, toml_text=text_1999, user=organiser, previous=previous
        )
        for made in (previous, edition):
            record(
                DEMO_MARKER,
                user=organiser,
                edition=made,
                obj=made,
                after={"demo": True, "slug": made.slug},
                summary=Message(
                    N_("Demo edition %(slug)s loaded (invented players and teams)"),
                    {"slug": made.slug},
                ),
            )
        import_elo(
            edition=edition,
            data=elo_csv(),
            columns=csv_format.Columns(
                federation_id="id", name="jmeno", club="klub", member="clen", elo="elo"
            ),
            user=organiser,
            source_name="elo-1998-06-30.csv",
        )
        players = list(Player.objects.filter(federation_id__isnull=False).order_by("federation_id"))
        # 1998: eight teams of four (players 1-32), entries closed, the draw held, and one
        # team failed to appear for its quarterfinal without notice (R15.2, R15.3).
        for k, name in enumerate(TEAMS_1998):
            _enter(previous, name, players[4 * k : 4 * k + 4], organiser, date(1998, 2, 10 + k))
        entries.close_entries(edition=previous, user=organiser, now=_at(date(1998, 3, 9)))
        draw.announce_draw(
            edition=previous,
            place="Bridžový klub Nové Město nad Metují",
            at=_at(date(1998, 3, 13), 18),
            user=organiser,
            now=_at(date(1998, 3, 2)),
        )
        draw.publish_commitment(
            edition=previous,
            user=organiser,
            now=_at(date(1998, 3, 9), 10),
            seed=DRAW_SEEDS[PREVIOUS_SLUG],
        )
        draw.hold_draw(edition=previous, user=organiser, now=_at(date(1998, 3, 13), 18))
        # 1998 is played: in play from its first match, finished with the final (R14.3);
        # every match has its results (bridgeko.demo_play), so its standings and prizes exist.
        move_stage(
            edition=previous,
            to=EditionStage.IN_PLAY,
            user=organiser,
            at=_at(date(1998, 4, 3), 18),
        )
        absent = Team.objects.get(edition=previous, name=NO_SHOW_1998)
        match = no_shows.team_matches(absent)[0]  # its first match of the bracket
        no_shows.record_no_show(
            team=absent,
            match=match.id,
            timely_notice=False,
            note="nobody came, no notice",
            user=organiser,
            now=_at(date(1998, 4, 3), 19, 45),
        )
        demo_play.play_1998(previous, organiser, before_final=_at(date(1998, 6, 5), 10))
        move_stage(
            edition=previous,
            to=EditionStage.FINISHED,
            user=organiser,
            at=_at(date(1998, 6, 7), 18),
        )
        barred = entry_queries.barred_players(edition)
        pool = [p for p in players if p.pk not in barred]
        # 1999: the returning team keeps its four players and adds one (R4.1, I4).
        returning = [*players[:4], players[32]]
        pool = [p for p in pool if p not in returning]
        for k, (name, size) in enumerate(TEAMS_1999):
            if k == 0:
                roster = returning
            else:
                roster, pool = pool[:size], pool[size:]
            _enter(edition, name, roster, organiser, date(1999, 2, 1 + 2 * k), captain=k)
        entries.close_entries(edition=edition, user=organiser, now=_at(date(1999, 3, 8), 9))
        draw.announce_draw(
            edition=edition,
            place="Bridžový klub Nové Město nad Metují",
            at=_at(date(1999, 3, 12), 18),
            user=organiser,
            now=_at(date(1999, 3, 1)),
        )
        draw.publish_commitment(
            edition=edition,
            user=organiser,
            now=_at(date(1999, 3, 8), 10),
            seed=DRAW_SEEDS[DEMO_SLUG],
        )
        draw.hold_draw(edition=edition, user=organiser, now=_at(date(1999, 3, 12), 18))
        schedule_services.default_schedule(
            edition=edition,
            first_date=date(1999, 3, 13),
            user=organiser,
            now=_at(date(1999, 3, 13)),
        )
        schedule_services.publish_schedule(
            edition=edition, user=organiser, now=_at(date(1999, 3, 15))
        )
        _late_entry(edition, pool, organiser)
        # 1999 in play: the first round played, the quarterfinals under way (demo_play).
        move_stage(
            edition=edition,
            to=EditionStage.IN_PLAY,
            user=organiser,
            at=_at(date(1999, 3, 19), 18, 30),
        )
        demo_play.play_1999(edition, td)
        demo_play.appeal_1999(edition, td, organiser)  # R16: one appeal decided
        # segment 2 of a quarterfinal from Bridgemate terminals, followed live (issue 20)
        demo_play.bridgemate_1999(edition, td, _at(date(1999, 4, 16), 21, 15))
        _chances(edition)


def _chances(edition: Any) -> None:
    """The chances to win the event as of the demo's results: computed in the background after
    each result once the demo runs; here at once (a loading in a test's transaction commits
    nothing, so nothing would start them)."""
    from bridgeko.public import event_odds

    event_odds.refresh(edition.pk)


def _load_2001(organiser: Any, td: Any) -> None:
    """The 2001 edition (:mod:`bridgeko.demo_2001`) in a transaction of its own, marked as the
    demo's, with the same Elo list (of 30 June 2000, R10.1) and the same invented players."""
    from django.db import transaction

    from bridgeko import demo_2001
    from bridgeko.audit.services import record
    from bridgeko.competition.messages import N_, Message
    from bridgeko.players.models import Player

    with transaction.atomic():
        players = list(Player.objects.filter(federation_id__isnull=False).order_by("federation_id"))
        made = demo_2001.load_2001(organiser, td, players, DRAW_SEEDS[NEXT_SLUG], elo=elo_csv())
        _chances(made)
        record(
            DEMO_MARKER,
            user=organiser,
            edition=made,
            obj=made,
            after={"demo": True, "slug": made.slug},
            summary=Message(
                N_("Demo edition %(slug)s loaded (invented players and teams)"),
                {"slug": made.slug},
            ),
        )


def _late_entry(edition: Any, pool: list[Any], organiser: Any) -> None:
    """A 14th team entered after the closing, with its reason, awaiting the organiser's
    decision: the form received, one convention card of two, the fee not paid yet (what the
    dashboard lists: the late entry, its missing conditions, the fee due)."""
    from bridgeko.entries import services as entries

    team = entries.create_team(
        edition=edition,
        name=LATE_TEAM,
        roster=pool[:4],
        user=organiser,
        now=_at(date(1999, 3, 16), 9),
        late_reason=LATE_REASON,
    )
    pairs = entries.set_pairs(
        team=team, pairs=_pairs(pool[:4]), user=organiser, now=_at(date(1999, 3, 16), 9, 5)
    )
    entries.record_conditions(
        team=team,
        form_received=date(1999, 3, 16),
        fee_received=None,
        fee_paid=0,
        cards={},
        user=organiser,
        now=_at(date(1999, 3, 16), 9, 10),
    )
    entries.upload_card(  # the first pair's card came as a file (R3.1b), the second's is due
        pair=pairs[0],
        data=demo_card_pdf(pairs[0].label),
        file_name="karta-1.pdf",
        user=organiser,
        now=_at(date(1999, 3, 16), 9, 15),
    )


def demo_card_pdf(label: str) -> bytes:
    """A one-page PDF standing for a pair's convention card (the demo's uploaded file)."""
    from bridgeko import demo_play

    return demo_play.demo_pdf(f"Konvencni karta [demo]: {label}")


def foreign_editions() -> list[str]:
    """The slugs of the editions in the database the demo loader did not make (an edition's
    table not there yet: none)."""
    from django.db import connection

    from bridgeko.audit.models import AuditEntry
    from bridgeko.editions.models import Edition

    tables = connection.introspection.table_names()
    if Edition._meta.db_table not in tables:
        return []
    marked: set[int] = set()
    if AuditEntry._meta.db_table in tables:
        marked = set(
            AuditEntry.objects.filter(action=DEMO_MARKER, edition__isnull=False).values_list(
                "edition_id", flat=True
            )
        )
    return sorted(
        slug
        for pk, slug in Edition.objects.values_list("pk", "slug")
        if slug not in DEMO_SLUGS or pk not in marked
    )


def refusal() -> str | None:
    """Why the demo must not run here (None: it may): production mode, or a database holding
    editions the demo did not make. Checked before anything is written (even the migrations)."""
    from django.conf import settings

    if getattr(settings, "PRODUCTION", False):
        return (
            "refused: BRIDGEKO_ENV=production; the demo (with its published password) "
            "never runs on a real site"
        )
    foreign = foreign_editions()
    if foreign:
        shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        return (
            f"refused: the database holds editions the demo did not make ({shown}); "
            "run it with an empty BRIDGEKO_DATA_DIR (and no DATABASE_URL)"
        )
    return None


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bridgeko.web.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    reason = refusal()
    if reason is not None:
        print(f"bridgeko demo: {reason}", file=sys.stderr)
        return REFUSAL_EXIT
    database = settings.DATABASES["default"]
    print(f"Database: {database['ENGINE'].rsplit('.', 1)[-1]} {database['NAME']}")
    call_command("migrate", interactive=False, verbosity=0)
    # the CSS under hashed, compressed names, served by WhiteNoise with a long cache time
    call_command("collectstatic", interactive=False, verbosity=0)
    password = os.environ.get("BRIDGEKO_DEMO_PASSWORD") or DEFAULT_PASSWORD
    loaded, logins = load_demo(password)
    print("Demo edition loaded." if loaded else "Demo edition already there (not loaded again).")
    addr = os.environ.get("BRIDGEKO_DEMO_ADDR") or DEFAULT_ADDR
    base = f"http://{addr}"
    free = free_players()
    print()
    print(f"  Public pages:  {base}/e/{DEMO_SLUG}/public/")
    print(f"  Log in:        {base}/login/")
    for login in logins:
        print(f"    {login.username:<10} password {login.password!r:<22} {login.what}")
    print("  (a demo's password, published: never use it, or this loader, for a real event)")
    print(f"  Mail to captains: {base}/e/{DEMO_SLUG}/outbox/ (as organiser); the loading's")
    print(f"  mail lies in {demo_mail_dir()}, new mail is printed here (console backend).")
    print()
    print("  To enter another team: log in as organiser, open Teams -> Enter a team")
    print(f"  ({base}/e/{DEMO_SLUG}/teams/new/), type a name, a roster of 4-6 players")
    ids = ", ".join(p.federation_id or "" for p in free[:6])
    print(f"  (free players' federation ids: {ids}) and, as the entries are closed,")
    print("  the reason for the late entry.")
    sys.stdout.flush()
    if os.environ.get("BRIDGEKO_DEMO_NO_SERVE", "").strip() in {"1", "true", "yes"}:
        return 0
    print()
    print("  Results live from Bridgemate: the server follows a BCS file for QF2, segment 2")
    print(f"  ({base}/e/{DEMO_SLUG}/matches/QF2/import-bws/ as td).")
    print()
    _follow_in_background()
    call_command("runserver", addr, use_reloader=False)
    return 0


def _follow_in_background(every: float = 2.0) -> threading.Thread:
    """What ``bridgeko follow`` does, in a thread of the demo's server process: every followed
    Bridgemate file read every ``every`` seconds."""

    def run() -> None:
        from django.db import connection

        from bridgeko.matches import bws_follow

        while True:
            try:
                for line in bws_follow.read_all():
                    print(f"[follow] {line}")
            finally:
                connection.close()
            threading.Event().wait(every)

    thread = threading.Thread(target=run, name="bridgemate-follow", daemon=True)
    thread.start()
    return thread


if __name__ == "__main__":
    raise SystemExit(main())
