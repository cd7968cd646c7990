"""Deadlines as a hostile or careless host would give them: times at the edge of the
calendar, and forged logs whose deadline events no door would have recorded."""

from __future__ import annotations

import pytest

from matchledger import engine
from matchledger.engine.commands import SetDeadline, Submit
from matchledger.ledger.events import MatchCreated
from matchledger.projections.fold import Replayer
from tests.helpers import invoke
from tests.trust.common import STUDIO, rows
from tests.trust.forged import T, plant


@pytest.mark.parametrize("at", ["9999-12-31T23:59:59-12:00", "0001-01-01T00:00+14:00"])
def test_a_time_outside_the_calendar_once_made_utc_is_refused_naming_it(lca_db, at):
    before = rows(lca_db)
    result = invoke(lca_db, "deadline", "m1", "--at", at, expect=1)
    assert f"--at {at}: lies outside the years 1 to 9999" in result.output
    assert rows(lca_db) == before


def _deadline_then_submission(now: str, at: str) -> list:
    """An lca match whose round 1 gets the deadline ``at``, set at ``now``, then ann's
    submission: every event as the engine decides it."""
    game = engine.get("lca")
    options = {name: spec.default for name, spec in game.OPTIONS.items()}
    events = [
        MatchCreated(game="lca", players=["ann", "bob"], options=options, setup={"studio": STUDIO.read_text().split()})
    ]
    replayer = Replayer("m1")
    replayer.feed(1, events[0])
    for command in [SetDeadline(now, at, None, "", None), Submit("ann", "A1 B2 C3 D4 E5".split())]:
        for event in game.decide(replayer.state, command):
            events.append(event)
            replayer.feed(len(events), event)
    return events


@pytest.mark.guarantee("deadlines.recorded-at-its-now")
def test_verify_refuses_a_deadline_set_later_than_its_recorded_time(tmp_path):
    # Every row is recorded at T (2024); the deadline claims to have been set in 2030.
    db = plant(
        tmp_path / "m.db", "m1", _deadline_then_submission("2030-01-01T00:00:00Z", "2030-01-02T00:00:00Z"), "host"
    )
    result = invoke(db, "verify", "m1", expect=3)
    assert "seq 2: the deadline says it was set at '2030-01-01T00:00:00Z', not at the time recorded" in result.output


def test_verify_accepts_a_deadline_set_at_its_recorded_time(tmp_path):
    db = plant(tmp_path / "m.db", "m1", _deadline_then_submission(T, "2024-01-02T00:00:00Z"), "host")
    assert "m1: ok" in invoke(db, "verify", "m1").output


@pytest.mark.guarantee("deadlines.recorded-at-its-now")
def test_verify_refuses_a_deadline_already_past_when_recorded(tmp_path):
    # Recorded at T (2024), the deadline says it was set in 2000 for a day later: it never lay ahead.
    db = plant(
        tmp_path / "m.db", "m1", _deadline_then_submission("2000-01-01T00:00:00Z", "2000-01-02T00:00:00Z"), "host"
    )
    result = invoke(db, "verify", "m1", expect=3)
    assert "seq 2: the deadline says it was set at '2000-01-01T00:00:00Z', not at the time recorded" in result.output


@pytest.mark.parametrize(
    ("now", "at", "named"),
    [
        ("2026-13-01T00:00:00Z", "2027-01-01T00:00:00Z", "now 2026-13-01T00:00:00Z"),
        ("2026-12-01T25:00:00Z", "2027-01-01T00:00:00Z", "now 2026-12-01T25:00:00Z"),
        ("2026-12-01T10:00:00Z", "2027-02-30T00:00:00Z", "at 2027-02-30T00:00:00Z"),
        ("2026-12-01T10:00:00Z", "2100-02-29T00:00:00Z", "at 2100-02-29T00:00:00Z"),  # no leap year
    ],
)
@pytest.mark.guarantee("deadlines.recorded-at-its-now")
def test_a_time_off_the_calendar_given_through_the_library_is_refused_and_nothing_written(lca_db, now, at, named):
    """The deadline is recorded at its ``now``: one that names no real second would be
    a ``recorded_at`` that `verify` refuses, so it is refused before anything is written."""
    from matchledger.ledger.errors import InvalidParameter
    from matchledger.projections.application import Application

    before = rows(lca_db)
    app = Application.open(str(lca_db))
    try:
        with pytest.raises(InvalidParameter, match=named):
            app.execute("m1", SetDeadline(now, at))
    finally:
        app.close()
    assert rows(lca_db) == before


def test_the_29th_of_february_of_a_leap_year_is_a_deadline(lca_db):
    from matchledger.projections.application import Application

    app = Application.open(str(lca_db))
    try:
        [row] = app.execute("m1", SetDeadline("2026-12-01T10:00:00Z", "2028-02-29T12:00:00Z")).rows
    finally:
        app.close()
    assert row.kind == "DeadlineSet"
