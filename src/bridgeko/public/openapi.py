"""The OpenAPI 3.1 document of the open JSON API (issue 12, item 5), written here by hand as
plain data and served at ``/api/openapi.json`` (:func:`bridgeko.public.api_v1.openapi`).

It is the contract: ``tests/web/test_api_schema.py`` runs Schemathesis against the application
with this document (every path, its parameters, each response's status, headers and body
schema), and ``docs/api.md`` explains it for readers. A change of a response's shape is a change
here first; a change that breaks readers (a key removed or renamed, a type changed) is a new
version (``/api/v2/``), the old one kept (the policy in ``docs/api.md``)."""

from __future__ import annotations

from typing import Any

from bridgeko.bridge.cards import Vulnerability
from bridgeko.competition.formats import FORMATS, Section
from bridgeko.competition.stage import Stage
from bridgeko.editions.models import EditionStage
from bridgeko.matches.models import MatchStatus

__all__ = ["API_VERSION", "document"]

API_VERSION = "1"
"""The major version in the paths (``/api/v1/``)."""
INFO_VERSION = "1.0.0"

Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _null(schema: Schema) -> Schema:
    """``schema`` or null."""
    if set(schema) == {"type"} and isinstance(schema["type"], str):
        return {"type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(props: dict[str, Schema], optional: tuple[str, ...] = (), **extra: Any) -> Schema:
    """An object with exactly ``props`` (all required but ``optional``)."""
    return {
        "type": "object",
        "properties": props,
        "required": [k for k in props if k not in optional],
        "additionalProperties": False,
        **extra,
    }


def _list(item: Schema) -> Schema:
    return {"type": "array", "items": item}


STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
BOOL: Schema = {"type": "boolean"}
DATE: Schema = {"type": "string", "format": "date"}
DATETIME: Schema = {"type": "string", "format": "date-time"}
PROB: Schema = {"type": "number", "minimum": 0, "maximum": 1}
PATH: Schema = {"type": "string", "description": "An absolute path on this site."}
SIDE: Schema = {"type": "string", "enum": ["home", "visitors"]}
SEAT: Schema = {"type": "string", "enum": ["N", "E", "S", "W"]}
STRAIN: Schema = {"type": "string", "enum": ["NT", "S", "H", "D", "C"]}
MATCH_STATUS: Schema = {
    "type": "string",
    "enum": [s.value for s in MatchStatus],
    "description": "The match's status (a code, the same in every language).",
}
STAGE: Schema = {"type": "string", "enum": [s.value for s in Stage]}
EDITION_STAGE: Schema = {"type": "string", "enum": [s.value for s in EditionStage]}
VULNERABILITY: Schema = {"type": "string", "enum": [v.value for v in Vulnerability]}

DD: Schema = {
    "type": "object",
    "description": "Double-dummy tricks: {declarer: {denomination: tricks}}.",
    "propertyNames": SEAT,
    "additionalProperties": {
        "type": "object",
        "propertyNames": STRAIN,
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 13},
    },
}
PAR_CONTRACT: Schema = _obj(
    {
        "contract": {"type": "string", "examples": ["4S", "3NTX", "Pass"]},
        "declarers": {"type": "string", "examples": ["NS", "E"]},
        "over_under": INT,
    }
)
PAR: Schema = _obj(
    {
        "score": {"type": "integer", "description": "From North-South's view."},
        "contracts": _list(PAR_CONTRACT),
    }
)

SCHEMAS: dict[str, Schema] = {
    "Error": _obj(
        {
            "error": {"type": "string", "enum": ["not found", "method not allowed"]},
            "detail": {"type": "string", "description": "In the reader's language."},
        }
    ),
    "EditionLinks": _obj(
        {
            "self": PATH,
            "teams": PATH,
            "bracket": PATH,
            "matches": PATH,
            "schedule": PATH,
            "standings": PATH,
        }
    ),
    "EditionSummary": _obj(
        {
            "slug": STR,
            "name": STR,
            "year": INT,
            "stage": EDITION_STAGE,
            "language": {"type": "string", "description": "The edition's default language."},
            "links": _ref("EditionLinks"),
        }
    ),
    "EditionList": _obj({"editions": _list(_ref("EditionSummary"))}),
    "Draw": _obj(
        {
            "place": STR,
            "scheduled_at": _null(DATETIME),
            "commitment": _null(
                {"type": "string", "description": "SHA-256 of the draw's seed (R11, I8)."}
            ),
            "held_at": _null(DATETIME),
            "scheme_size": _null(INT),
            "schedule_published": BOOL,
        }
    ),
    "Edition": _obj(
        {
            "slug": STR,
            "name": STR,
            "year": INT,
            "stage": EDITION_STAGE,
            "language": STR,
            "links": _ref("EditionLinks"),
            "dates": _obj(
                {
                    "entry_deadline": _null(DATE),
                    "elo_reference_date": _null(DATE),
                    "finals_start": _null(DATE),
                    "finals_end": _null(DATE),
                    "timezone": STR,
                }
            ),
            "draw": _null(_ref("Draw")),
        }
    ),
    "TeamRef": _obj({"id": INT, "name": STR}),
    "RosterLine": _obj(
        {
            "name": STR,
            "elo": _null({"type": "integer", "description": "On the edition's Elo list (R10.1)."}),
            "captain": BOOL,
        }
    ),
    "Team": _obj(
        {
            "id": INT,
            "name": STR,
            "elo": {"type": "integer", "description": "The team's Elo (R10)."},
            "number": _null({"type": "integer", "description": "The drawn number (R11)."}),
            "roster": _list(_ref("RosterLine")),
            "links": _obj({"self": PATH}),
        }
    ),
    "TeamList": _obj({"edition": STR, "teams": _list(_ref("Team"))}),
    "TeamDetail": _obj(
        {
            "edition": STR,
            "id": INT,
            "name": STR,
            "elo": INT,
            "number": _null(INT),
            "roster": _list(_ref("RosterLine")),
            "links": _obj({"self": PATH}),
            "path": {
                "description": "The team's matches through the bracket, round by round.",
                **_list(_ref("BracketMatch")),
            },
        }
    ),
    "Slot": _obj(
        {
            "number": _null(INT),
            "team": _null(_ref("TeamRef")),
            "ref": {
                "type": "string",
                "description": "Where the slot's team comes from (a draw number, the winner "
                "or loser of a match).",
            },
            "kind": {"type": "string", "enum": ["team", "empty", "pending"]},
        }
    ),
    "BracketScore": _obj(
        {
            "home": {"type": "integer", "description": "IMPs of the slot listed first."},
            "away": INT,
            "status": MATCH_STATUS,
            "winner": _null({"type": "string", "enum": ["home", "away"]}),
            "boards_played": {"type": "integer", "minimum": 0},
            "boards": {"type": "integer", "minimum": 0},
        }
    ),
    "BracketMatch": _obj(
        {
            "code": STR,
            "round": INT,
            "stage": STAGE,
            "status": {
                "type": "string",
                "enum": ["pending", "to_play", "played", "bye", "no_winner", "not_needed"],
            },
            "home": _ref("Slot"),
            "away": _ref("Slot"),
            "start": _null(DATETIME),
            "location": STR,
            "rescheduled": BOOL,
            "swapped": BOOL,
            "section": {
                "type": "string",
                "enum": [s.value for s in Section],
                "description": "The part of the format the match belongs to: the main knockout "
                "(double elimination: the winners' bracket and the final), the losers' bracket, "
                "a plate for the first-round losers, placement matches.",
            },
            "score": _null(_ref("BracketScore")),
            "links": _obj({"match": _null(PATH)}),
        }
    ),
    "Round": _obj({"number": INT, "stage": STAGE, "matches": _list(_ref("BracketMatch"))}),
    "Bracket": _obj(
        {
            "edition": STR,
            "held": BOOL,
            "format": {
                "type": "string",
                "enum": list(FORMATS),
                "description": "The edition's format ([format] template of its regulations).",
            },
            "rounds": _list(_ref("Round")),
            "event_chances": _null(_ref("EventChances")),
        }
    ),
    "EventChances": _obj(
        {
            "computed_at": DATETIME,
            "exact": {
                "type": "boolean",
                "description": "Computed exactly (a knockout); false: simulated (`runs` times).",
            },
            "runs": {"type": "integer", "minimum": 0},
            "teams": _list(_ref("TeamChances")),
        },
        description="Each team's chance to win the event, as of the results the bracket shows "
        "(null before the draw, once the event is won, or while they are recomputed after a "
        "result). Chances are fractions from 0 to 1.",
    ),
    "TeamChances": _obj(
        {
            "team": _ref("TeamRef"),
            "number": INT,
            "win": PROB,
            "places": {
                "type": "object",
                "description": "Place decided by play -> the chance to finish there.",
                "additionalProperties": PROB,
            },
            "reach": {
                "type": "object",
                "description": "Round number -> the chance to play (or go through) in it.",
                "additionalProperties": PROB,
            },
        }
    ),
    "MatchList": _obj({"edition": STR, "matches": _list(_ref("BracketMatch"))}),
    "Board": _obj(
        {
            "number": INT,
            "open": _null({"type": "string", "examples": ["4S N =", "3NTX E -2", "P"]}),
            "closed": _null(STR),
            "imps": _null(
                {"type": "integer", "description": "To the home team (negative: visitors)."}
            ),
            "deal": {"type": "string", "description": "PBN Deal (after the segment only)."},
            "dd": _null(DD),
            "par": _null(PAR),
        },
        optional=("deal", "dd", "par"),
    ),
    "Segment": _obj(
        {
            "number": INT,
            "home_imps": INT,
            "visitors_imps": INT,
            "boards": _list(_ref("Board")),
            "hand_records": PATH,
        },
        optional=("hand_records",),
    ),
    "Penalty": _obj(
        {
            "kind": {"type": "string", "enum": ["slow_play", "lateness", "adjustment"]},
            "side": SIDE,
            "segment": INT,
            "boards": _null(INT),
            "minutes": _null(INT),
            "imps": _null(INT),
            "reason": STR,
        }
    ),
    "Match": _obj(
        {
            "code": STR,
            "stage": STAGE,
            "home": _null(_obj({"name": STR})),
            "visitors": _null(_obj({"name": STR})),
            "status": MATCH_STATUS,
            "winner": _null(SIDE),
            "total": _obj({"home": INT, "visitors": INT}),
            "segments": _list(_ref("Segment")),
            "penalties": _list(_ref("Penalty")),
            "results_pbn": _null(STR),
        }
    ),
    "RoomResult": _obj(
        {
            "text": STR,
            "ns_score": INT,
            "auction": _null(_list(STR)),
            "play": _null(_list(STR)),
        }
    ),
    "BoardRecord": _obj(
        {
            "number": INT,
            "dealer": SEAT,
            "vulnerability": VULNERABILITY,
            "deal": STR,
            "hands": {"type": "object", "propertyNames": SEAT, "additionalProperties": STR},
            "hcp": {"type": "object", "propertyNames": SEAT, "additionalProperties": INT},
            "dd": _null(DD),
            "par": _null(PAR),
            "makeable": _null(
                {"type": "object", "propertyNames": SEAT, "additionalProperties": _list(STR)}
            ),
            "open": _null(_ref("RoomResult")),
            "closed": _null(_ref("RoomResult")),
            "imps": _null(INT),
        }
    ),
    "HandRecords": _obj(
        {
            "match": STR,
            "segment": INT,
            "boards": _list(_ref("BoardRecord")),
            "analysis": _obj({"done": INT, "total": INT}),
        }
    ),
    "ScheduleEntry": _obj(
        {
            "code": STR,
            "round": INT,
            "stage": STAGE,
            "start": DATETIME,
            "location": STR,
            "rescheduled": BOOL,
            "home": _ref("Slot"),
            "away": _ref("Slot"),
            "links": _obj({"match": _null(PATH)}),
        }
    ),
    "Schedule": _obj(
        {
            "edition": STR,
            "published": BOOL,
            "matches": _list(_ref("ScheduleEntry")),
            "links": _obj({"ical": _null(PATH)}),
        }
    ),
    "Placing": _obj(
        {
            "first": INT,
            "last": INT,
            "place": {"type": "string", "examples": ["1", "5–8"]},
            "teams": _list(_ref("TeamRef")),
            "needs_decision": BOOL,
        }
    ),
    "Prize": _obj(
        {
            "place": STR,
            "team": _ref("TeamRef"),
            "amount": {"type": "integer", "description": "Each player's when per_player."},
            "currency": STR,
            "per_player": BOOL,
            "total": {"type": "integer", "description": "What the team receives in all."},
        }
    ),
    "Standings": _obj(
        {
            "edition": STR,
            "finished": BOOL,
            "placings": _list(_ref("Placing")),
            "prizes": _null(_list(_ref("Prize"))),
        }
    ),
}

SLUG: Schema = {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}
PARAMETERS: dict[str, Schema] = {
    "edition": {
        "name": "edition",
        "in": "path",
        "required": True,
        "description": "The edition's short name (its slug), e.g. `ko-1999`.",
        "schema": SLUG,
    },
    "code": {
        "name": "code",
        "in": "path",
        "required": True,
        "description": "The match's code in the playing scheme, e.g. `R1-M3`, `QF2`, `F`.",
        "schema": SLUG,
    },
    "team": {
        "name": "team",
        "in": "path",
        "required": True,
        "description": "The team's id (`id` in the teams list).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "segment": {
        "name": "segment",
        "in": "path",
        "required": True,
        "description": "The segment's number, from 1.",
        "schema": {"type": "integer", "minimum": 0},
    },
    "If-None-Match": {
        "name": "If-None-Match",
        "in": "header",
        "required": False,
        "description": "The `ETag` of the copy you hold: 304 while it is current.",
        "schema": {"type": "string"},
    },
}

HEADERS: dict[str, Schema] = {
    "ETag": {
        "description": "The version of this response; send it back as `If-None-Match`.",
        "required": True,
        "schema": {"type": "string"},
    },
    "Last-Modified": {
        "description": "When the data last changed (HTTP date).",
        "required": False,
        "schema": {"type": "string"},
    },
    "Cache-Control": {
        "description": "`public, max-age=0, must-revalidate`: ask again every time.",
        "required": True,
        "schema": {"type": "string"},
    },
}

RESPONSES: dict[str, Schema] = {
    "NotModified": {
        "description": "Your copy (`If-None-Match`) is current; no body.",
        "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
    },
    "NotFound": {
        "description": "No such edition, team, match or segment — or hand records not public "
        "yet (the same answer, so that it tells nothing).",
        "content": {"application/json": {"schema": _ref("Error")}},
    },
}


def _get(
    summary: str, schema: str, params: tuple[str, ...], *, deprecated: bool = False, tag: str
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "get": {
            "operationId": schema[0].lower() + schema[1:] + ("Legacy" if deprecated else ""),
            "summary": summary,
            "tags": [tag],
            "parameters": [{"$ref": f"#/components/parameters/{p}"} for p in params]
            + [{"$ref": "#/components/parameters/If-None-Match"}],
            "responses": {
                "200": {
                    "description": "OK",
                    "headers": {
                        h: {"$ref": f"#/components/headers/{h}"}
                        for h in ("ETag", "Last-Modified", "Cache-Control")
                    },
                    "content": {"application/json": {"schema": _ref(schema)}},
                },
                "304": {"$ref": "#/components/responses/NotModified"},
                "404": {"$ref": "#/components/responses/NotFound"},
            },
        }
    }
    if deprecated:
        op["get"]["deprecated"] = True
    return op


V1 = f"/api/v{API_VERSION}/editions"
E = ("edition",)


def document() -> dict[str, Any]:
    """The OpenAPI document (a new dict each call)."""
    paths = {
        f"{V1}/": _get("All editions, newest first", "EditionList", (), tag="editions"),
        f"{V1}/{{edition}}/": _get(
            "An edition: name, stage, dates, the draw", "Edition", E, tag="editions"
        ),
        f"{V1}/{{edition}}/teams/": _get(
            "The teams with rosters and Elo (R10)", "TeamList", E, tag="teams"
        ),
        f"{V1}/{{edition}}/teams/{{team}}/": _get(
            "A team and its path through the bracket", "TeamDetail", (*E, "team"), tag="teams"
        ),
        f"{V1}/{{edition}}/bracket/": _get(
            "The bracket: rounds, byes, 'winner of' slots, running scores",
            "Bracket",
            E,
            tag="bracket",
        ),
        f"{V1}/{{edition}}/matches/": _get(
            "Every match of the bracket with its running score", "MatchList", E, tag="matches"
        ),
        f"{V1}/{{edition}}/matches/{{code}}/": _get(
            "One match board by board", "Match", (*E, "code"), tag="matches"
        ),
        f"{V1}/{{edition}}/matches/{{code}}/segments/{{segment}}/hand-records/": _get(
            "A segment's hand records after play (I15)",
            "HandRecords",
            (*E, "code", "segment"),
            tag="matches",
        ),
        f"{V1}/{{edition}}/schedule/": _get(
            "When and where the matches are played", "Schedule", E, tag="schedule"
        ),
        f"{V1}/{{edition}}/standings/": _get(
            "The places known so far and the prizes", "Standings", E, tag="standings"
        ),
        "/api/e/{edition}/matches/{code}/": _get(
            "Old address of a match (use /api/v1/editions/{edition}/matches/{code}/)",
            "Match",
            (*E, "code"),
            deprecated=True,
            tag="matches",
        ),
        "/api/e/{edition}/matches/{code}/segments/{segment}/hand-records/": _get(
            "Old address of a segment's hand records",
            "HandRecords",
            (*E, "code", "segment"),
            deprecated=True,
            tag="matches",
        ),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "bridgeko open results API",
            "version": INFO_VERSION,
            "description": (
                "Read-only JSON over everything the public results site shows: editions, "
                "teams, the bracket, matches board by board, hand records after play, the "
                "schedule and the standings. No login, no cookies; CORS open for reading "
                "(GET, HEAD, OPTIONS); every response has an ETag (send If-None-Match, get "
                "304). Codes, not translated words: the same document in every language. "
                "Deals are shown only after their segment has ended in both rooms."
            ),
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "parameters": PARAMETERS,
            "headers": HEADERS,
            "responses": RESPONSES,
        },
    }
