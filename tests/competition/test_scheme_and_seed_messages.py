"""The errors of the scheme, the bracket and the seed rule are worded from templates (issue 7).

Every ``raise`` in ``competition/scheme.py`` and ``competition/bracket.py`` carries a
:class:`~bridgeko.competition.messages.Message` (no plain English text), the templates of those
modules, of ``competition/draw_protocol.py`` and of ``bridge/commit_reveal.py`` use named
placeholders only, and each has its Czech in the compiled project catalogue the site reads.
"""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "bridgeko"
MODULES = [
    SRC / "competition" / "scheme.py",
    SRC / "competition" / "bracket.py",
    SRC / "competition" / "draw_protocol.py",
    SRC / "bridge" / "commit_reveal.py",
]
CS_MO = SRC / "locale" / "cs" / "LC_MESSAGES" / "django.mo"


def _templates(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        str(node.args[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "N_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]


def _plain_raises(path: Path) -> list[str]:
    """``raise SomethingError("...")`` / ``raise SomethingError(f"...")``: a plain-text error."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and node.exc.args
            and isinstance(node.exc.args[0], ast.JoinedStr | ast.Constant)
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node.exc)[:60]}")
    return found


@pytest.mark.parametrize("path", MODULES[:2], ids=lambda p: p.name)
def test_scheme_and_bracket_errors_are_worded_from_templates(path: Path) -> None:
    assert _plain_raises(path) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_templates_use_named_placeholders_only(path: Path) -> None:
    templates = _templates(path)
    assert templates
    for template in templates:
        assert "%" not in re.sub(r"%\([a-z_]+\)s", "", template), template


class _Missing(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return "MISSING"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_template_is_in_the_compiled_czech_catalogue(path: Path) -> None:
    with CS_MO.open("rb") as catalogue:
        translations = gettext.GNUTranslations(catalogue)
    translations.add_fallback(_Missing())
    for template in _templates(path):
        czech = translations.gettext(template)
        assert czech != "MISSING", template
        assert sorted(re.findall(r"%\([a-z_]+\)s", czech)) == sorted(
            re.findall(r"%\([a-z_]+\)s", template)
        ), template
