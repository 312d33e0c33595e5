"""The player register (organisers) and the two-step Elo list import (preview, then import)."""

from __future__ import annotations

import base64
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from bridgeko.accounts.permissions import ORGANISERS, edition_role_required
from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import apply_service_error
from bridgeko.core.search import SEARCH_MAX_LENGTH, cut_search
from bridgeko.editions.models import Edition
from bridgeko.players import elo_csv, services
from bridgeko.players.forms import ELO_IMPORT_INITIAL, EloImportForm, PlayerForm
from bridgeko.players.models import EloRating, Player

PREVIEW_ROWS = 20
SESSION_KEY = "bridgeko.players.elo_upload"
MAX_UPLOAD = 10 * 1024 * 1024


@require_safe
@edition_role_required(*ORGANISERS)
def player_list(request: HttpRequest, edition: Edition) -> HttpResponse:
    query, search_cut = cut_search(request.GET.get("q", ""))
    players = Player.objects.all()
    if query:
        players = players.filter(
            Q(name__icontains=query) | Q(federation_id=query) | Q(club__icontains=query)
        )
    page = Paginator(players, 50).get_page(request.GET.get("page"))
    reference = edition.regulations.rating.reference_date
    elo = dict(
        EloRating.objects.filter(
            elo_list__reference_date=reference, player__in=[p.pk for p in page]
        ).values_list("player_id", "elo")
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
        },
    )


@edition_role_required(*ORGANISERS)
def player_create(request: HttpRequest, edition: Edition) -> HttpResponse:
    return _player_form(request, edition, None)


@edition_role_required(*ORGANISERS)
def player_edit(request: HttpRequest, edition: Edition, pk: int) -> HttpResponse:
    return _player_form(request, edition, get_object_or_404(Player, pk=pk))


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


@require_POST
@edition_role_required(*ORGANISERS)
def player_delete(request: HttpRequest, edition: Edition, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    try:
        services.delete_player(player=player, user=request.user, edition=edition)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Player deleted."))
    return redirect("players:list", edition=edition.slug)


@edition_role_required(*ORGANISERS)
def elo_import(request: HttpRequest, edition: Edition) -> HttpResponse:
    """POST with ``preview``: parse and show the first rows and every problem (the file is kept
    in the session); POST with ``confirm``: import the kept file through the service."""
    reference = edition.regulations.rating.reference_date
    context: dict[str, Any] = {"edition": edition, "reference": reference}
    if request.method != "POST":
        context["form"] = EloImportForm(initial=ELO_IMPORT_INITIAL)
        return render(request, "players/import.html", context)
    form = EloImportForm(request.POST, request.FILES)
    context["form"] = form
    if not form.is_valid():
        return render(request, "players/import.html", context)
    upload = request.FILES.get("file")
    stored = request.session.get(SESSION_KEY)
    if upload is not None:
        if upload.size is not None and upload.size > MAX_UPLOAD:
            form.add_error("file", _("The file is larger than 10 MB."))
            return render(request, "players/import.html", context)
        data = upload.read()
        name = upload.name or ""
        request.session[SESSION_KEY] = {
            "edition": edition.slug,
            "name": name,
            "data": base64.b64encode(data).decode("ascii"),
        }
    elif stored and stored.get("edition") == edition.slug:
        data = base64.b64decode(stored["data"])
        name = stored["name"]
    else:
        form.add_error("file", _("Choose the file."))
        return render(request, "players/import.html", context)
    try:
        columns = elo_csv.Columns(**form.columns())  # type: ignore[arg-type]
    except TypeError:
        form.add_error(None, _("Choose the columns."))
        return render(request, "players/import.html", context)
    encoding = form.cleaned_data["encoding"] or None
    has_header = form.cleaned_data["has_header"]
    if "confirm" in request.POST:
        try:
            summary = services.import_elo(
                edition=edition,
                data=data,
                columns=columns,
                encoding=encoding,
                has_header=has_header,
                source_name=name,
                user=request.user,
            )
        except ServiceError as exc:
            apply_service_error(form, exc)
        else:
            request.session.pop(SESSION_KEY, None)
            messages.success(
                request,
                _("Imported %(rows)d players (%(created)d new, %(elo)d with Elo).")
                % {"rows": summary.rows, "created": summary.created, "elo": summary.with_elo},
            )
            return redirect("players:list", edition=edition.slug)
    result = services.preview_elo(data, columns, encoding=encoding, has_header=has_header)
    context.update(
        preview=result,
        preview_rows=result.rows[:PREVIEW_ROWS],
        problems=[services.problem_text(p) for p in result.problems],
        file_name=name,
    )
    return render(request, "players/import.html", context)
