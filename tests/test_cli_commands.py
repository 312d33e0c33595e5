"""Every ``bridgeko`` command runs end to end, and every command of the parser has a handler and a
test here (:data:`TESTED`, checked by the last tests)."""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bridgeko.cli import ALIASES, COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[1]
SEED = hashlib.sha256(b"bridgeko end-to-end test").hexdigest()
SET = ["--seed", SEED, "--event", "Bridge Open K.O.", "--session", "F-1"]

TESTED: set[str] = set()
"""The commands with an end-to-end test below."""

F = TypeVar("F", bound=Callable[..., Any])


def runs(command: str) -> Callable[[F], F]:
    """Marks a test as the end-to-end test of ``command``."""

    def mark(test: F) -> F:
        TESTED.add(command)
        return test

    return mark


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _env(tmp_path: Path) -> dict[str, str]:
    """The environment of a command run in a subprocess: its own data directory, SQLite (never
    the shared database), the default settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "PYTEST_VERSION")
    }
    env["BRIDGEKO_DATA_DIR"] = str(tmp_path / "data")
    return env


# --- scoring ---------------------------------------------------------------------------------


@runs("score")
def test_score_prints_the_duplicate_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", "4S", "10", "--vulnerable") == (0, "620\n", "")


@runs("imps")
def test_imps_prints_the_imps_of_a_difference(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "imps", "420", "--json") == (0, '{"difference": 420, "imps": 9}\n', "")


@runs("board-imps")
def test_board_imps_scores_both_rooms(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board-imps", "4S N =", "4S N -1", "--board", "3", "--json")
    data = json.loads(out)
    assert code == 0 and (data["open_ns"], data["closed_ns"], data["imps"]) == (420, -50, 10)


# --- dealing and analysis --------------------------------------------------------------------


@runs("deal")
@runs("verify-deal")
def test_deal_then_verify_deal_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "f1.pbn"
    code, _, err = run(capsys, "deal", *SET, "--boards", "1-8", "-o", str(path))
    assert code == 0 and err.startswith("dealt 8 boards (1-8)")
    assert path.read_bytes().count(b'[Board "') == 8
    published = err.split()[-1]  # the summary ends with the commitment
    check = ["verify-deal", *SET, "--boards", "1-8", "--commitment", published, str(path)]
    assert run(capsys, *check) == (
        0,
        "OK: the seed matches the commitment; 8 boards of the file match\n",
        "",
    )


def test_deal_by_the_console_script_in_a_subprocess(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "bridgeko.cli", "deal", *SET, "--boards", "1-3"]
    done = subprocess.run(argv, capture_output=True, check=True, env=_env(tmp_path))
    assert done.stdout.startswith(b"% PBN 2.1\r\n% EXPORT\r\n{Dealt by bridgeko")
    assert done.stdout.count(b"[Deal ") == 3 and done.stderr.startswith(b"dealt 3 boards")


@runs("analyse")
def test_analyse_writes_the_tables_and_par_of_two_boards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dealt = tmp_path / "two.pbn"
    assert main(["deal", *SET, "--boards", "1-2", "-o", str(dealt)]) == 0
    capsys.readouterr()
    out = tmp_path / "two-dd.pbn"
    code, _, err = run(capsys, "analyse", str(dealt), "-o", str(out))
    assert code == 0 and err == f"analysed 2 deal(s) in 2 game(s) to {out}\n"
    text = out.read_text(encoding="utf-8")
    assert text.count("[OptimumResultTable ") == 2 and text.count("[OptimumScore ") == 2
    assert text.count('[ParContract "') == 2


@runs("showcase")
@pytest.mark.slow
def test_showcase_tours_dealing_analysis_and_scoring(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "showcase")
    assert code == 0 and "home team, 4 boards:" in out and "bridgeko verify-deal" in out


# --- competition -----------------------------------------------------------------------------


@runs("verify-draw")
def test_verify_draw_checks_a_published_protocol(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.test_cli_draw import _protocol  # a draw of 10 teams held and published

    code, out, _ = run(capsys, "verify-draw", str(_protocol(tmp_path)))
    assert code == 0 and out.startswith("OK: Bridge Open K.O. 1999: 10 teams, scheme for 16")


@runs("bracket")
def test_bracket_prints_the_scheme(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bracket", "8", "--teams", "7")
    assert code == 0 and out.startswith("standard scheme for 8 teams: 7 teams, number 8 missing\n")
    assert "QF1     1 v (8 missing)" in out


# --- web -------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@runs("serve")
def test_serve_migrates_and_serves_the_home_page(tmp_path: Path) -> None:
    port = _free_port()
    argv = [sys.executable, "-m", "bridgeko.cli", "serve", "--port", str(port)]
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(argv, env=_env(tmp_path), stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120  # a fresh database is migrated first
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
                    status, body = page.status, page.read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.25)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    assert status == 200 and b"<html" in body.lower()
    assert (tmp_path / "data" / "bridgeko.sqlite3").exists()


@runs("backup")
@runs("restore")
def test_backup_then_restore_into_another_data_directory(tmp_path: Path) -> None:
    """The thorough cases (damaged files, --force, a backup while another process writes) are
    in tests/web/test_backup_cli.py; this is the commands' end-to-end run."""
    cli = [sys.executable, "-m", "bridgeko.cli"]
    source, target = tmp_path / "a", tmp_path / "b"
    for argv, where in (
        ([*cli, "manage", "migrate", "--verbosity", "0"], source),
        (
            [*cli, "manage", "createsuperuser", "--noinput", "--username", "td1", "--email", ""],
            source,
        ),
        ([*cli, "backup", str(tmp_path / "day.bkp")], source),
        ([*cli, "restore", str(tmp_path / "day.bkp")], target),
    ):
        done = subprocess.run(argv, capture_output=True, env=_env(where), timeout=300, check=False)
        assert done.returncode == 0, (argv, done.stderr.decode())
    assert b"Restored" in done.stdout
    again = subprocess.run(
        [*cli, "restore", str(tmp_path / "day.bkp")],
        capture_output=True,
        env=_env(target),
        timeout=300,
        check=False,
    )
    assert again.returncode == 2 and again.stderr.startswith(b"bridgeko: the database is not empty")


@runs("manage")
def test_manage_runs_a_django_command(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "bridgeko.cli", "manage", "check"]
    done = subprocess.run(argv, capture_output=True, env=_env(tmp_path), timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert b"System check identified no issues" in done.stdout


@runs("import-elo")
@pytest.mark.django_db
def test_import_elo_imports_the_list_of_an_edition(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from django.contrib.auth import get_user_model

    from bridgeko.editions.services import create_edition
    from bridgeko.players.models import Player

    user = get_user_model().objects.create_user("organiser", password="x")
    toml = (ROOT / "editions" / "bridge-open-ko-1999.toml").read_text(encoding="utf-8")
    create_edition(slug="ko-1999", toml_text=toml, user=user)
    path = tmp_path / "elo.csv"
    rows = ["Reg;Name;Club;Elo;Member", "1001;Šťastný Jan;BK Praha;1510;A", "1002;Novák;BK;;N"]
    path.write_bytes("\n".join(rows).encode("cp1250"))
    columns = "id=1,name=2,club=3,elo=4,member=5"
    code, out, err = run(
        capsys, "import-elo", str(path), "--edition", "ko-1999", "--columns", columns
    )
    assert (code, err) == (0, "") and out.strip()
    assert sorted(Player.objects.values_list("federation_id", flat=True)) == ["1001", "1002"]


@runs("import-results")
@pytest.mark.django_db
def test_import_results_is_wired_and_names_an_unknown_edition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its end-to-end runs against a drawn edition are in tests/test_cli_import_results.py."""
    path = ROOT / "tests" / "data" / "pbn" / "bbo-vugraph-rooms.pbn"
    code, out, err = run(
        capsys, "import-results", "--edition", "nope", "--match", "R1-M1", str(path)
    )
    assert (code, out, err) == (2, "", "bridgeko: no edition 'nope'\n")


@runs("import-bws")
@pytest.mark.django_db
def test_import_bws_is_wired_and_names_an_unknown_edition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its end-to-end runs against a drawn edition are in tests/test_cli_import_bws.py."""
    path = ROOT / "tests" / "data" / "bws" / "LBC-2026-01-26.bws"
    argv = ["import-bws", "--edition", "nope", "--match", "R1-M1", "--open", "1", "--closed", "2"]
    code, out, err = run(capsys, *argv, str(path))
    assert (code, out, err) == (2, "", "bridgeko: no edition 'nope'\n")


@runs("follow")
@pytest.mark.django_db
def test_follow_once_with_nothing_switched_on_reads_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its end-to-end run over a followed file is in tests/test_cli_import_bws.py."""
    code, out, err = run(capsys, "follow", "--once")
    assert (code, err) == (0, "")
    assert out == "following the Bridgemate files switched on in the pages, every 2 s\n"


@runs("export-cbs")
@pytest.mark.django_db
def test_export_cbs_is_wired_and_names_an_unknown_edition(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Its end-to-end run on the demo's played edition is in tests/web/test_cbs_export.py."""
    code, out, err = run(capsys, "export-cbs", "--edition", "nope", str(tmp_path))
    assert (code, out) == (2, "") and err.startswith("bridgeko: no edition 'nope'")


@runs("export-usebio")
@pytest.mark.django_db
def test_export_usebio_is_wired_and_names_an_unknown_edition(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Its end-to-end run on the demo's played edition is in tests/web/test_exports.py."""
    code, out, err = run(capsys, "export-usebio", "--edition", "nope", str(tmp_path / "x.xml"))
    assert (code, out) == (2, "") and err.startswith("bridgeko: no edition 'nope'")


@runs("analyse-pending")
@pytest.mark.django_db
def test_analyse_pending_is_wired_and_names_an_unknown_edition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its end-to-end run over a set of boards is in tests/test_cli_analyse_pending.py."""
    assert run(capsys, "analyse-pending") == (0, "nothing to analyse\n", "")
    code, out, err = run(capsys, "analyse-pending", "--edition", "nope")
    assert (code, out, err) == (2, "", "bridgeko: no edition 'nope'\n")


@runs("send-mail")
@pytest.mark.django_db
def test_send_mail_with_nothing_queued_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """Its end-to-end runs (queued, failed, --retry-failed) are in tests/web/test_mail.py."""
    assert run(capsys, "send-mail") == (0, "nothing to send\n", "")
    assert run(capsys, "send-mail", "--retry-failed") == (0, "nothing to send\n", "")


@runs("export-site")
@pytest.mark.django_db
def test_export_site_is_wired_and_names_an_unknown_edition(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Its end-to-end runs (links, assets, incremental, errors) are in
    tests/web/test_export_site.py; its secrecy in tests/web/test_secrecy.py."""
    assert run(capsys, "export-site", str(tmp_path)) == (
        2,
        "",
        "bridgeko: there is no edition to export\n",
    )
    code, out, err = run(capsys, "export-site", str(tmp_path), "--edition", "nope")
    assert (code, out, err) == (2, "", "bridgeko: no edition nope (the editions: none)\n")


# --- every command has a handler and a test above --------------------------------------------


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_of_the_parser_has_a_handler() -> None:
    for name, parser in _subcommands(build_parser()).items():
        assert callable(parser.get_default("handler")), f"bridgeko {name} has no handler"


def test_every_command_of_the_parser_has_an_end_to_end_test() -> None:
    commands = set(_subcommands(build_parser())) - set(ALIASES)
    assert commands == set(COMMANDS)
    assert commands - TESTED == set(), "commands without an end-to-end test"


def test_the_registry_names_each_command_module_and_help_line() -> None:
    full = build_parser()
    sub = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in sub._choices_actions}
    for name, (module, text) in COMMANDS.items():
        assert helps[name] == text, name
        parsers = _subcommands(build_parser(name))
        handler = parsers[name].get_default("handler")
        assert handler.__module__ == module == importlib.import_module(module).__name__


def test_only_the_command_run_and_its_module_are_built() -> None:
    parsers = _subcommands(build_parser("imps"))
    assert set(parsers) == {"score", "imps", "board-imps"}
    assert callable(parsers["imps"].get_default("handler"))
    help_only = _subcommands(build_parser(""))  # bridgeko --help: a name and a help line each
    assert set(help_only) == {*COMMANDS, *ALIASES}
    assert all(p.get_default("handler") is None for p in help_only.values())
