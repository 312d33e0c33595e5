"""The player register (organisers) and the two-step Elo list import (preview, then import)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from bridgeko.accounts.models import Role
from bridgeko.accounts.permissions import (
    REGISTRAR,
    edition_role_required,
    is_registrar,
    registrar_required,
)
from bridgeko.core.collation import search_text
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.core.search import SEARCH_MAX_LENGTH, cut_search
from bridgeko.editions.models import Edition
from bridgeko.players import elo_csv, services
from bridgeko.players.forms import ELO_IMPORT_INITIAL, EloImportForm, PlayerForm
from bridgeko.players.models import EloImport, EloImportChange, EloList, EloRating, Player

PREVIEW_ROWS = 20
PREVIEW_CHANGES = 200
"""The changed (and the missing) players a preview or an undo lists; a count tells the rest."""
SESSION_KEY = "bridgeko.players.elo_upload"
MAX_UPLOAD = 10 * 1024 * 1024


@require_safe
@edition_role_required(str(Role.TD), REGISTRAR)
def player_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    query, search_cut = cut_search(request.GET.get("q", ""))
    players = Player.objects.all()
    if query:  # case and diacritics do not matter: "sim" finds Šimek
        folded = search_text(query)
        players = players.filter(
            Q(name_search__contains=folded)
            | Q(federation_id=query)
            | Q(club_search__contains=folded)
        )
    page = Paginator(players, 50).get_page(request.GET.get("page"))
    reference = edition.regulations.rating.reference_date
    elo = dict(
        EloRating.objects.filter(
            elo_list__reference_date=reference, player__in=[p.pk for p in page]
        ).values_list("player_id", "elo")
    )
    rostered = set(
        Player.objects.filter(
            pk__in=[p.pk for p in page], roster_entries__edition=edition
        ).values_list("pk", flat=True)
    )
    rows = [(p, elo.get(p.pk)) for p in page]
    return render(
        request,
        "players/list.html",
        {
            "edition": edition,
            "page": page,
            "rows": rows,
            "q": query,
            "search_cut": search_cut,
            "search_max": SEARCH_MAX_LENGTH,
            "reference": reference,
            "can_change": is_registrar(request.user),
            "rostered": rostered,  # linked to their read-only page
        },
    )


@registrar_required
def player_create(request: HttpRequest, edition: Edition) -> HttpResponse:
    return _player_form(request, edition, None)


@edition_role_required(str(Role.TD), REGISTRAR)
def player_edit(request: HttpRequest, edition: Edition, pk: int) -> HttpResponse:
    """The registrar edits the player; an edition's organisers and TDs read the page of a
    player on one of the edition's rosters (read only: a POST is refused)."""
    if is_registrar(request.user):
        return _player_form(request, edition, get_object_or_404(Player, pk=pk))
    if request.method != "GET":
        raise PermissionDenied  # only a registrar changes the register (issue 8)
    player = get_object_or_404(Player, pk=pk, roster_entries__edition=edition)
    return render(request, "players/detail.html", _player_page(edition, player))


def _player_page(edition: Edition, player: Player) -> dict[str, object]:
    """The read-only page: the player, their Elo of the edition's reference date and their team
    in the edition (read through the roster's reverse key: this app does not import the entries
    app, which is above it)."""
    reference = edition.regulations.rating.reference_date
    elo = (
        EloRating.objects.filter(elo_list__reference_date=reference, player=player)
        .values_list("elo", flat=True)
        .first()
    )
    team = (
        player.roster_entries.filter(edition=edition)
        .values("team_id", "team__name", "position")
        .first()
    )
    return {
        "edition": edition,
        "player": player,
        "elo": elo,
        "reference": reference,
        "team": team,
    }


def _player_form(request: HttpRequest, edition: Edition, player: Player | None) -> HttpResponse:
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            if player is None:
                services.create_player(data=form.cleaned_data, user=request.user, edition=edition)
            else:
                services.update_player(
                    player=player, data=form.cleaned_data, user=request.user, edition=edition
                )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            messages.success(request, _("Player saved."))
            return redirect("players:list", edition=edition.slug)
    return render(
        request, "players/form.html", {"edition": edition, "form": form, "player": player}
    )


@registrar_required
def player_delete(request: HttpRequest, edition: Edition, pk: int) -> HttpResponse:
    """GET: what deleting the player would remove (or why it cannot be deleted); POST: delete
    through the service, which refuses a player still on a roster."""
    player = get_object_or_404(Player, pk=pk)
    if request.method != "POST":
        ratings = list(
            EloRating.objects.filter(player=player)
            .select_related("elo_list")
            .order_by("-elo_list__reference_date")
        )
        return render(
            request,
            "players/delete.html",
            {
                "edition": edition,
                "player": player,
                "ratings": ratings,
                "used_in": services.editions_using_player(player),
                "import_changes": EloImportChange.objects.filter(player=player).count(),
            },
        )
    try:
        services.delete_player(player=player, user=request.user, edition=edition)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Player deleted."))
    return redirect("players:list", edition=edition.slug)


@registrar_required
def elo_import(request: HttpRequest, edition: Edition) -> HttpResponse:
    """POST with ``preview``: parse, compare with the list and show what would change (the file
    waits in :class:`~bridgeko.players.models.EloUpload`, its token in the session); POST with
    ``confirm``: import the kept file through the service."""
    reference = edition.regulations.rating.reference_date
    context: dict[str, Any] = {"edition": edition, "reference": reference}
    if request.method != "POST":
        context["form"] = EloImportForm(initial=ELO_IMPORT_INITIAL)
        context["fixed_by"] = services.editions_fixing(reference)
        return render(request, "players/import.html", context)
    form = EloImportForm(request.POST, request.FILES)
    context["form"] = form
    if not form.is_valid():
        return render(request, "players/import.html", context)
    upload = request.FILES.get("file")
    stored_key = request.session.get(SESSION_KEY) or {}
    if upload is not None:
        if upload.size is not None and upload.size > MAX_UPLOAD:
            form.add_error("file", _("The file is larger than 10 MB."))
            return render(request, "players/import.html", context)
        stored = services.keep_upload(
            user=request.user, edition=edition, name=upload.name or "", data=upload.read()
        )
        request.session[SESSION_KEY] = {"edition": edition.slug, "token": str(stored.token)}
    else:
        stored = None
        if isinstance(stored_key, dict) and stored_key.get("edition") == edition.slug:
            stored = services.find_upload(
                user=request.user, edition=edition, token=str(stored_key.get("token"))
            )
        if stored is None:
            form.add_error("file", _("Choose the file."))
            return render(request, "players/import.html", context)
    assert stored is not None
    data, name = bytes(stored.data), stored.name
    try:
        columns = elo_csv.Columns(**form.columns())  # type: ignore[arg-type]
    except TypeError:
        form.add_error(None, _("Choose the columns."))
        return render(request, "players/import.html", context)
    encoding = form.cleaned_data["encoding"] or None
    has_header = form.cleaned_data["has_header"]
    if "confirm" in request.POST and upload is None:  # a new file is always previewed first
        try:
            summary = services.import_elo(
                edition=edition,
                data=data,
                columns=columns,
                encoding=encoding,
                has_header=has_header,
                source_name=name,
                user=request.user,
                missing=form.cleaned_data.get("missing") or None,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            stored.delete()
            request.session.pop(SESSION_KEY, None)
            messages.success(
                request,
                ngettext(
                    "Imported %(rows)d player (new: %(created)d, with Elo: %(elo)d).",
                    "Imported %(rows)d players (new: %(created)d, with Elo: %(elo)d).",
                    summary.rows,
                )
                % {"rows": summary.rows, "created": summary.created, "elo": summary.with_elo},
            )
            return redirect("players:elo", edition=edition.slug)
    result = services.preview_elo(data, columns, encoding=encoding, has_header=has_header)
    diff = None
    if not result.problems:
        diff = services.diff_elo(reference, result.rows, limit=PREVIEW_CHANGES)
    context.update(
        preview=result,
        preview_rows=result.rows[:PREVIEW_ROWS],
        problems=[services.problem_text(p) for p in result.problems],
        file_name=name,
        diff=diff,
    )
    return render(request, "players/import.html", context)


@require_safe
@edition_role_required(str(Role.TD), REGISTRAR)
def elo_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    """The Elo list of the edition's reference date: where it came from, its imports (the
    latest can be undone) and whether a held draw fixes it."""
    reference = edition.regulations.rating.reference_date
    current = EloList.objects.filter(reference_date=reference).first()
    imports = list(
        EloImport.objects.filter(reference_date=reference)
        .select_related("user", "undone_by", "edition")
        .order_by("-at", "-id")[:50]
    )
    fixed_by = services.editions_fixing(reference)
    latest = services.last_import(reference)
    return render(
        request,
        "players/elo.html",
        {
            "edition": edition,
            "reference": reference,
            "current": current,
            "ratings": 0 if current is None else current.ratings.count(),
            "imports": imports,
            "undoable": (
                None if fixed_by or latest is None or not is_registrar(request.user) else latest.pk
            ),
            "fixed_by": fixed_by,
        },
    )


@registrar_required
def elo_undo(request: HttpRequest, edition: Edition, pk: int) -> HttpResponse:
    """GET: what undoing the import would change (a confirmation); POST: undo it."""
    reference = edition.regulations.rating.reference_date
    elo_import = get_object_or_404(EloImport, pk=pk, reference_date=reference)
    error = None
    if request.method == "POST":
        try:
            services.undo_import(elo_import=elo_import, user=request.user, edition=edition)
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("The import was undone: the previous list is back."))
            return redirect("players:elo", edition=edition.slug)
    fixed_by = services.editions_fixing(reference)
    latest = services.last_import(reference)
    return render(
        request,
        "players/undo.html",
        {
            "edition": edition,
            "reference": reference,
            "plan": services.plan_undo(elo_import, limit=PREVIEW_CHANGES),
            "fixed_by": fixed_by,
            "allowed": not fixed_by and latest is not None and latest.pk == elo_import.pk,
            "error": error,
        },
        status=409 if error else 200,
    )
