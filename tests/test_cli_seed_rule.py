"""The one seed rule on the command line (R12.7, I8): ``bridgeko deal --seed``, ``bridgeko
verify-deal`` and ``bridgeko verify-draw`` refuse a 15-byte seed, an all-zero seed and a seed
that repeats a short pattern, each with the rule's message (bridge.commit_reveal)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bridgeko.cli import main
from bridgeko.competition.draw import commitment, hold_draw, protocol_json

GOOD = hashlib.sha256(b"cli seed rule").digest()

WEAK = [
    (GOOD[:15], "a seed needs at least 16 bytes (32 hex digits), this one has 15"),
    (
        bytes(32),
        "a seed of 32 bytes all equal to 00 is not random; make the seed with a random generator",
    ),
    (
        bytes.fromhex("5eed" * 16),
        "a seed that repeats the 2 bytes '5eed' is not random; make the seed with a random "
        "generator",
    ),
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("seed", "message"), WEAK)
def test_R12_7_deal_refuses_a_weak_seed(
    capsys: pytest.CaptureFixture[str], seed: bytes, message: str
) -> None:
    code, out, err = run(capsys, "deal", "--seed", seed.hex(), "--event", "E", "--boards", "1-2")
    assert (code, out) == (2, "")
    assert err == f"bridgeko: {message}\n"


@pytest.mark.parametrize(("seed", "message"), WEAK)
def test_R12_7_deal_refuses_a_weak_seed_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: bytes, message: str
) -> None:
    path = tmp_path / "weak.seed"
    path.write_text(seed.hex() + "\n", encoding="ascii")
    code, _, err = run(capsys, "deal", "--seed-file", str(path), "--event", "E", "--boards", "1")
    assert code == 2
    assert err == f"bridgeko: {path}: {message}\n"


@pytest.mark.parametrize(("seed", "message"), WEAK)
def test_R12_7_verify_deal_refuses_a_weak_seed(
    capsys: pytest.CaptureFixture[str], seed: bytes, message: str
) -> None:
    digest = hashlib.sha256(seed).hexdigest()  # it matches: the rule alone refuses the seed
    code, out, err = run(
        capsys,
        "verify-deal",
        "--seed",
        seed.hex(),
        "--commitment",
        digest,
        "--event",
        "E",
        "--boards",
        "1-2",
    )
    assert (code, out) == (2, "")
    assert err == f"bridgeko: {message}\n"


def test_R12_7_deal_with_a_good_seed_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--seed", GOOD.hex(), "--event", "E", "--boards", "1")
    assert code == 0 and '[Board "1"]' in out


@dataclass(frozen=True)
class Team:
    id: int
    name: str
    elo: int


@pytest.mark.parametrize(("seed", "message"), WEAK)
def test_I8_verify_draw_reports_a_weak_revealed_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: bytes, message: str
) -> None:
    teams = [Team(k, f"Team {k}", 480 + 13 * k) for k in range(1, 11)]
    result = hold_draw(
        teams,
        GOOD,
        commitment=commitment(GOOD),
        drawn_at=datetime(1999, 3, 12, 18, 0, tzinfo=timezone(timedelta(hours=1))),
        place="Nové Město nad Metují",
    )
    doc = json.loads(protocol_json(result))
    doc["seed"] = seed.hex()
    doc["commitment"] = hashlib.sha256(seed).hexdigest()
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run(capsys, "verify-draw", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("MISMATCH: ")
    if len(seed) < 16:
        assert lines[1] == "  - the revealed seed has 15 bytes; a draw needs at least 16"
    else:
        assert lines[1] == f"  - the revealed seed is refused: {message} (I8)"
