"""A running `serve`'s deadline loop (commands/service/ontime.py), driven step by step
with the time each test chooses (no test waits for a deadline): lca closes at the
deadline and the close is posted; pw stays open and the host is told, once, in public
words; a reminder is posted once, whichever of two serves gets there; a whole lca match
run by deadlines alone; and one real `serve` closing a round whose deadline passed."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest

from matchledger.commands.service.deliveries import Deliveries
from matchledger.commands.service.ontime import EVERY_SECONDS, OnTime
from matchledger.engine.commands import SetDeadline, Submit
from matchledger.ledger.store import Store
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from matchledger.projections.deadlines import parse_time
from tests.helpers import invoke, read_json
from tests.service.hook_support import Receiver, add_hook

from .conftest import ROUND_1, START, STUDIO, Clock

DEADLINE = "2026-12-03T10:00:00Z"
AFTER = "2026-12-03T10:00:01.000000Z"


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()


class Serve:
    """One `serve`'s loop and deliveries on the database, without threads: ``step(now)``
    takes a step of the loop, then sends whatever was queued (the scanner's posts too)."""

    def __init__(self, db, clock: Clock):
        self.app = Application(Store(db, create=False), clock=clock)
        self.deliveries = Deliveries(lambda: self.app, backoff=0.0, timeout=0.5, total=2.0)
        self.loop = OnTime(lambda: self.app, self.deliveries)

    def step(self, now: str) -> list:
        closed = self.loop.step(self.app, now)
        self.deliveries.scan_once(self.app)
        while not self.deliveries.jobs.empty():
            self.deliveries.deliver(self.app, self.deliveries.jobs.get())
        return closed

    def close(self) -> None:
        self.app.close()


def _after(deadline: str, seconds: int) -> str:
    return (parse_time(deadline) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000000Z")


def _posts(receiver: Receiver) -> list[dict]:
    return [json.loads(request.body) for request in receiver.requests]


def test_lca_closes_at_the_deadline_and_the_close_is_posted(lca_db, receiver):
    add_hook(lca_db, receiver.url, "--format", "json", "--on", "close,deadline")
    clock = Clock()
    serve = Serve(lca_db, clock)
    try:
        serve.app.execute("m1", SetDeadline(clock(), DEADLINE))
        for who in ("ann", "bob"):
            serve.app.execute("m1", Submit(who, ROUND_1[who].split()))
        assert serve.step("2026-12-03T09:59:59.000000Z") == [] and receiver.requests == []
        [closed] = serve.step(AFTER)
    finally:
        serve.close()
    [row] = [row for row in closed if row.kind == "RoundClosed"]
    assert (row.actor, row.recorded_at) == ("deadline", AFTER)
    assert (row.event().reason, row.event().missing) == ("deadline", ["cat"])
    [post] = _posts(receiver)
    assert (post["kind"], post["round"], post["seq"]) == ("close", 1, row.seq)
    log = invoke(lca_db, "log", "m1").stdout
    assert "deadline" in log and "cat" in log


def test_pw_stays_open_and_the_host_is_told_once_without_naming_who_is_missing(tmp_path, receiver):
    db = tmp_path / "pw.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    read_json(db, "hook", "add", "p1", receiver.url, "--on", "close,deadline", "--format", "json", "--json")
    clock = Clock()
    first, second = Serve(db, clock), Serve(db, clock)
    try:
        set_at = first.app.execute("p1", SetDeadline(clock(), DEADLINE))[0].seq
        first.app.execute("p1", Submit("ann", ["gift:bob", "swap:yan"]))
        head = first.app.head("p1")
        assert first.step(AFTER) == [] and second.step(AFTER) == []
        assert first.step("2026-12-03T11:00:00.000000Z") == []
        assert first.app.head("p1") == head  # nothing closed, nothing written
    finally:
        first.close()
        second.close()
    [post] = _posts(receiver)  # once, of two serves and three steps
    assert (post["kind"], post["seq"], post["round"]) == ("deadline", set_at, 1)
    assert post["post"] == {"deadline": DEADLINE, "unit": "round", "round": 1, "passed": True}
    assert "has passed" in post["text"] and "until the host acts" in post["text"]
    for name in ("ann", "bob", "zed", "yan"):
        assert name not in post["text"]  # who is missing is the host's to know
    status = read_json(db, "status", "p1", "--public", "--json")
    assert status["deadline"]["at"] == DEADLINE


def test_a_reminder_is_posted_once_at_its_time(lca_db, receiver):
    add_hook(lca_db, receiver.url, "--on", "reminder")
    clock = Clock()
    first, second = Serve(lca_db, clock), Serve(lca_db, clock)
    try:
        set_at = first.app.execute("m1", SetDeadline(clock(), DEADLINE, remind=6 * 3600))[0].seq
        first.step("2026-12-03T03:59:59.000000Z")
        assert receiver.requests == []  # not yet: six hours before is 04:00
        first.step("2026-12-03T04:00:01.000000Z")
        second.step("2026-12-03T04:00:02.000000Z")
        first.step("2026-12-03T05:00:00.000000Z")
    finally:
        first.close()
        second.close()
    [request] = receiver.requests
    assert request.headers["X-Matchledger-Delivery"].endswith(f".{set_at}.reminder.1")
    assert json.loads(request.body)["content"] == f"Reminder: Round 1 of m1 is due at its deadline, {DEADLINE} (UTC)."
    status = invoke(lca_db, "status", "m1").stdout
    assert "a reminder 6h before" in status


def test_a_whole_lca_match_run_by_deadlines_alone(lca_db, receiver):
    """The host sets one schedule ("each round closes 48 h after it opens") and walks
    away: every round closes on time, each close is posted, the match ends, `verify`
    passes, and the missing and late submissions are marked."""
    add_hook(lca_db, receiver.url, "--format", "json", "--on", "close,finished")
    clock = Clock()
    serve = Serve(lca_db, clock)
    rounds = [
        {"ann": ROUND_1["ann"], "bob": ROUND_1["bob"]},
        {"ann": "E5 B12 E12", "bob": "F5 B12 E12"},
        {"ann": "E4 A11 J13", "bob": "D5 A11 J13"},
    ]
    late_cat = "F5 A11 J13"
    try:
        serve.app.execute("m1", SetDeadline(START, "2026-12-03T10:00:00Z", each=48 * 3600))
        deadlines = []
        for number, cells in enumerate(rounds, 1):
            deadline = serve.app.state("m1").deadline()
            deadlines.append(deadline)
            for who, typed in cells.items():
                serve.app.execute("m1", Submit(who, typed.split()))
            if number == 3:  # cat's cells come in half a minute late; the host records them
                clock.now = _after(deadline, 30)
                serve.app.execute("m1", Submit("cat", late_cat.split()))
            now = _after(deadline, 59)  # the loop's step comes within a minute
            clock.now = now
            assert len(serve.step(now)) == 1
    finally:
        serve.close()
    assert deadlines == ["2026-12-03T10:00:00Z", "2026-12-05T10:00:59Z", "2026-12-07T10:01:58Z"]
    posts = _posts(receiver)
    assert [(post["kind"], post["round"]) for post in posts] == [("close", 1), ("close", 2), ("finished", 3)]
    assert read_json(lca_db, "verify", "m1", "--json")["ok"] is True
    log = read_json(lca_db, "log", "m1", "--json")
    closes = [event for event in log if event["kind"] == "RoundClosed"]
    assert [(c["actor"], c["event"].get("missing")) for c in closes] == [
        ("deadline", ["cat"]),
        ("deadline", ["cat"]),
        ("deadline", None),
    ]
    late = [event for event in log if event.get("late")]
    assert [(e["event"]["participant"], e["event"]["round"]) for e in late] == [("cat", 3)]
    assert read_json(lca_db, "outcome", "m1", "--json")["finished"] is True


def _passed_deadline(db, match_id: str = "m1") -> None:
    """A deadline that passed a minute ago, set by an application whose clock read an
    hour ago (the engine takes only a deadline ahead of the time it is set), with ann
    and bob in and cat missing."""
    hour_ago = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(time.time() - 3600))
    minute_ago = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 60))
    past = Application(open_store(str(db), create=False), clock=lambda: hour_ago)
    try:
        past.execute(match_id, SetDeadline(hour_ago, minute_ago))
        for who in ("ann", "bob"):
            past.execute(match_id, Submit(who, ROUND_1[who].split()))
    finally:
        past.close()


def _received(receiver: Receiver, count: int, seconds: float) -> None:
    waited = time.monotonic() + seconds
    while len(receiver.requests) < count and time.monotonic() < waited:
        time.sleep(0.1)


def _closed_once_by_the_deadline(db, receiver: Receiver) -> None:
    [post] = _posts(receiver)
    assert (post["kind"], post["round"]) == ("close", 1)
    log = read_json(db, "log", "m1", "--json")
    [closed] = [event for event in log if event["kind"] == "RoundClosed"]
    assert closed["actor"] == "deadline" and closed["event"]["missing"] == ["cat"]
    assert read_json(db, "status", "m1", "--json")["round"] == 2


def test_a_running_serve_closes_a_round_whose_deadline_passed(lca_db, receiver):
    """The integration: the loop runs in `serve` with the real clock, on a deadline that
    has passed already: no wait for a deadline, only for the loop's first step."""
    from tests.service.support import Server

    add_hook(lca_db, receiver.url, "--format", "json")
    _passed_deadline(lca_db)
    with Server(lca_db):
        _received(receiver, 1, 20)
    _closed_once_by_the_deadline(lca_db, receiver)


def test_two_serve_processes_on_postgresql_close_a_round_once(postgres_url, tmp_path, receiver):
    from tests.service.support import Server

    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    add_hook(postgres_url, receiver.url, "--format", "json")
    _passed_deadline(postgres_url)
    with Server(postgres_url, folder=tmp_path), Server(postgres_url, folder=tmp_path):
        _received(receiver, 1, 20)
        _received(receiver, 2, 2 * EVERY_SECONDS)  # a second close and post would have come by now
    _closed_once_by_the_deadline(postgres_url, receiver)


def test_status_says_the_deadline_passed_while_the_round_stays_open(tmp_path):
    db = tmp_path / "pw.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    hour_ago = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(time.time() - 3600))
    minute_ago = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 60))
    past = Application(Store(db, create=False), clock=lambda: hour_ago)
    try:
        past.execute("p1", SetDeadline(hour_ago, minute_ago))
    finally:
        past.close()
    for view in ((), ("--public",)):
        shown = read_json(db, "status", "p1", *view, "--json")["deadline"]
        assert shown == {"round": 1, "unit": "round", "at": minute_ago, "passed": True}
        text = invoke(db, "status", "p1", *view).stdout
        assert f"deadline: {minute_ago} (UTC), passed: the round stays open until it is closed" in text
    invoke(db, "deadline", "p1", "--at", "+1d")
    assert "passed" not in read_json(db, "status", "p1", "--json")["deadline"]


def test_a_deadline_post_is_the_same_bytes_whoever_is_missing(tmp_path):
    """Who has submitted is the host's to know in pw: the post that the round stays open
    reads the same whether ann or bob is the one missing."""
    bodies = []
    for who, cells in (("ann", ["gift:bob", "swap:yan"]), ("bob", ["gift:ann", "swap:zed"])):
        db = tmp_path / f"{who}.db"
        receiver = Receiver()
        try:
            invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
            read_json(db, "hook", "add", "p1", receiver.url, "--on", "deadline", "--format", "json", "--json")
            clock = Clock()
            serve = Serve(db, clock)
            try:
                serve.app.execute("p1", SetDeadline(clock(), DEADLINE))
                serve.app.execute("p1", Submit(who, cells))
                serve.step(AFTER)
            finally:
                serve.close()
        finally:
            receiver.close()
        [request] = receiver.requests
        bodies.append(request.body)
    assert bodies[0] == bodies[1]
