"""`bridgeko manage` hands every argument, options included, to Django's manage.py."""

from __future__ import annotations

import pytest

from bridgeko.cli import main


def test_manage_help_reaches_django(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["manage", "--help"]) == 0
    assert "bridgeko manage help <subcommand>" in capsys.readouterr().out


def test_manage_passes_options_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["manage", "help", "migrate"]) == 0
    assert "--plan" in capsys.readouterr().out


def test_unknown_option_of_another_command_is_still_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "4S", "10", "--bogus"])
    assert exc.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err
