"""The player register and the Elo list import (R10.1: the list of the reference date)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.players import elo_csv, services
from bridgeko.players.models import EloList, EloRating, Player

HEADER = "Reg. č.;Příjmení a jméno;Klub;IMP Elo;Člen"
GOOD = "\n".join(
    [
        HEADER,
        "1001;Šťastný Jan;BK Praha;1510;A",
        "1002;Řezníček Petr;BK Brno;;N",
        "1003;Žluťoučký Kůň;BK Ústí;987;A",
    ]
)
COLUMNS = elo_csv.Columns(federation_id="1", name="2", club="3", elo="4", member="5")


# --- the pure parser (no database) -------------------------------------------------------------


def test_parse_utf8_with_bom_and_header_names() -> None:
    data = "\ufeff".encode() + GOOD.encode("utf-8")
    by_name = elo_csv.Columns(
        federation_id="Reg. č.", name="příjmení a jméno", elo="IMP Elo", club="Klub", member="Člen"
    )
    result = elo_csv.parse(data, by_name)
    assert result.encoding == "utf-8" and result.problems == ()
    assert result.header[0] == "Reg. č."
    assert [(r.line, r.federation_id, r.name, r.elo, r.club, r.member) for r in result.rows] == [
        (2, "1001", "Šťastný Jan", 1510, "BK Praha", True),
        (3, "1002", "Řezníček Petr", None, "BK Brno", False),
        (4, "1003", "Žluťoučký Kůň", 987, "BK Ústí", True),
    ]


def test_parse_cp1250_detected() -> None:
    result = elo_csv.parse(GOOD.encode("cp1250"), COLUMNS)
    assert result.encoding == "cp1250"
    assert [r.name for r in result.rows] == ["Šťastný Jan", "Řezníček Petr", "Žluťoučký Kůň"]


def test_parse_reports_every_bad_row_by_line() -> None:
    text = "\n".join(
        [
            HEADER,
            "1001;Šťastný Jan;BK Praha;15x0;A",
            ";Bez Čísla;BK;1200;A",
            "1003;Řezníček Petr;BK;1300;maybe",
            "1003;Dvojník;BK;1300;A",
            "1005;Krátký",
        ]
    )
    result = elo_csv.parse(text.encode(), COLUMNS)
    assert [(p.line, p.template) for p in result.problems] == [
        (2, "Elo %(value)s is not a whole number."),
        (3, "The federation id is missing."),
        (4, "Membership %(value)s is not yes/no (1/0, A/N)."),
        (5, "Federation id %(id)s is already on line %(first)d."),
        (6, "Too few columns: %(found)d, %(needed)d expected."),
    ]
    assert str(result.problems[3]) == "line 5: Federation id 1003 is already on line 4."
    assert not result.ok


def test_parse_without_header_and_unknown_column_name() -> None:
    result = elo_csv.parse(
        b"7;Novak Jan;1400\n", elo_csv.Columns("1", "2", elo="3"), has_header=False
    )
    assert [(r.line, r.elo) for r in result.rows] == [(1, 1400)]
    missing = elo_csv.parse(GOOD.encode(), elo_csv.Columns("Reg. č.", "Jméno"))
    assert [str(p) for p in missing.problems] == ["Column Jméno for name is not in the header."]


def test_columns_spec() -> None:
    assert elo_csv.Columns.parse("id=1,name=2,elo=4") == elo_csv.Columns("1", "2", elo="4")
    with pytest.raises(ValueError, match="id="):
        elo_csv.Columns.parse("name=2")
    with pytest.raises(ValueError, match="bad column"):
        elo_csv.Columns.parse("id=1,name=2,rank=3")


# --- the service ------------------------------------------------------------------------------


def _counts() -> tuple[int, int, int, int]:
    return (
        Player.objects.count(),
        EloList.objects.count(),
        EloRating.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["utf-8", "cp1250"])
def test_R10_1_import_stores_the_list_of_the_reference_date(world: Any, encoding: str) -> None:
    summary = services.import_elo(
        edition=world.edition,
        data=GOOD.encode(encoding),
        columns=COLUMNS,
        user=world.users["organiser"],
    )
    assert (summary.rows, summary.created, summary.updated, summary.with_elo) == (3, 3, 0, 2)
    assert summary.reference_date == date(1998, 6, 30)
    stastny = Player.objects.get(federation_id="1001")
    assert (stastny.name, stastny.club, stastny.member) == ("Šťastný Jan", "BK Praha", True)
    assert stastny.elo_at(date(1998, 6, 30)) == 1510
    assert Player.objects.get(federation_id="1002").elo_at(date(1998, 6, 30)) is None
    entry = AuditEntry.objects.get(action="bridgeko.player.imported")
    assert entry.after["rows"] == 3 and entry.after["encoding"] == encoding


@pytest.mark.django_db
def test_reimport_updates_players_and_replaces_the_list(world: Any) -> None:
    user = world.users["organiser"]
    services.import_elo(edition=world.edition, data=GOOD.encode(), columns=COLUMNS, user=user)
    again = GOOD.replace("1510", "1600").replace("BK Praha", "BK Plzeň")
    summary = services.import_elo(
        edition=world.edition, data=again.encode(), columns=COLUMNS, user=user
    )
    assert (summary.created, summary.updated) == (0, 3)
    assert Player.objects.get(federation_id="1001").club == "BK Plzeň"
    assert EloRating.objects.filter(player__federation_id="1001").get().elo == 1600
    entry = AuditEntry.objects.filter(action="bridgeko.player.imported").first()
    assert entry is not None and entry.before == {"reference_date": "1998-06-30", "ratings": 2}


@pytest.mark.django_db
def test_broken_row_imports_nothing(world: Any) -> None:
    bad = GOOD + "\n1004;Novák Jan;BK;abc;A"
    before = _counts()
    with pytest.raises(services.EloImportError) as info:
        services.import_elo(
            edition=world.edition, data=bad.encode(), columns=COLUMNS, user=world.users["organiser"]
        )
    assert info.value.errors == ("Line 5: Elo abc is not a whole number.",)
    assert _counts() == before


@pytest.mark.django_db
def test_player_crud_and_unique_id(world: Any) -> None:
    user = world.users["organiser"]
    player = services.create_player(data={"name": "  Novák Jan ", "federation_id": ""}, user=user)
    assert (player.name, player.federation_id) == ("Novák Jan", None)
    services.create_player(data={"name": "Bez Čísla"}, user=user)  # two players without id
    services.create_player(data={"name": "A", "federation_id": "77"}, user=user)
    before = _counts()
    with pytest.raises(ServiceError) as info:
        services.update_player(player=player, data={"name": "X", "federation_id": "77"}, user=user)
    assert info.value.field == "federation_id"
    with pytest.raises(ServiceError):
        services.create_player(data={"name": " "}, user=user)
    assert _counts() == before
    services.delete_player(player=player, user=user)
    assert not Player.objects.filter(pk=player.pk).exists()
    assert AuditEntry.objects.filter(action="bridgeko.player.deleted").get().before["name"] == (
        "Novák Jan"
    )


# --- the pages and the command ----------------------------------------------------------------


def _form(**extra: Any) -> dict[str, Any]:
    return {
        "has_header": "on",
        "col_federation_id": "1",
        "col_name": "2",
        "col_club": "3",
        "col_elo": "4",
        "col_member": "5",
        "encoding": "",
    } | extra


@pytest.mark.django_db
def test_import_page_preview_then_confirm(world: Any) -> None:
    client = world.client("registrar")
    url = reverse("players:import", kwargs={"edition": "ko-1999"})
    upload = SimpleUploadedFile("elo.csv", GOOD.encode("cp1250"))
    page = client.post(url, _form(file=upload, preview="1"))
    assert page.status_code == 200
    assert [r.name for r in page.context["preview_rows"]] == [
        "Šťastný Jan",
        "Řezníček Petr",
        "Žluťoučký Kůň",
    ]
    assert page.context["problems"] == []
    assert Player.objects.count() == 0  # a preview saves nothing
    done = client.post(url, _form(confirm="1"))  # the file is kept from the preview
    assert done.status_code == 302
    assert Player.objects.count() == 3


@pytest.mark.django_db
def test_import_page_lists_problems_and_refuses(world: Any) -> None:
    client = world.client("registrar")
    url = reverse("players:import", kwargs={"edition": "ko-1999"})
    bad = GOOD + "\n1001;Dvojník;BK;1000;A"
    page = client.post(url, _form(file=SimpleUploadedFile("elo.csv", bad.encode()), preview="1"))
    assert page.context["problems"] == ["Line 5: Federation id 1001 is already on line 2."]
    page = client.post(url, _form(confirm="1"))
    assert page.status_code == 200
    assert "Line 5" in " ".join(page.context["form"].errors["file"])
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_import_elo_command(world: Any, tmp_path: Any) -> None:
    path = tmp_path / "elo.csv"
    path.write_bytes(GOOD.encode("cp1250"))
    call_command(
        "import_elo", str(path), edition="ko-1999", columns="id=1,name=2,club=3,elo=4,member=5"
    )
    assert Player.objects.count() == 3
    path.write_bytes((GOOD + "\n;x;y;1;A").encode())
    with pytest.raises(CommandError, match="Line 5"):
        call_command("import_elo", str(path), edition="ko-1999", columns="id=1,name=2")


@pytest.mark.django_db
def test_bridgeko_import_elo_cli(world: Any, tmp_path: Any, capsys: Any) -> None:
    from bridgeko.cli import main

    path = tmp_path / "elo.csv"
    path.write_bytes(GOOD.encode("cp1250"))
    code = main(
        ["import-elo", str(path), "--edition", "ko-1999", "--columns", "id=1,name=2,elo=4",
         "--user", "organiser"]
    )  # fmt: skip
    assert code == 0
    assert "3 players (3 new, 0 updated, 2 with Elo)" in capsys.readouterr().out
    assert (
        AuditEntry.objects.get(action="bridgeko.player.imported").user == world.users["organiser"]
    )
    assert main(["import-elo", str(path), "--edition", "nope", "--columns", "id=1,name=2"]) == 2
    assert "no edition 'nope'" in capsys.readouterr().err


@pytest.mark.django_db
def test_bridgeko_import_elo_cli_speaks_english(world: Any, tmp_path: Any, capsys: Any) -> None:
    """The CLI prints English like the rest of ``bridgeko``, whatever the site's language."""
    from django.utils import translation

    from bridgeko.cli import main

    path = tmp_path / "elo.csv"
    path.write_bytes((GOOD + "\n;x;y;1;A").encode())
    with translation.override("cs"):
        assert (
            main(["import-elo", str(path), "--edition", "ko-1999", "--columns", "id=1,name=2"]) == 2
        )
        assert translation.get_language() == "cs"  # restored afterwards
    err = capsys.readouterr().err
    assert "nothing was imported" in err and "Line 5" in err
    path.write_bytes(GOOD.encode())
    with translation.override("cs"):
        assert (
            main(["import-elo", str(path), "--edition", "ko-1999", "--columns", "id=1,name=2"]) == 0
        )
    assert capsys.readouterr().out.startswith("Elo list of ")


@pytest.mark.django_db
def test_bridgeko_import_elo_column_names_need_a_header_row(
    world: Any, tmp_path: Any, capsys: Any
) -> None:
    from bridgeko.cli import main

    path = tmp_path / "elo.csv"
    path.write_bytes("\n".join(GOOD.splitlines()[1:]).encode())
    args = ["import-elo", str(path), "--edition", "ko-1999", "--no-header"]
    assert main([*args, "--columns", "id=1,name=Příjmení a jméno,elo=4"]) == 2
    err = capsys.readouterr().err
    assert "need a header row" in err and "Příjmení a jméno" in err
    assert "not in the header" not in err
    assert Player.objects.count() == 0
    assert main([*args, "--columns", "id=1,name=2,elo=4"]) == 0
    assert Player.objects.count() == 3


@pytest.mark.django_db
def test_player_pages_show_errors_next_to_the_field(world: Any) -> None:
    client = world.client("registrar")
    create = reverse("players:create", kwargs={"edition": "ko-1999"})
    assert client.post(create, {"name": "Novák Jan", "federation_id": "55"}).status_code == 302
    page = client.post(create, {"name": "Jiný", "federation_id": "55"})
    assert page.context["form"].errors["federation_id"] == [
        "Federation id 55 already belongs to Novák Jan."
    ]
    listing = client.get(reverse("players:list", kwargs={"edition": "ko-1999"}), {"q": "nov"})
    assert [p.name for p, _elo in listing.context["rows"]] == ["Novák Jan"]
