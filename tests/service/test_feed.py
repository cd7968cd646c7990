"""The feed for bots, ``GET /api/v1/matches/{match}/events``, against a real `serve`:
the public's events (and a participant's own, with their token) as server-sent events,
each once and in order, live as the host acts; resumed after ``Last-Event-ID`` or
``?after``; ended when the token is revoked; hostile resume positions refused."""

from __future__ import annotations

import time

import pytest

from tests.helpers import invoke

from .feed_support import Follower
from .support import STUDIO, Server, bearer, cli_json, invite

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1", "cat": "B2 A1 B1 C1 D1"}
#: How long a feed is watched for a message that must not come (several polls).
QUIET_SECONDS = 0.6
MARKS = ("superseded_by", "voided_by", "corrected_by", "reopened_by", "taken_back_by")


def logged(db, *view: str) -> list[dict]:
    """The view's log as the command line lists it, without the marks (what became of
    an event later, which the feed sends as the later event itself)."""
    return [{k: v for k, v in entry.items() if k not in MARKS} for entry in cli_json(db, "log", "m1", *view)]


def new_match(db) -> None:
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)


def submit(db, who: str) -> None:
    invoke(db, "submit", "m1", who, *ROUND_1[who].split())


def quiet(follower: Follower, count: int) -> None:
    """Nothing more than ``count`` messages comes while the feed is watched a while."""
    time.sleep(QUIET_SECONDS)
    assert len(follower.messages) == count, follower.messages[count:]


@pytest.mark.guarantee("service.feed")
def test_the_public_feed_delivers_each_public_event_once_in_order_live_as_the_host_acts(tmp_path):
    db = tmp_path / "feed.db"
    new_match(db)
    submit(db, "ann")
    with Server(db) as running, Follower(running.client, "/api/v1/matches/m1/events") as feed:
        assert feed.response.headers["content-type"].startswith("text/event-stream")
        first = feed.wait_for(1)
        assert [m.data for m in first] == logged(db, "--public")  # the creation; not ann's submission
        assert [m.id for m in first] == ["1"]
        quiet(feed, 1)
        submit(db, "bob")
        submit(db, "cat")
        quiet(feed, 1)  # hidden submissions send nothing
        invoke(db, "close", "m1")
        public = logged(db, "--public")
        assert len(public) > 1
        got = feed.wait_for(len(public))
        assert [m.data for m in got] == public
        assert [m.id for m in got] == [str(entry["seq"]) for entry in public]
        assert all(m.event == "message" for m in got)
        quiet(feed, len(public))  # each once


@pytest.mark.guarantee("service.feed")
def test_a_feed_resumed_after_an_id_delivers_only_the_later_events(tmp_path):
    db = tmp_path / "resume.db"
    new_match(db)
    for who in ROUND_1:
        submit(db, who)
    invoke(db, "close", "m1")
    public = logged(db, "--public")
    middle = public[0]["seq"]  # the creation
    later = [entry for entry in public if entry["seq"] > middle]
    assert later and len(later) < len(public)
    with Server(db) as running:
        for headers, path in (
            ({"Last-Event-ID": str(middle)}, "/api/v1/matches/m1/events"),
            ({}, f"/api/v1/matches/m1/events?after={middle}"),
            # the header is what a reconnecting browser sends, on the URL it first opened
            ({"Last-Event-ID": str(middle)}, "/api/v1/matches/m1/events?after=1"),
            ({"Last-Event-ID": "0"}, "/api/v1/matches/m1/events"),
        ):
            expected = public if headers.get("Last-Event-ID") == "0" else later
            with Follower(running.client, path, headers) as feed:
                assert [m.data for m in feed.wait_for(len(expected))] == expected
                quiet(feed, len(expected))
        last = str(public[-1]["seq"])
        with Follower(running.client, "/api/v1/matches/m1/events", {"Last-Event-ID": last}) as feed:
            quiet(feed, 0)  # after the last event: nothing yet


@pytest.mark.guarantee("service.feed")
def test_a_participants_feed_adds_their_own_events_and_no_one_elses(tmp_path):
    db = tmp_path / "mine.db"
    new_match(db)
    ann = invite(db, "m1", "--as", "ann", "--submit")
    submit(db, "bob")
    with Server(db) as running, Follower(running.client, "/api/v1/matches/m1/events", bearer(ann["token"])) as feed:
        assert [m.data for m in feed.wait_for(1)] == logged(db, "--as", "ann")
        answer = running.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ROUND_1["ann"].split()}, headers=bearer(ann["token"])
        )
        assert answer.status_code == 201
        [_, own] = feed.wait_for(2)
        assert own.id == str(answer.json()["seq"]) and own.data["event"]["participant"] == "ann"
        submit(db, "cat")
        quiet(feed, 2)
        invoke(db, "close", "m1")
        mine = logged(db, "--as", "ann")
        assert [m.data for m in feed.wait_for(len(mine))] == mine
        shown = {m.data["seq"] for m in feed.messages}
        hidden = {entry["seq"] for entry in logged(db)} - shown
        assert {e["seq"] for e in logged(db) if e["kind"] == "SubmissionRecorded" and e["actor"] != "ann"} <= hidden
        assert all(m.data["event"].get("participant") in (None, "ann") for m in feed.messages)
        quiet(feed, len(mine))


@pytest.mark.guarantee("service.feed", "service.tokens-scoped")
def test_a_revoked_tokens_feed_ends_sending_nothing_more(tmp_path):
    db = tmp_path / "revoke.db"
    new_match(db)
    ann = invite(db, "m1", "--as", "ann", "--submit")
    with (
        Server(db, "--keep-alive", "0.5") as running,
        Follower(running.client, "/api/v1/matches/m1/events", bearer(ann["token"])) as feed,
    ):
        feed.wait_for(1)
        invoke(db, "revoke", ann["token"])
        submit(db, "ann")  # ann's own view moves: not sent to a revoked token
        assert feed.ended.wait(10), "the stream goes on after its token was revoked"
        assert [m.event for m in feed.messages] == ["message", "refused"]
        assert "revoked" in feed.messages[-1].data["error"]
        again = running.client.get("/api/v1/matches/m1/events", headers=bearer(ann["token"]))
        assert again.status_code == 401


@pytest.mark.guarantee("service.feed")
@pytest.mark.parametrize(
    "sent, kind",
    [
        ("abc", "malformed-input"),
        ("-1", "malformed-input"),
        ("1.0", "malformed-input"),
        ("1e3", "malformed-input"),
        ("²", "malformed-input"),
        ("9" * 19, "malformed-input"),
        ("9" * 400, "malformed-input"),
        ("999999999999999999", "outside-view"),
        ("3", "outside-view"),  # bob's hidden submission
        ("4", "outside-view"),  # past the head
    ],
)
def test_a_hostile_resume_position_is_a_clear_400_problem(feed_server, sent, kind):
    ways = [({}, "/api/v1/matches/m1/events?after=" + sent, "after")]
    if sent.isascii():  # a header's value is ASCII on the wire
        ways.append(({"Last-Event-ID": sent}, "/api/v1/matches/m1/events", "Last-Event-ID"))
    for headers, path, name in ways:
        answer = feed_server.client.get(path, headers=headers)
        assert answer.status_code == 400, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        problem = answer.json()
        assert problem["type"] == f"urn:matchledger:problem:{kind}"
        assert problem["parameter"] == name and problem["match"] == "m1"
        assert problem["detail"].startswith(name) and len(problem["detail"]) < 200
        if kind == "outside-view":  # one answer for a hidden seq and one past the head: no head named
            assert problem["detail"] == (
                f"{name} {int(sent)} is not the id of an event the public may know of in match 'm1': "
                "resume after an id this feed sent, or 0 for every event"
            )


@pytest.fixture(scope="module")
def feed_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("feed") / "hostile.db"
    new_match(db)
    submit(db, "ann")
    submit(db, "bob")
    with Server(db) as running:
        running.links = {"auditor": invite(db, "m1", "--auditor"), "ann": invite(db, "m1", "--as", "ann")}
        yield running


@pytest.mark.guarantee("service.feed")
def test_the_feed_refuses_what_the_other_routes_refuse(feed_server):
    get = feed_server.client.get
    assert get("/api/v1/matches/zz/events").status_code == 404
    assert get("/api/v1/matches/m1/events", headers=bearer("x" * 32)).status_code == 401
    auditor = get("/api/v1/matches/m1/events", headers=bearer(feed_server.links["auditor"]["token"]))
    assert auditor.status_code == 403 and "auditor" in auditor.json()["detail"]
    # ann's own submission (seq 2) is an id of her feed, not of the public's
    ann = bearer(feed_server.links["ann"]["token"])
    assert get("/api/v1/matches/m1/events", headers={"Last-Event-ID": "2"}).status_code == 400
    with Follower(feed_server.client, "/api/v1/matches/m1/events", {**ann, "Last-Event-ID": "2"}) as feed:
        quiet(feed, 0)


def test_the_openapi_description_gives_the_feed_as_an_event_stream(feed_server):
    route = feed_server.client.get("/api/v1/openapi.json").json()["paths"]["/api/v1/matches/{match}/events"]["get"]
    assert "text/event-stream" in route["responses"]["200"]["content"]
    names = {parameter["name"] for parameter in route["parameters"]}
    assert {"match", "after", "Last-Event-ID"} <= names
