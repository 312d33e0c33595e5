"""The matches' pages (issue 10). Each feature keeps its patterns in a block of its own."""

from __future__ import annotations

from django.urls import path

from bridgeko.matches import (
    agreement_views,
    bws_views,
    lineup_views,
    pbn_views,
    record_views,
    room_end_views,
    standings_views,
    views,
)

app_name = "matches"
urlpatterns = [
    # match pages (the TD's: the matches, one match, board by board, totals, penalties)
    path("e/<slug:edition>/matches/", views.match_list, name="list"),
    path("e/<slug:edition>/matches/<str:code>/", views.match_detail, name="detail"),
    path(
        "e/<slug:edition>/matches/<str:code>/boards/<int:board>/<str:room>/",
        views.save_board,
        name="save_board",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/totals/",
        views.segment_totals,
        name="segment_totals",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/close/",
        views.close_segment,
        name="close_segment",
    ),
    path("e/<slug:edition>/matches/<str:code>/penalties/", views.add_penalty, name="add_penalty"),
    path(
        "e/<slug:edition>/matches/<str:code>/penalties/<int:penalty>/withdraw/",
        views.withdraw_penalty,
        name="withdraw_penalty",
    ),
    # end of match pages
    # the end of a segment in each room (I15, issue 11): the TD records it, clearing asks first
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/end/<str:room>/",
        room_end_views.room_end,
        name="room_end",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/end/<str:room>/clear/",
        room_end_views.room_end_clear,
        name="room_end_clear",
    ),
    # line-ups (R12.2, R12.6, I5, I14): a team's line-up for a segment, the TD's clearing and
    # start of a segment, the printable table cards
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:number>/line-up/<str:side>/",
        lineup_views.line_up,
        name="line_up",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:number>/line-up/<str:side>/clear/",
        lineup_views.line_up_clear,
        name="line_up_clear",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:number>/start/",
        lineup_views.segment_start,
        name="segment_start",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:number>/slips/",
        lineup_views.slips,
        name="slips",
    ),
    # end of line-ups
    # PBN import
    path(
        "e/<slug:edition>/matches/<str:match>/import/",
        pbn_views.import_pbn,
        name="import_pbn",
    ),
    path(
        "e/<slug:edition>/matches/<str:match>/import-bws/",
        bws_views.import_bws,
        name="import_bws",
    ),
    # standings and schedule
    path("e/<slug:edition>/standings/", standings_views.standings, name="standings"),
    path("e/<slug:edition>/standings/decide/", standings_views.decide, name="decide_place"),
    path("e/<slug:edition>/standings/matrika-cbs.zip", standings_views.cbs_files, name="cbs_files"),
    path(
        "e/<slug:edition>/standings/decisions/<int:decision>/withdraw/",
        standings_views.withdraw_decision,
        name="withdraw_decision",
    ),
    path("e/<slug:edition>/match-dates/", standings_views.dates, name="dates"),
    path(
        "e/<slug:edition>/matches/<str:match>/reschedule/",
        standings_views.reschedule,
        name="reschedule",
    ),
    path("e/<slug:edition>/matches/<str:match>/swap/", standings_views.swap, name="swap"),
    # captains agree a date (R14.2a, issue 21); the TD rules on a late agreement (I12)
    path(
        "e/<slug:edition>/matches/<str:code>/date/<str:side>/",
        agreement_views.date_page,
        name="date",
    ),
    # the match record from the captains (R14.2b, issue 21)
    path(
        "e/<slug:edition>/matches/<str:code>/record/<str:side>/",
        record_views.record_page,
        name="record",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/records/<int:record>/scorecards/",
        record_views.scorecards,
        name="record_scorecards",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/record-review/",
        record_views.review,
        name="record_review",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/date-ruling/",
        agreement_views.ruling,
        name="date_ruling",
    ),
    # end of standings and schedule
]
