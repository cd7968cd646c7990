"""The service words every error as an RFC 9457 problem (``commands/service/problems.py``):
``application/problem+json`` with ``type``, ``title``, ``status``, ``detail``, ``error``
(the same text as ``detail``, for the clients of ``{"error": ...}``) and the error's
fields that are safe to show; in the service's own words (``at=999``, never the command
line's ``--at``), and telling a viewer nothing today's answer did not (no head, no
count, no range they may not know).

Each kind of error is held to its answer directly (``refused``); what a client meets,
through a real `matchledger serve` process."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from matchledger.commands.service.openapi import openapi
from matchledger.commands.service.problems import PROBLEM_JSON, PROBLEM_KINDS, Refused, refused
from matchledger.ledger import errors
from matchledger.ledger.verify import Finding
from matchledger.projections.snapshots import SnapshotUnusable
from tests.architecture.test_no_cli_words import _command_words, _flags
from tests.helpers import REPO, invoke

from .support import Server, bearer, grant

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
TOKEN = "problem-test-link-0123456789abcd"  # as `invite` makes them: 32 characters
ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1", "cat": "B5 A1 B1 C1 D1"}


@pytest.fixture
def serve():
    """``serve(db)``: the client of a `matchledger serve` process on ``db``."""
    servers = []

    def client(db):
        servers.append(Server(db))
        return servers[-1].client

    yield client
    for server in servers:
        server.stop()


def _league(db, *, bob_submitted: bool = False):
    """lca ``m1``, round 1 open: ann has submitted (and, with ``bob_submitted``, bob too:
    a hidden difference for anyone but bob and the host).  ``cat`` holds the link."""
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    invoke(db, "submit", "m1", "ann", *ROUND_1["ann"].split())
    if bob_submitted:
        invoke(db, "submit", "m1", "bob", *ROUND_1["bob"].split())
    grant(db, "m1", "cat", TOKEN, can_submit=True)
    return db


def _problem(answer) -> dict:
    assert answer.headers["content-type"] == PROBLEM_JSON, answer.headers
    problem = answer.json()
    assert problem["status"] == answer.status_code
    assert problem["error"] == problem["detail"]  # what a client of {"error": ...} reads
    assert {"type", "title", "status", "detail", "error"} <= set(problem)
    return problem


def _speaks_no_cli(text: str) -> bool:
    flags = [flag for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text) if flag in _flags()]
    return not flags and not _command_words().search(text)


# --------------------------------------------------------------------------- through HTTP


def test_at_outside_what_the_public_may_know_is_worded_with_the_query_parameter(tmp_path, serve):
    client = serve(_league(tmp_path / "m.db"))
    answer = client.get("/api/v1/matches/m1/public", params={"at": 999})
    assert answer.status_code == 400
    detail = "at=999 is not the seq of an event the public may know of in match 'm1'"
    assert _problem(answer) == {
        "type": "urn:matchledger:problem:outside-view",
        "title": "Not an event this viewer may know of",
        "status": 400,
        "detail": detail,
        "error": detail,
        "match": "m1",
        "parameter": "at",
        "at": 999,
    }


def test_every_error_answer_of_the_api_is_a_problem(tmp_path, serve):
    client = serve(_league(tmp_path / "m.db"))
    unknown = client.get("/api/v1/matches/zz/public")
    assert (unknown.status_code, _problem(unknown)["type"]) == (404, "urn:matchledger:problem:unknown-match")
    no_token = client.get("/api/v1/matches/m1/me")
    assert no_token.status_code == 401 and no_token.headers["www-authenticate"] == "Bearer"
    assert {k: _problem(no_token)[k] for k in ("type", "title")} == {"type": "about:blank", "title": "Unauthorized"}
    not_json = client.post("/api/v1/matches/m1/submissions", content=b"nope", headers=bearer(TOKEN))
    assert not_json.status_code == 400 and _problem(not_json)["type"] == "about:blank"
    bad_at = client.get("/api/v1/matches/m1/me", params={"at": "x"}, headers=bearer(TOKEN))
    assert bad_at.status_code == 400
    assert {k: _problem(bad_at)[k] for k in ("type", "parameter")} == {
        "type": "urn:matchledger:problem:malformed-input",
        "parameter": "at",
    }
    illegal = client.post("/api/v1/matches/m1/submissions", json={"tokens": ["Z99"]}, headers=bearer(TOKEN))
    problem = _problem(illegal)
    assert illegal.status_code == 422 and problem["type"] == "urn:matchledger:problem:refused-by-the-rules"
    assert problem["title"] == "The rules refuse it" and problem["match"] == "m1"
    too_many = client.post("/api/v1/matches/m1/submissions", json={"tokens": ["A1"] * 40}, headers=bearer(TOKEN))
    assert too_many.status_code == 422 and _problem(too_many)["parameter"] == "tokens"
    assert _problem(too_many)["detail"] == "submission of 40 tokens: at most 32"


def test_a_submission_to_a_finished_match_names_no_command_of_the_host(tmp_path, serve):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,cat", "--studio", STUDIO)
    grant(db, "m1", "cat", TOKEN, can_submit=True)
    for _round in range(3):
        invoke(db, "close", "m1", "--force", "--reason", "nobody came")
    answer = serve(db).post("/api/v1/matches/m1/submissions", json={"tokens": ["B2"]}, headers=bearer(TOKEN))
    problem = _problem(answer)
    assert answer.status_code == 422 and problem["detail"] == "match 'm1' is finished; nothing more can be recorded"
    # the command line, for the host, says how to take it back
    refused_on_the_command_line = invoke(db, "submit", "m1", "cat", "B2", expect=1).stderr
    assert "`reopen m1 --reason TEXT` reopens round 3" in refused_on_the_command_line


@pytest.mark.guarantee("service.noninterference")
def test_a_problem_tells_the_public_nothing_that_moves_with_a_hidden_submission(tmp_path, serve):
    """Two databases differ by one hidden submission (bob's, seq 3 in one of them): every
    problem the public or cat provokes with ``?at`` is the same bytes and headers in both,
    and none names a head, a range or a count."""
    quiet = serve(_league(tmp_path / "quiet.db"))
    busy = serve(_league(tmp_path / "busy.db", bob_submitted=True))
    asked = [("/api/v1/matches/m1/public", {}), ("/api/v1/matches/m1/me", bearer(TOKEN))]
    asked += [("/api/v1/matches/m1/choices", bearer(TOKEN)), (f"/p/{TOKEN}/choices", {})]
    refusals = 0
    for path, headers in asked:
        for at in range(2, 7):
            one, other = (client.get(path, params={"at": at}, headers=headers) for client in (quiet, busy))
            assert (one.status_code, one.content) == (other.status_code, other.content), (path, at)
            assert {k: v for k, v in one.headers.items() if k != "date"} == {
                k: v for k, v in other.headers.items() if k != "date"
            }
            if one.status_code == 400:
                refusals += 1
                problem = _problem(one)
                assert set(problem) == {"type", "title", "status", "detail", "error", "match", "parameter", "at"}
                assert not re.search(r"events? \d+ to|head|\(\d", problem["detail"]), problem["detail"]
    assert refusals == len(asked) * 5  # the public and cat know of seq 1 alone


def _tamper_last_row(db) -> int:
    """Edit the match's last row behind the ledger's back (its trigger dropped and put
    back): a hidden submission, here.  Its seq."""
    with sqlite3.connect(db) as conn:
        last = conn.execute("SELECT max(seq) FROM events WHERE match_id = 'm1'").fetchone()[0]
        trigger = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").fetchone()[0]
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET body = replace(body, 'A1', 'A2') WHERE match_id = 'm1' AND seq = ?", (last,))
        conn.execute(trigger)
    return last


@pytest.mark.guarantee("service.noninterference")
def test_a_log_that_does_not_verify_past_the_public_head_is_refused_without_counting_the_hidden_events(tmp_path, serve):
    """The last hidden submission edited in two databases that differ by one hidden
    submission (the bad row is seq 2 in one, seq 3 in the other): the public and cat get
    one and the same 409, which names no seq (a seq would count events they may not see)."""
    quiet, busy = _league(tmp_path / "quiet.db"), _league(tmp_path / "busy.db", bob_submitted=True)
    assert (_tamper_last_row(quiet), _tamper_last_row(busy)) == (2, 3)
    clients = serve(quiet), serve(busy)
    asked = [("/api/v1/matches/m1/public", {}), ("/api/v1/matches/m1/head", {})]
    asked += [("/api/v1/matches/m1/me", bearer(TOKEN)), ("/m/m1", {}), (f"/p/{TOKEN}", {})]
    for path, headers in asked:
        one, other = (client.get(path, headers=headers) for client in clients)
        assert one.status_code == 409, (path, one.status_code)
        assert (one.status_code, one.content) == (other.status_code, other.content), path
        assert {k: v for k, v in one.headers.items() if k != "date"} == {
            k: v for k, v in other.headers.items() if k != "date"
        }
        if path.startswith("/api/"):
            problem = _problem(one)
            assert set(problem) == {"type", "title", "status", "detail", "error", "match"}, problem


# --------------------------------------------------------------------------- each kind of error

FINDING = Finding("m1", 2, "hash does not match the event's contents", "hash", "aa", "bb")

#: (the error, the match the request named, rules, status, the problem's type, detail, members beyond the five)
KINDS = [
    (
        errors.UnknownMatch("m1", "secret/league.db"),
        "m1",
        False,
        404,
        "unknown-match",
        "no match 'm1'",
        {"match": "m1"},
    ),
    (errors.DatabaseBusy("database 'secret/league.db' is busy"), "m1", False, 503, "busy", None, {}),
    (errors.UnwritableDatabase("cannot write to 'secret/league.db'"), "m1", True, 503, "unwritable", None, {}),
    (
        errors.DatabaseUnavailable("cannot connect to 'postgresql://host/secret'"),
        None,
        False,
        503,
        "unreachable",
        None,
        {},
    ),
    (errors.ConnectionLost("postgresql://host/secret", "server closed"), "m1", True, 503, "unreachable", None, {}),
    (errors.UnverifiedLog("m1", FINDING), "m1", False, 409, "log-does-not-verify", None, {"match": "m1"}),
    (
        errors.VerificationFailed("x", [FINDING]),
        "m1",
        True,
        409,
        "log-does-not-verify",
        None,
        {"match": "m1"},
    ),
    (errors.CorruptLog("cannot read 'secret/league.db'"), "m1", False, 500, "unreadable", None, {}),
    (errors.NoDatabase("secret/league.db"), "m1", False, 500, "unreadable", None, {}),
    (errors.LogConflict("match 'm1' moved on 3 times"), "m1", True, 409, "log-conflict", None, {"match": "m1"}),
    (errors.GameNotInstalled("m1", "chess", ["lca"]), "m1", False, 503, "unavailable", None, {"match": "m1"}),
    (
        errors.OutsideLog("m1", 999, 12),
        "m1",
        False,
        400,
        "outside-view",
        "at=999 is outside match 'm1'",  # the whole log's range is a host's, never told here
        {"match": "m1", "parameter": "at", "at": 999},
    ),
    (
        errors.OutsideView("m1", 9, "cat"),
        "m1",
        False,
        400,
        "outside-view",
        "at=9 is not the seq of an event cat may know of in match 'm1'",
        {"match": "m1", "parameter": "at", "at": 9},
    ),
    (errors.MalformedInput("bad"), "m1", False, 400, "malformed-input", "bad", {"match": "m1"}),
    (errors.MalformedInput("bad"), "m1", True, 422, "refused-by-the-rules", "bad", {"match": "m1"}),
    (errors.IllegalMove("W2: no"), "m1", True, 422, "refused-by-the-rules", "no (rule W2)", {"match": "m1"}),
    (
        errors.MatchFinished("m1", reopenable_round=3),
        "m1",
        True,
        422,
        "refused-by-the-rules",
        "match 'm1' is finished; nothing more can be recorded",
        {"match": "m1"},
    ),
    (
        errors.MatchFinished("g1", turns=True, last_turn_seq=58),
        "g1",
        True,
        422,
        "refused-by-the-rules",
        "match 'g1' is finished; nothing more can be recorded",
        {"match": "g1"},
    ),
    (
        errors.InvalidToken("submission", "x\n", "a token is at most 64 printable characters", shown="'x\\n'"),
        "m1",
        True,
        422,
        "refused-by-the-rules",
        "submission token 'x\\n': a token is at most 64 printable characters",
        {"match": "m1", "parameter": "tokens"},
    ),
    (SnapshotUnusable("the state cannot be stored"), "m1", False, 500, None, "internal error", {}),
]


@pytest.mark.parametrize(
    "error, match_id, rules, status, kind, detail, members", KINDS, ids=[type(k[0]).__name__ for k in KINDS]
)
def test_each_kind_of_error_has_its_status_type_and_safe_members(error, match_id, rules, status, kind, detail, members):
    answer = refused(error, match_id=match_id, rules=rules)
    problem = json.loads(answer.body())
    assert (answer.status, problem["status"]) == (status, status)
    assert problem["type"] == ("about:blank" if kind is None else f"urn:matchledger:problem:{kind}")
    assert problem["detail"] == problem["error"] == answer.message
    if detail is not None:
        assert problem["detail"] == detail
    assert {
        key: value for key, value in problem.items() if key not in ("type", "title", "status", "detail", "error")
    } == (members)
    assert "secret" not in answer.body().decode() and _speaks_no_cli(
        problem["detail"].replace("`matchledger verify", "")
    )


def test_a_database_trouble_says_when_to_try_again():
    assert refused(errors.DatabaseBusy("busy")).headers == {"Retry-After": "2"}
    assert refused(errors.DatabaseUnavailable("down")).headers == {"Retry-After": "5"}


def test_an_answer_that_http_says_all_of_is_about_blank_with_its_phrase():
    assert json.loads(Refused(403, "this link opens nothing here").body()) == {
        "type": "about:blank",
        "title": "Forbidden",
        "status": 403,
        "detail": "this link opens nothing here",
        "error": "this link opens nothing here",
    }
    assert json.loads(Refused(499, "the client left").body())["title"] == "Client Closed Request"


def test_the_openapi_description_names_every_kind_of_problem_and_its_media_type():
    description = openapi("http://t")
    every_error = {
        status: answer
        for route in description["paths"].values()
        for operation in route.values()
        for status, answer in operation["responses"].items()
        if int(status) >= 400
    }
    assert every_error and all(answer == {"$ref": "#/components/responses/Problem"} for answer in every_error.values())
    answer = description["components"]["responses"]["Problem"]
    assert answer["content"] == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    schema = description["components"]["schemas"]["Problem"]
    assert schema["required"] == ["type", "title", "status", "detail", "error"]
    assert re.findall(r"`urn:matchledger:problem:([a-z-]+)`", schema["properties"]["type"]["description"]) == list(
        PROBLEM_KINDS
    )
    documented = re.findall(r"^\| `([a-z-]+)` \| \d{3} \|", (REPO / "docs" / "service.md").read_text(), re.M)
    assert documented == list(PROBLEM_KINDS)
