"""After the deadline a participant's link refuses a submission (nothing written); the
host can still record one, and `log` and `audit` mark it late, from recorded times only,
so that replay, verify and an export imported elsewhere agree."""

from __future__ import annotations

import itertools
import json

import pytest

from matchledger.engine.commands import SetDeadline, Submit
from matchledger.projections.application import LinkSubmission, PastDeadline
from tests.helpers import invoke, read_json

from .conftest import ROUND_1, START

DEADLINE = "2026-12-03T10:00:00Z"
BEFORE = "2026-12-03T09:59:59.000000Z"
AFTER = "2026-12-03T10:00:01.000000Z"


def _with_deadline(app, clock) -> None:
    app.execute("m1", SetDeadline(clock(), DEADLINE, reason="round one"))


def _by_link(app, who: str, link: str | None = "a-link"):
    """``who``'s round-1 cells, through a link the application checks (stubbed open)."""
    app._access._lets_submit = lambda submission, token: True  # the link's own checks are not these tests'
    [outcome] = app.submit_through_links([LinkSubmission("m1", Submit(who, ROUND_1[who].split()), link)])
    return outcome


def test_a_link_submits_until_the_deadline_and_is_refused_after_it_with_nothing_written(clocked):
    app, clock = clocked
    _with_deadline(app, clock)
    clock.now = BEFORE
    assert not isinstance(_by_link(app, "ann"), Exception)
    head = app.head("m1")
    clock.now = AFTER
    refused = _by_link(app, "bob")
    assert isinstance(refused, PastDeadline)
    assert "deadline of round 1 of 'm1' passed at 2026-12-03T10:00:00Z" in str(refused)
    assert app.head("m1") == head  # nothing written


def test_a_submission_a_link_accepts_on_the_deadline_is_never_marked_late(lca_db):
    """The time is read once: a clock that ticks past the deadline between the link's
    check and the write must not record, as late, a submission the link accepted."""
    from matchledger.ledger.store import Store
    from matchledger.projections.application import Application

    ticks = itertools.chain([BEFORE], itertools.repeat(AFTER))  # the deadline is recorded at its own now
    app = Application(Store(lca_db, create=False), clock=lambda: next(ticks))
    try:
        _with_deadline(app, lambda: START)
        recorded = _by_link(app, "ann")  # checked at BEFORE; the clock's next read is AFTER
        assert not isinstance(recorded, Exception), recorded
        [row] = recorded.rows
        assert row.recorded_at == BEFORE
        assert not app.log("m1").late
    finally:
        app.close()


@pytest.mark.guarantee("deadlines.late-refused")
def test_the_host_records_a_late_submission_and_log_and_audit_mark_it(clocked, lca_db):
    app, clock = clocked
    _with_deadline(app, clock)
    clock.now = BEFORE
    app.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    clock.now = AFTER
    [late] = app.execute("m1", Submit("bob", ROUND_1["bob"].split()))
    entries = {entry["seq"]: entry for entry in read_json(lca_db, "log", "m1")}
    assert entries[late.seq]["late"] is True
    assert "late" not in entries[late.seq - 1]
    assert f"bob round 1: {ROUND_1['bob']}".replace(" ", "") in invoke(lca_db, "log", "m1").stdout.replace(" ", "")
    assert "[late]" in invoke(lca_db, "log", "m1").stdout
    audit = read_json(lca_db, "audit", "m1")
    assert [(e["seq"], e["participant"], e["deadline"]) for e in audit["late"]] == [(late.seq, "bob", DEADLINE)]
    assert "late submissions: 1" in invoke(lca_db, "audit", "m1").stdout


def test_a_participant_sees_only_their_own_late_mark_and_the_public_none(clocked, lca_db):
    app, clock = clocked
    _with_deadline(app, clock)
    clock.now = AFTER
    app.execute("m1", Submit("bob", ROUND_1["bob"].split()))
    app.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    bob = read_json(lca_db, "log", "m1", "--as", "bob")
    ann = read_json(lca_db, "log", "m1", "--as", "ann")
    public = read_json(lca_db, "log", "m1", "--public")
    assert [e["event"]["participant"] for e in bob if e.get("late")] == ["bob"]
    assert [e["event"]["participant"] for e in ann if e.get("late")] == ["ann"]
    assert not any(e.get("late") for e in public)
    assert [e["kind"] for e in public] == ["MatchCreated", "DeadlineSet"]  # the deadline is public


def test_a_log_without_deadlines_reads_as_before(lca_db):
    invoke(lca_db, "submit", "m1", "ann", *ROUND_1["ann"].split())
    assert not any("late" in entry for entry in read_json(lca_db, "log", "m1"))
    assert "late" not in read_json(lca_db, "audit", "m1")
    assert "deadline" not in read_json(lca_db, "status", "m1")


def test_replay_verify_and_an_export_imported_elsewhere_agree_on_deadlines_and_lateness(clocked, lca_db, tmp_path):
    app, clock = clocked
    app.execute("m1", SetDeadline(clock(), DEADLINE, each=2 * 86400))
    clock.now = AFTER
    for who in ("ann", "bob", "cat"):
        app.execute("m1", Submit(who, ROUND_1[who].split()))
    invoke(lca_db, "close", "m1")  # the next round's deadline, scheduled
    assert "m1: ok" in invoke(lca_db, "verify", "m1").stdout
    export = tmp_path / "m1.jsonl"
    invoke(lca_db, "export", "m1", "-o", export)
    other = tmp_path / "other.db"
    invoke(other, "import", export)
    for command in (["log", "m1"], ["status", "m1"], ["audit", "m1"]):
        assert read_json(other, *command) == read_json(lca_db, *command)
    assert len(read_json(other, "audit", "m1")["late"]) == 3
    kinds = [json.loads(line)["kind"] for line in export.read_text().splitlines() if line.startswith("{")]
    assert kinds.count("DeadlineSet") == 2


def test_verify_finds_a_deadline_that_is_not_later_than_when_it_was_set():
    """Re-decided like any command: a log holding one the rules refuse is a finding."""
    from matchledger.engine.commands import CreateMatch
    from matchledger.ledger.events import DeadlineSet
    from matchledger.projections.fold import InMemoryMatch
    from matchledger.projections.rederive import rederive
    from tests.helpers import REPO

    studio = (REPO / "fixtures" / "lca" / "studio-example-10x13.txt").read_text()
    match = InMemoryMatch(CreateMatch("m1", "lca", ["ann", "bob", "cat"], setup={"studio": studio}))
    match.do(SetDeadline("2026-12-01T10:00:00Z", DEADLINE))
    assert rederive("m1", match.pairs()) == []
    forged = [*match.pairs()[:1], (2, DeadlineSet(round=1, now="2026-12-05T10:00:00Z", at=DEADLINE))]
    [finding] = rederive("m1", forged)
    assert finding.seq == 2 and "is not later than now" in finding.problem


def test_due_names_the_matches_past_their_deadline_and_what_closing_would_mean(clocked):
    """What a door with a clock asks (closing on time is built on it, not here)."""
    app, clock = clocked
    _with_deadline(app, clock)
    app.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    assert app.due(BEFORE) == []
    [due] = app.due(AFTER)
    assert (due.match, due.round_word, due.round, due.deadline) == ("m1", "round", 1, DEADLINE)
    assert (due.missing, due.closable) == (["bob", "cat"], True)  # lca: a missing submission counts as none
