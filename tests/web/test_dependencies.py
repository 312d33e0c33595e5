"""Declared dependencies are the used ones: every dependency of pyproject.toml is imported by
``src/bridgeko`` or named by its settings (a middleware, a database backend) or run as a
program; and every third-party package ``src/bridgeko`` imports is declared."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src" / "bridgeko"

IMPORT_NAMES = {
    "Django": "django",
    "psycopg[binary]": "psycopg",
    "django-axes": "axes",
    "django-cors-headers": "corsheaders",
    "pyicu-wheels": "icu",
    "access-parser": "access_parser",
}
"""The module a distribution is imported as, when it differs from its name."""

NOT_IMPORTED = {
    "gunicorn": "the production WSGI server, run as a program (README: Deploying)",
    "psycopg": "the driver Django's PostgreSQL backend loads (DATABASE_URL=postgres://...)",
}


def _declared() -> dict[str, str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out = {}
    for requirement in project["dependencies"]:
        name = re.split(r"[<>=!~ ]", requirement, maxsplit=1)[0]
        out[IMPORT_NAMES.get(name, name).lower()] = requirement
    return out


def _imported(*, named_in_strings: bool = False) -> set[str]:
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
            elif (
                named_in_strings and isinstance(node, ast.Constant) and isinstance(node.value, str)
            ):
                dotted = re.fullmatch(r"([a-z_]+)\.[A-Za-z_.]+", node.value)
                if dotted:  # "whitenoise.middleware.WhiteNoiseMiddleware" in the settings
                    found.add(dotted[1])
    return found


def test_every_declared_dependency_is_used() -> None:
    imported = _imported(named_in_strings=True)
    unused = [
        requirement
        for module, requirement in _declared().items()
        if module not in imported and module not in NOT_IMPORTED
    ]
    assert unused == []


def test_every_imported_package_is_declared() -> None:
    third_party = {
        name
        for name in _imported()
        if name not in sys.stdlib_module_names and name not in {"bridgeko", "__future__"}
    }
    assert third_party - set(_declared()) == set()
