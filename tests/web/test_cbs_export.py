"""The files of a finished edition for Matrika ČBS (issue 20): the demo's played 1998 edition
written as Czech TDs import a teams event (Windows-1250, the teams by draw number, the places of
the standings with 5-8 shared, the IMPs); refused before the edition is finished; the Standings
page's download and ``bridgeko export-cbs``."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bridgeko.cli import main
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.entries.models import RosterEntry
from bridgeko.matches import cbs, standings
from tests.web.conftest import demo_loaded


@pytest.fixture
def demo(db: Any) -> Edition:
    demo_loaded()
    return Edition.objects.get(slug="ko-1998")


def lines(data: bytes) -> list[str]:
    return data.decode("cp1250").splitlines()


def test_R1_2_cbs_files_of_the_played_edition_follow_the_standings(demo: Edition) -> None:
    out = cbs.files(demo)
    assert sorted(out.files) == ["players.csv", "rankings.csv", "teams.csv"]
    teams = lines(out.files["teams.csv"])
    assert teams[0] == "Bridge Open K.O. 1998,1"
    assert len(teams) == 1 + 8 and all(t.count(",") == 2 for t in teams[1:])
    rankings = [line.split(",") for line in lines(out.files["rankings.csv"])[1:]]
    places = [(int(r[1]), int(r[2])) for r in rankings]
    assert places[:4] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert places[4:] == [(5, 8)] * 4  # the quarterfinal losers share 5-8 (I7)
    summary = standings.summary(demo)
    winner = summary.placings[0].teams[0]
    by_name = {t.split(",")[2]: t.split(",")[0] for t in teams[1:]}
    assert rankings[0][3] == by_name[winner.name]
    won, lost = int(rankings[0][4]), int(rankings[0][5])
    assert int(rankings[0][6]) == won - lost and won > lost
    players = lines(out.files["players.csv"])[1:]
    assert len(players) == RosterEntry.objects.filter(team__edition=demo).count()
    first = RosterEntry.objects.filter(team__edition=demo).select_related("player").first()
    assert first is not None
    surname = first.player.name.split()[0]
    assert any(f",{surname}," in p and f",{first.player.federation_id}," in p for p in players)
    assert "ČBS" in out.files["players.csv"].decode("cp1250")  # Windows-1250, not UTF-8
    assert "Č".encode("cp1250") in out.files["players.csv"]


def test_cbs_files_wait_for_the_end_of_the_edition(demo: Edition) -> None:
    unfinished = Edition.objects.get(slug="ko-1999")
    with pytest.raises(ServiceError, match="The edition is not finished"):
        cbs.files(unfinished)


def test_cbs_files_refuse_a_name_windows_1250_cannot_hold(demo: Edition) -> None:
    entry = RosterEntry.objects.filter(team__edition=demo).select_related("player").first()
    assert entry is not None
    entry.player.name = "Sørensen Åse"
    entry.player.save()
    with pytest.raises(ServiceError, match=r"Sørensen.*Windows-1250"):
        cbs.files(demo)


def login(who: str) -> Client:
    from django.contrib.auth import get_user_model

    client = Client()
    client.cookies["django_language"] = "en"  # the tests read English
    client.force_login(get_user_model().objects.get(username=who))
    return client


def test_cbs_files_are_a_download_of_the_standings_page(demo: Edition) -> None:
    page = login("organiser").get(reverse("matches:standings", kwargs={"edition": demo.slug}))
    url = reverse("matches:cbs_files", kwargs={"edition": demo.slug})
    assert url in page.content.decode()
    response = login("organiser").get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert {"players.csv", "teams.csv", "rankings.csv"} <= set(names)
    unfinished = reverse("matches:cbs_files", kwargs={"edition": "ko-1999"})
    refused = login("organiser").get(unfinished, follow=True)
    assert "The edition is not finished" in refused.content.decode()
    other = reverse("matches:standings", kwargs={"edition": "ko-1999"})
    assert unfinished not in login("organiser").get(other).content.decode()


def test_export_cbs_writes_the_three_files(
    demo: Edition, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export-cbs", "--edition", "ko-1998", str(tmp_path / "matrika")]) == 0
    out, _err = capsys.readouterr()
    written = sorted(p.name for p in (tmp_path / "matrika").iterdir())
    assert written == ["players.csv", "rankings.csv", "teams.csv"]
    assert str(tmp_path / "matrika" / "teams.csv") in out
    assert (tmp_path / "matrika" / "teams.csv").read_bytes() == cbs.files(demo).files["teams.csv"]
    assert main(["export-cbs", "--edition", "ko-1999", str(tmp_path / "x")]) == 2
    assert "The edition is not finished" in capsys.readouterr().err
    assert main(["export-cbs", "--edition", "nope", str(tmp_path / "x")]) == 2
    assert "no edition 'nope'" in capsys.readouterr().err
