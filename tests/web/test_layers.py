"""The layers of the Django side (docs/web-architecture.md, "The order of the apps").

Bottom to top: the shared layer :mod:`bridgeko.core` (no app, not the project package), then the
apps in :data:`APP_ORDER`, then the Django project package :mod:`bridgeko.web`. An app imports
only itself, the apps below it, ``bridgeko.core`` and the pure packages (``bridgeko.bridge``,
``bridgeko.competition``) — at module level, inside a function, or through
``apps.get_model("<label>", ...)`` alike. A model may point to a model of a higher app only by a
lazy foreign key listed in :data:`UPWARD_FOREIGN_KEYS` (and documented).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "bridgeko"

APP_ORDER = (
    "audit",
    "accounts",
    "editions",
    "players",
    "entries",
    "draw",
    "matches",
    "boards",
    "appeals",
    "mail",
    "paper",
    "public",
)
"""The apps, lowest first: an app may import those before it, never those after it."""

PURE = ("bridge", "competition")
"""Packages without Django; every layer may import them, they import no app."""

UPWARD_FOREIGN_KEYS = {
    ("audit", "editions.Edition"),
    ("accounts", "editions.Edition"),
    ("accounts", "entries.Team"),
}
"""Lazy (string) foreign keys to a model of a higher app: the audit entry's and the role's
edition, a captain's team (documented in docs/web-architecture.md)."""

FIELD_CLASSES = {"ForeignKey", "OneToOneField", "ManyToManyField"}


def _modules(package: str) -> list[Path]:
    return sorted(p for p in (SRC / package).rglob("*.py") if "__pycache__" not in p.parts)


def _imported(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, top-level bridgeko package) of every import and every ``get_model`` string."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "bridgeko" and len(parts) > 1:
                    yield node.lineno, parts[1]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] != "bridgeko":
                continue
            if len(parts) > 1:
                yield node.lineno, parts[1]
            else:  # from bridgeko import web
                for alias in node.names:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in {"get_model", "is_installed"} and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    label = first.value.removeprefix("bridgeko.").split(".")[0]
                    yield node.lineno, label


def _lazy_foreign_keys(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0]
        if (
            name in FIELD_CLASSES
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and "." in first.value
        ):
            yield node.lineno, first.value


def _parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(SRC.parent)}:{line}"


def test_every_app_is_in_the_order() -> None:
    """A new app must be placed in the order (the test would not see it otherwise)."""
    apps = {p.parent.name for p in SRC.glob("*/apps.py")}
    assert apps == {*APP_ORDER, "core", "web"}


@pytest.mark.parametrize("app", APP_ORDER)
def test_no_app_imports_an_app_above_it(app: str) -> None:
    """Neither at module level, nor inside a function, nor through ``apps.get_model``; never
    the Django project package ``bridgeko.web`` (its settings, URLs, middleware)."""
    allowed = {app, "core", *PURE, *APP_ORDER[: APP_ORDER.index(app)]}
    # a migration that fills a documented upward foreign key reads its target's frozen model
    fk_targets = {target.split(".")[0] for owner, target in UPWARD_FOREIGN_KEYS if owner == app}
    wrong = [
        f"{_where(path, line)} imports bridgeko.{target}"
        for path in _modules(app)
        for line, target in _imported(_parse(path))
        if target not in allowed and not ("migrations" in path.parts and target in fk_targets)
    ]
    assert wrong == []


@pytest.mark.parametrize("app", APP_ORDER)
def test_models_point_up_only_by_documented_lazy_foreign_keys(app: str) -> None:
    above = set(APP_ORDER[APP_ORDER.index(app) + 1 :])
    wrong = [
        f"{_where(path, line)}: {target}"
        for path in _modules(app)
        if "migrations" not in path.parts
        for line, target in _lazy_foreign_keys(_parse(path))
        if target.split(".")[0] in above and (app, target) not in UPWARD_FOREIGN_KEYS
    ]
    assert wrong == []


def test_no_services_or_models_module_imports_the_project_package() -> None:
    wrong = [
        f"{_where(path, line)}"
        for path in SRC.rglob("*.py")
        if path.name in {"services.py", "models.py"} or path.parent.name == "services"
        for line, target in _imported(_parse(path))
        if target == "web"
    ]
    assert wrong == []


def test_the_shared_layer_imports_no_app_and_not_the_project() -> None:
    wrong = [
        f"{_where(path, line)} imports bridgeko.{target}"
        for path in _modules("core")
        for line, target in _imported(_parse(path))
        if target not in {"core", *PURE}
    ]
    assert wrong == []


@pytest.mark.parametrize("package", PURE)
def test_the_pure_packages_import_no_app(package: str) -> None:
    wrong = [
        f"{_where(path, line)} imports bridgeko.{target}"
        for path in _modules(package)
        for line, target in _imported(_parse(path))
        if target in {*APP_ORDER, "core", "web"}
    ]
    assert wrong == []


def test_the_checker_sees_function_level_imports_and_get_model() -> None:
    """The checker itself: an import inside a function and a ``get_model`` string count."""
    tree = ast.parse(
        "def f():\n"
        "    from bridgeko.draw.models import Draw\n"
        "    apps.get_model('entries', 'Team')\n"
        "    import bridgeko.web.settings\n"
        "    from bridgeko import public\n"
    )
    assert sorted(target for _line, target in _imported(tree)) == [
        "draw",
        "entries",
        "public",
        "web",
    ]


def test_no_migration_imports_live_code() -> None:
    """A migration keeps doing what it did when it was written: it imports nothing of bridgeko
    (constants are written out in it; models come from ``apps.get_model``, frozen)."""
    wrong = [
        f"{_where(path, node.lineno)}"
        for path in SRC.glob("*/migrations/*.py")
        for node in ast.walk(_parse(path))
        if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "bridgeko")
        or (
            isinstance(node, ast.Import)
            and any(a.name.split(".")[0] == "bridgeko" for a in node.names)
        )
    ]
    assert wrong == []


# Templates: a lower app's template names no URL of a higher app (the links of a higher app
# reach a lower page through bridgeko.core.page_links; docs/web-architecture.md).

URL_TAG = re.compile(r"""\{%\s*url\s+(['"])([\w-]+):[\w-]+\1""")
"""``{% url 'ns:name' … %}`` or ``{% url "ns:name" … %}``: group 2 is the namespace."""

KNOWN_UPWARD_TEMPLATE_LINKS: set[tuple[str, str]] = set()
"""(template relative to src/, namespace) still to move onto core.page_links."""


def _namespaces() -> dict[str, str]:
    """URL namespace -> the app that owns it (the ``app_name`` of each app's urls.py, and of
    its other URL modules such as ``public/api_urls.py``)."""
    out = {}
    for app in APP_ORDER:
        for urls in sorted((SRC / app).glob("*urls.py")):
            for node in ast.walk(_parse(urls)):
                if (
                    isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "app_name" for t in node.targets)
                    and isinstance(node.value, ast.Constant)
                ):
                    out[str(node.value.value)] = app
    return out


def _upward_urls(app: str, text: str, namespaces: dict[str, str]) -> Iterator[tuple[int, str]]:
    above = set(APP_ORDER[APP_ORDER.index(app) + 1 :])
    for found in URL_TAG.finditer(text):
        owner = namespaces.get(found.group(2))
        if owner in above:
            yield text.count("\n", 0, found.start()) + 1, found.group(2)


@pytest.mark.parametrize("app", APP_ORDER)
def test_no_template_links_a_url_of_an_app_above_it(app: str) -> None:
    """A lower app works without the higher ones: its templates do not ``{% url %}`` them (the
    project's templates in ``bridgeko/web/templates`` may link every app)."""
    namespaces = _namespaces()
    wrong = [
        f"{_where(path, line)} links {ns}:"
        for path in sorted((SRC / app / "templates").rglob("*.html"))
        for line, ns in _upward_urls(app, path.read_text(encoding="utf-8"), namespaces)
        if (str(path.relative_to(SRC.parent)), ns) not in KNOWN_UPWARD_TEMPLATE_LINKS
    ]
    assert wrong == []


def test_the_template_checker_sees_both_quotes_and_maps_every_namespace() -> None:
    namespaces = _namespaces()
    assert {"matches", "boards", "paper", "public", "api"} <= set(namespaces)
    text = '<a href="{% url \'paper:receipt\' team=1 %}">\n{% url "boards:match" code=c %}'
    text += "{% url 'matches:detail' edition=e %}"
    assert list(_upward_urls("matches", text, namespaces)) == [(1, "paper"), (2, "boards")]
    assert list(_upward_urls("public", text, namespaces)) == []
