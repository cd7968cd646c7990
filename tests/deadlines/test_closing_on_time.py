"""Closing on time (issue 28, part 3): `Application.close_when_due`, what a door with a
clock calls once it saw a deadline pass.  The round closes where the rules let it (lca,
as `close --force` does, naming who was missing, reason "deadline", actor "deadline", at
the time the door read); where they do not (pw, W5) nothing is written; and whatever
the door saw is decided again against the log as it then stands, so a stale close never
closes the next round and two processes close a round once."""

from __future__ import annotations

import threading

from matchledger.engine.commands import CloseRound, Reopen, SetDeadline, Submit
from matchledger.ledger.store import Store
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.helpers import invoke, read_json

from .conftest import ROUND_1, STUDIO, Clock

DEADLINE = "2026-12-03T10:00:00Z"
BEFORE = "2026-12-03T09:59:59.000000Z"
AFTER = "2026-12-03T10:00:01.000000Z"


def _round_one_without_cat(app, clock) -> None:
    app.execute("m1", SetDeadline(clock(), DEADLINE, reason="round one"))
    for who in ("ann", "bob"):
        app.execute("m1", Submit(who, ROUND_1[who].split()))


def test_lca_closes_at_its_deadline_naming_who_was_missing(clocked, lca_db):
    app, clock = clocked
    _round_one_without_cat(app, clock)
    assert app.due(BEFORE) == []
    assert app.close_when_due("m1", BEFORE, round=1, deadline=DEADLINE) is None  # not yet: nothing written
    [due] = app.due(AFTER)
    assert (due.round, due.missing, due.closable) == (1, ["cat"], True)
    recorded = app.close_when_due("m1", AFTER, round=1, deadline=DEADLINE)
    assert recorded is not None
    closed = recorded[0]
    assert (closed.kind, closed.actor, closed.recorded_at) == ("RoundClosed", "deadline", AFTER)
    body = closed.event()
    assert (body.round, body.reason, body.missing) == (1, "deadline", ["cat"])
    assert app.state("m1").round == 2 and app.due(AFTER) == []
    assert read_json(lca_db, "verify", "m1", "--json")["ok"] is True


def test_a_round_everyone_submitted_closes_plainly_at_its_deadline(clocked):
    app, clock = clocked
    _round_one_without_cat(app, clock)
    app.execute("m1", Submit("cat", ROUND_1["cat"].split()))
    recorded = app.close_when_due("m1", AFTER, round=1, deadline=DEADLINE)
    assert recorded is not None
    body = recorded[0].event()
    assert recorded[0].actor == "deadline" and body.reason is not None and "reason" not in recorded[0].body


def test_pw_does_not_close_without_everyone_and_the_host_is_told(tmp_path):
    db = tmp_path / "pw.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    clock = Clock()
    app = Application(Store(db, create=False), clock=clock)
    try:
        set_at = app.execute("p1", SetDeadline(clock(), DEADLINE))[0].seq
        app.execute("p1", Submit("ann", ["gift:bob", "swap:yan"]))
        head = app.head("p1")
        [due] = app.due(AFTER)
        assert due.closable is False
        assert app.close_when_due("p1", AFTER, round=1, deadline=DEADLINE) is None
        assert app.head("p1") == head  # nothing written
        notice = app.deadline_notice("p1", "deadline", round=1, deadline=DEADLINE)
        assert notice is not None and (notice.seq, notice.round, notice.at) == (set_at, 1, DEADLINE)
        assert app.deadline_notice("p1", "deadline", round=1, deadline="2026-12-04T10:00:00Z") is None
    finally:
        app.close()


def test_a_stale_close_never_closes_the_next_round(clocked):
    """The door saw round 1 past its deadline; before it acted the host closed round 1
    and round 2 opened with a deadline of its own (``--each``), which has passed too by
    the time the stale close lands: the close is refused, round 2 stays open."""
    app, clock = clocked
    app.execute("m1", SetDeadline(clock(), DEADLINE, each=3600))
    for who in ("ann", "bob"):
        app.execute("m1", Submit(who, ROUND_1[who].split()))
    [seen] = app.due(AFTER)
    clock.now = AFTER
    app.execute("m1", CloseRound(force=True, reason="the host's own"))
    later = "2026-12-03T12:00:00.000000Z"
    [round_two] = app.due(later)
    assert round_two.round == 2  # a close of the open round would close this one
    head = app.head("m1")
    assert app.close_when_due("m1", later, round=seen.round, deadline=seen.deadline) is None
    assert app.head("m1") == head and app.state("m1").round == 2


def test_a_round_the_host_reopened_after_its_deadline_is_left_to_the_host(clocked):
    app, clock = clocked
    _round_one_without_cat(app, clock)
    assert app.close_when_due("m1", AFTER, round=1, deadline=DEADLINE) is not None
    clock.now = AFTER
    app.execute("m1", Reopen("cat's cells came by mail"))
    [due] = app.due(AFTER)  # the old deadline is still round 1's, and passed
    assert app.close_when_due("m1", AFTER, round=1, deadline=due.deadline) is None
    assert app.state("m1").round == 1


def _race(db: str, processes: int = 2) -> list:
    """Each of ``processes`` applications (each on a connection of its own, in a thread
    of its own) sees the deadline passed, then all close at once."""
    results: list = [None] * processes
    start = threading.Barrier(processes)

    def close(index: int) -> None:
        app = Application(open_store(db, create=False))
        try:
            [due] = app.due(AFTER)  # each holds the match as it stands before any close
            start.wait()
            results[index] = app.close_when_due("m1", AFTER, round=due.round, deadline=due.deadline)
        except Exception as exc:  # shown by the assertion below, not lost in the thread
            results[index] = exc
        finally:
            app.close()

    threads = [threading.Thread(target=close, args=(n,)) for n in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _raced_once(db: str) -> None:
    clock = Clock()
    host = Application(open_store(db, create=False), clock=clock)
    try:
        _round_one_without_cat(host, clock)
        results = _race(db)
        assert not [result for result in results if isinstance(result, Exception)]
        assert sum(result is not None for result in results) == 1
        host.forget()
        assert [row.kind for row in host.store.rows("m1")].count("RoundClosed") == 1
        assert host.state("m1").round == 2
    finally:
        host.close()


def test_two_applications_racing_one_deadline_close_it_once(lca_db):
    _raced_once(str(lca_db))


def test_two_applications_on_postgresql_racing_one_deadline_close_it_once(postgres_url):
    invoke(postgres_url, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    _raced_once(postgres_url)
