"""``bridgeko --help`` lists every command with a one-line description; each help reads well."""

from __future__ import annotations

import argparse

import pytest

from bridgeko.cli import build_parser, main


def _commands() -> dict[str, str]:
    """Command name -> its one-line description in ``bridgeko --help``."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a.help or "" for a in sub._choices_actions}


def test_bridgeko_help_lists_every_command_with_a_one_line_description(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps long lines
    assert exc.value.code == 0
    commands = _commands()
    for name in ("score", "imps", "board-imps", "deal", "verify-deal", "analyse", "showcase"):
        assert name in commands
    for name, text in commands.items():
        assert text and "\n" not in text and len(text) <= 100, name
        assert not text.endswith("."), name
        assert f"{name} {' '.join(text.split())}" in out or name == "analyse", name
    assert "analyse (analyze) double-dummy tables" in out


OWN = ["score", "imps", "board-imps", "deal", "verify-deal", "analyse", "showcase"]
OWN += ["verify-draw", "bracket"]
OWN += ["serve", "import-elo", "import-results", "analyse-pending"]
OWN += ["send-mail"]


@pytest.mark.parametrize("command", OWN)
def test_each_command_help_has_a_description_an_example_or_its_options(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    usage, description, *_ = out.split("\n\n")
    assert usage.startswith(f"usage: bridgeko {command}")
    assert len(description.split()) >= 12  # a sentence or two, not just the option list
    options = out[out.index("options:") :]
    for line in options.splitlines()[1:]:
        if line.startswith("  -") and "  " in line.strip():
            assert line.split("  ", 2)[-1].strip(), line  # every option says what it does


def test_web_commands_say_what_every_argument_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--host HOST" in out and "--port PORT" in out
    assert "(default: 127.0.0.1)" in out and "(default: 8000)" in out
    with pytest.raises(SystemExit):
        main(["import-elo", "--help"])
    out = capsys.readouterr().out
    positional = out[out.index("positional arguments:") : out.index("options:")]
    assert "FILE " in positional and "CSV" in positional
    assert "English" in " ".join(out.split())  # the language of its messages is documented
