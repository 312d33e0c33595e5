"""``bridgeko deal`` for the dealing machines: --copies, --sealed/--shown, --bigdeal, --newline
(the bytes Big Deal writes: tests/bridge/test_formats_bigdeal.py), and ``verify-deal`` refusing an
end position (PBN 2.1 §3.10)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bridgeko.bridge import formats
from bridgeko.bridge.dealing import deal_set
from bridgeko.cli import main

SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
COMMITMENT = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
EVENT = "Bridge Open K.O."
SET = ["--seed", SEED, "--event", EVENT, "--session", "QF-1", "--boards", "1-16"]
DEALS = deal_set(bytes.fromhex(SEED), EVENT, "QF-1", range(1, 17))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def dup(capsys: pytest.CaptureFixture[str], tmp_path: Path, *options: str) -> bytes:
    path = tmp_path / "set.dup"
    code, _, err = run(capsys, "deal", *SET, "--format", "dup", "-o", str(path), *options)
    assert code == 0, err
    return path.read_bytes()


def test_dup_defaults_are_unchanged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = dup(capsys, tmp_path)
    assert data == formats.to_dup(DEALS)
    assert data[146:156] == b"YN1  1 16 "


def test_dup_bigdeal_copies_and_sealed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = dup(capsys, tmp_path, "--bigdeal")
    assert data == formats.to_dup(DEALS, copies=0, style="bigdeal")
    assert data[146:156] == b"YN1  0 16 "
    assert dup(capsys, tmp_path, "--bigdeal", "--copies", "2")[146:156] == b"YN1  2 16 "
    assert dup(capsys, tmp_path, "--copies", "3")[146:156] == b"YN1  3 16 "
    sealed = dup(capsys, tmp_path, "--bigdeal", "--sealed")
    assert sealed == formats.to_dup(DEALS, copies=0, style="bigdeal", sealed=True)
    assert sealed[78:146] == b" " * 68
    assert dup(capsys, tmp_path, "--shown") == formats.to_dup(DEALS)


def test_R12_7_a_sealed_bigdeal_dup_still_verifies(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dup(capsys, tmp_path, "--bigdeal", "--sealed")
    code, out, _ = run(
        capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(tmp_path / "set.dup")
    )
    assert code == 0, out


def test_dlm_shown_sealed_bigdeal_and_line_ends(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", *SET, "--format", "dlm")
    assert code == 0 and "Status=Sealed\r\n" in out and "Headline=Bridge Open K.O. QF-1\r\n" in out
    code, out, _ = run(capsys, "deal", *SET, "--format", "dlm", "--shown")
    assert code == 0 and "Status=Show\r\n" in out
    code, out, _ = run(capsys, "deal", *SET, "--format", "dlm", "--bigdeal", "--newline", "lf")
    assert code == 0
    assert out == formats.to_dlm(DEALS, title=formats.BIGDEAL_HEADLINE, newline="\n")
    code, out, _ = run(capsys, "deal", *SET, "--format", "dlm", "--bigdeal", "--shown")
    assert out == formats.to_dlm(DEALS, title=formats.BIGDEAL_HEADLINE, show=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--format", "dlm", "--copies", "2"], "--copies: not an option of --format dlm"),
        (["--format", "pbn", "--bigdeal"], "--bigdeal: not an option of --format pbn"),
        (["--sealed"], "--sealed/--shown: not an option of --format pbn"),
        (["--format", "dup", "--newline", "lf", "-o", "x.dup"], "--newline: not an option"),
        (["--format", "dup", "--copies", "100", "-o", "{tmp}/x.dup"], "must be 0 to 99"),
    ],
)
def test_machine_options_the_format_has_no_use_for_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, options: list[str], message: str
) -> None:
    argv = [o.replace("{tmp}", str(tmp_path)) for o in options]
    code, out, err = run(capsys, "deal", *SET, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_bigdeal_dup_holds_boards_to_99_only(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seed", SEED, "--event", EVENT, "--boards", "90-100", "--format", "dup"]
    code, _, err = run(capsys, "deal", *argv, "--bigdeal", "-o", "x.dup")
    assert code == 2 and "the DUP format holds boards 1 to 99" in err


def test_PBN_3_10_verify_refuses_an_end_position_naming_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ending = tmp_path / "ending.pbn"
    ending.write_text(
        '[Board "1"]\n[Dealer "N"]\n[Deal "N:A... K... Q... J..."]\n[Contract "NT"]\n',
        encoding="ascii",
    )
    code, out, err = run(capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(ending))
    assert code == 2 and out == ""
    assert err == (
        f"bridgeko: {ending}: line 3: board 1 is an end position (PBN 2.1 §3.10; 1/1/1/1 cards "
        "in N/E/S/W), not a whole deal\n"
    )
