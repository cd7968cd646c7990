"""The OpenAPI description of the JSON API, served at ``/api/v1/openapi.json``.

Written out rather than generated: the read models are the CLI's JSON (their shapes are
pinned by docs/design.md and the CLI's tests, game by game), so the description names them
and pins what the service adds: the routes, the token, the receipt and the errors.
``tests/service`` holds it equal to the routes the app serves.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .problems import PROBLEM_JSON, PROBLEM_KINDS, TYPE_PREFIX

_ERROR = {"$ref": "#/components/responses/Problem"}
_MATCH = {
    "name": "match",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$"},
}
_AT = {
    "name": "at",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 1},
    "description": "The match as it stood after event SEQ (the CLI's --at): the seq of an event this viewer may "
    "know of (one their log lists: a public event, or for a participant also their own submissions); any other "
    "seq is one and the same 400 (`urn:matchledger:problem:outside-view`), which names no head.",
}
_TOKEN: list[dict[str, list[str]]] = [{"token": []}]
_LINK = {
    "name": "token",
    "in": "path",
    "required": True,
    "schema": {"type": "string"},
    "description": "A participant's link token (`invite --as NAME`).",
}
_CHOICES = {
    "type": "object",
    "required": ["participant", "choices"],
    "properties": {
        "participant": {"type": "string"},
        "choices": {
            "oneOf": [
                {"type": "null"},
                {"$ref": "#/components/schemas/Nothing"},
                {"$ref": "#/components/schemas/Choices"},
            ]
        },
    },
}


_STATUS_OK = {
    "type": "object",
    "required": ["status"],
    "properties": {"status": {"const": "ok"}},
}


def _json(description: str, schema: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict:
    return {str(code): _ERROR for code in codes}


def openapi(base_url: str) -> dict:
    try:
        release = version("matchledger")
    except PackageNotFoundError:
        release = "0"
    read_model = {"type": "object", "description": "A read model exactly as the CLI's --json gives it (docs/design.md)"}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "matchledger",
            "version": release,
            "description": "A match ledger over HTTP: the same views as the command line. Tokens are issued by the "
            "host with `matchledger invite` and sent as `Authorization: Bearer TOKEN`.",
        },
        "servers": [{"url": base_url}],
        "paths": {
            "/api/v1/matches/{match}/public": {
                "get": {
                    "summary": "What everyone may know: status, reveals and outcome, each as `--public --json`.",
                    "parameters": [_MATCH, _AT],
                    "responses": {
                        "200": _json(
                            "The public view.",
                            {
                                "type": "object",
                                "required": ["status", "reveals", "outcome"],
                                "properties": {"status": read_model, "reveals": read_model, "outcome": read_model},
                            },
                        ),
                        **_errors(400, 404, 409),
                    },
                }
            },
            "/api/v1/matches/{match}/head": {
                "get": {
                    "summary": "The public head: the seq and hash of the match's last public event (its creation, a close "
                    "and its reveals, a resolved turn, a reopening, an amendment, an outcome, an abandonment), which never "
                    "moves with a hidden submission; with an auditor's token, the match's last event (as `head`), to "
                    "publish and check later with `verify --head`.",
                    "security": [{}, {"token": []}],
                    "parameters": [_MATCH],
                    "responses": {
                        "200": _json("The head.", {"$ref": "#/components/schemas/Receipt"}),
                        **_errors(401, 404, 409),
                    },
                }
            },
            "/api/v1/matches/{match}/me": {
                "get": {
                    "summary": "The token's participant and their knowledge (`knowledge --as NAME --json`).",
                    "security": _TOKEN,
                    "parameters": [_MATCH, _AT],
                    "responses": {
                        "200": _json(
                            "The participant's view.",
                            {
                                "type": "object",
                                "required": ["participant", "knowledge"],
                                "properties": {"participant": {"type": "string"}, "knowledge": read_model},
                            },
                        ),
                        **_errors(400, 401, 403, 409),
                    },
                }
            },
            "/api/v1/matches/{match}/choices": {
                "get": {
                    "summary": "What the token's participant may submit now: the game's legal choices, from what they "
                    'may know (docs/service.md, "Legal choices"); `choices` is null where the game describes none (the '
                    "notation typed is then the only way).",
                    "security": _TOKEN,
                    "parameters": [_MATCH, _AT],
                    "responses": {"200": _json("The participant's choices.", _CHOICES), **_errors(400, 401, 403, 409)},
                }
            },
            "/p/{token}/choices": {
                "get": {
                    "summary": "The same as `/api/v1/matches/{match}/choices`, for the participant whose link this is "
                    "(the token in the path, as on their page).",
                    "parameters": [_LINK, _AT],
                    "responses": {"200": _json("The participant's choices.", _CHOICES), **_errors(400, 403, 409)},
                }
            },
            "/api/v1/matches/{match}/submissions": {
                "post": {
                    "summary": "Record the token's participant's own submission (a token issued with --submit).",
                    "security": _TOKEN,
                    "parameters": [_MATCH],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["tokens"],
                                    "additionalProperties": False,
                                    "properties": {
                                        "tokens": {
                                            "type": "array",
                                            "items": {"type": "string"},
                                            "maxItems": 32,
                                            "description": "The submission in the game's notation, as `submit` takes it.",
                                        }
                                    },
                                }
                            }
                        },
                    },
                    "responses": {
                        "201": _json(
                            "Recorded: the receipt, the seq and hash of the submission's event "
                            "(`verify MATCH --receipt SEQ:HASH` proves it).",
                            {"$ref": "#/components/schemas/Receipt"},
                        ),
                        **_errors(400, 401, 403, 409, 422, 429, 503),
                    },
                }
            },
            "/api/v1/matches/{match}/export": {
                "get": {
                    "summary": "The whole log as JSON Lines, as `export` writes it (an auditor's token).",
                    "security": _TOKEN,
                    "parameters": [_MATCH],
                    "responses": {
                        "200": {
                            "description": "One event envelope a line.",
                            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                        },
                        **_errors(401, 403, 409),
                    },
                }
            },
            "/api/v1/matches/{match}/events": {
                "get": {
                    "summary": "The feed for bots: each event of the public's log (`log --public --json`), or with a "
                    "participant's token of theirs (`log --as NAME --json`: their own submissions and contracts too), "
                    "once and in order as server-sent events, live as they land; never an event the viewer may not "
                    "know of, and nothing sent, nor sent later, because of one.",
                    "description": "Each event is `id: SEQ` and one `data:` line holding its log entry (`seq`, `kind`, "
                    "`recorded_at`, `actor`, `event`: what this view may see of it, `prev_hash`, `hash`; no mark of "
                    "what became of it later: the later event comes itself). The ids are the log's seqs, so a gap "
                    "counts the events between that this viewer may not know of (docs/guarantees.md). A comment "
                    "line (`: keep-alive`) comes on a fixed schedule (`serve --keep-alive`). A reconnecting client "
                    "sends `Last-Event-ID` (or `?after=SEQ`) and gets only the later events. A token revoked while "
                    "the feed is open ends it at the next keep-alive with `event: refused` and "
                    '`data: {"error": MESSAGE}`, as does a log that stops verifying.',
                    "security": [{}, {"token": []}],
                    "parameters": [
                        _MATCH,
                        {
                            "name": "Last-Event-ID",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
                            "description": "Resume after this event: 0 (every event), or the id of an event this "
                            "feed sent (an event this viewer may know of); anything else is a 400 problem naming the "
                            "value, one and the same for a seq the viewer may not know of and one past their head.",
                        },
                        {
                            "name": "after",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer", "minimum": 0},
                            "description": "The same as `Last-Event-ID`, for a client that cannot set headers; "
                            "the header wins when both are sent (a browser reconnecting on the URL it opened).",
                        },
                    ],
                    "responses": {
                        "200": {
                            "description": "A stream of server-sent events, one per event of the viewer's log.",
                            "content": {
                                "text/event-stream": {
                                    "schema": {
                                        "type": "string",
                                        "description": 'id: 12\ndata: {"seq":12,"kind":"RoundClosed",...}\n\n',
                                    }
                                }
                            },
                        },
                        **_errors(400, 401, 403, 404, 409, 429, 503),
                    },
                }
            },
            "/api/v1/openapi.json": {
                "get": {
                    "summary": "This description.",
                    "responses": {"200": _json("OpenAPI 3.1.", {"type": "object"})},
                }
            },
            "/healthz": {
                "get": {
                    "summary": "Liveness: the process answers. Touches no database; needs no token; tells nothing of any "
                    "match. Answered even beyond `serve --limit-concurrency`.",
                    "responses": {"200": _json("The process runs.", _STATUS_OK)},
                }
            },
            "/readyz": {
                "get": {
                    "summary": "Readiness: the database can be read now by a fresh connection, and its schema is one "
                    "this server reads; else 503 with `Retry-After`, the problem's `type` naming the kind of failure "
                    "(`unreachable`, `busy`, `schema-too-new`, `not-a-matchledger-database`, `no-database`, "
                    "`unreadable`), never the database's address. Answered within about 2 s whatever the database "
                    "does; needs no token; tells nothing of any match.",
                    "responses": {"200": _json("Ready to serve.", _STATUS_OK), **_errors(503)},
                }
            },
        },
        "components": {
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A capability token from `matchledger invite`.",
                }
            },
            "schemas": {
                "Receipt": {
                    "type": "object",
                    "required": ["seq", "hash"],
                    "properties": {
                        "seq": {"type": "integer", "minimum": 1},
                        "hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                        "supersedes": {
                            "type": "integer",
                            "minimum": 1,
                            "description": "The seq of the participant's earlier submission in the round that this "
                            "one supersedes (only when it supersedes one).",
                        },
                    },
                },
                "Problem": {
                    "type": "object",
                    "description": "An RFC 9457 problem (application/problem+json). `error` repeats `detail` for the "
                    'clients of the `{"error": MESSAGE}` answers of earlier releases; the other members are the '
                    "error's fields that are safe to show.",
                    "required": ["type", "title", "status", "detail", "error"],
                    "properties": {
                        "type": {
                            "type": "string",
                            "format": "uri",
                            "description": "The kind of problem: `about:blank` (the status says all), or one of "
                            + ", ".join(f"`{TYPE_PREFIX}{kind}`" for kind in PROBLEM_KINDS)
                            + ".",
                        },
                        "title": {"type": "string", "description": "The kind of problem, in a few words."},
                        "status": {"type": "integer", "description": "The HTTP status of the answer."},
                        "detail": {"type": "string", "description": "What happened this time."},
                        "error": {"type": "string", "description": "The same text as `detail`."},
                        "match": {"type": "string", "description": "The match the request named."},
                        "parameter": {
                            "type": "string",
                            "description": "The parameter whose value is refused: `at` (the query's), `tokens` "
                            "(the submission's), `Last-Event-ID` or `after` (the feed's).",
                        },
                        "at": {"type": "integer", "description": "The `at` that was sent."},
                    },
                },
                "Nothing": {
                    "type": "object",
                    "required": ["none"],
                    "additionalProperties": False,
                    "properties": {"none": {"type": "string", "description": "Why nothing may be submitted now."}},
                },
                "Choices": {
                    "type": "object",
                    "required": ["prompt", "parts", "constraints", "typed"],
                    "description": "A submission offered: for each part in order, min to max distinct options of it, "
                    "their tokens one after another, every constraint and every option's `when` holding "
                    "(matchledger.engine.choices).",
                    "properties": {
                        "prompt": {"type": "string"},
                        "typed": {"type": "string", "description": "An example of the notation, to type instead."},
                        "parts": {"type": "array", "items": {"$ref": "#/components/schemas/ChoicePart"}},
                        "constraints": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["kind", "parts"],
                                "properties": {
                                    "kind": {"enum": ["distinct", "at_most", "apart"]},
                                    "parts": {"type": "array", "items": {"type": "string"}},
                                    "field": {"type": "string"},
                                    "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                                    "distance": {"type": "integer"},
                                },
                            },
                        },
                    },
                },
                "ChoicePart": {
                    "type": "object",
                    "required": ["name", "label", "min", "max", "ordered", "options"],
                    "properties": {
                        "name": {"type": "string"},
                        "label": {"type": "string"},
                        "min": {"type": "integer", "minimum": 0},
                        "max": {"type": "integer", "minimum": 0},
                        "ordered": {"type": "boolean"},
                        "fields": {"type": "array", "items": {"type": "object", "required": ["name"]}},
                        "grid": {"type": "object", "required": ["width", "height"]},
                        "options": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["tokens", "label"],
                                "properties": {
                                    "tokens": {"type": "array", "items": {"type": "string"}},
                                    "label": {"type": "string"},
                                    "cell": {
                                        "type": "array",
                                        "items": {"type": "integer"},
                                        "minItems": 2,
                                        "maxItems": 2,
                                    },
                                    "fields": {"type": "object"},
                                    "when": {"type": "object"},
                                },
                            },
                        },
                    },
                },
            },
            "responses": {
                "Problem": {
                    "description": "400 bad input, 401 no token or one that opens nothing here, 403 a token without "
                    "that right, 404 no such match, 409 the log does not verify or moved on, 422 the rules refuse "
                    "the submission, 429 the participant has made as many submissions in the round as a link may, "
                    "503 the ledger is busy or its database cannot be reached.",
                    "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
                }
            },
        },
    }
