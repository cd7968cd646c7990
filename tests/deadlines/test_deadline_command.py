"""`deadline MATCH --at TIME | --each PERIOD | --clear`: the door reads the time, turns
`+2d` into an absolute UTC time, and the engine records the deadline for the open round
(or turn), refusing a time without a zone or one that is not later than now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.helpers import invoke, read_json

from .conftest import ROUND_1


def _deadline(db, *args):
    return read_json(db, "status", "m1", *args)["deadline"]


def test_an_absolute_time_in_any_zone_is_recorded_in_utc_and_shown_by_status(lca_db):
    written = read_json(lca_db, "deadline", "m1", "--at", "2099-03-01T20:00+02:00", "--reason", "round one")
    assert [event["kind"] for event in written["events"]] == ["DeadlineSet"]
    assert _deadline(lca_db) == {"round": 1, "unit": "round", "at": "2099-03-01T18:00:00Z"}
    assert _deadline(lca_db, "--public") == {"round": 1, "unit": "round", "at": "2099-03-01T18:00:00Z"}  # public
    assert "deadline: 2099-03-01T18:00:00Z (UTC)" in invoke(lca_db, "status", "m1").stdout


def test_setting_it_again_moves_it(lca_db):
    invoke(lca_db, "deadline", "m1", "--at", "2099-03-01T18:00Z")
    invoke(lca_db, "deadline", "m1", "--at", "2099-03-04T18:00Z", "--reason", "the weekend")
    assert _deadline(lca_db)["at"] == "2099-03-04T18:00:00Z"
    assert "the weekend" in invoke(lca_db, "log", "m1").stdout


def test_a_time_from_now_is_turned_into_an_absolute_one_by_the_door(lca_db):
    before = datetime.now(UTC)
    invoke(lca_db, "deadline", "m1", "--at", "+36h")
    at = datetime.fromisoformat(_deadline(lca_db)["at"])
    assert before + timedelta(hours=36) - timedelta(seconds=1) <= at <= datetime.now(UTC) + timedelta(hours=36)


@pytest.mark.guarantee("deadlines.recorded-at-its-now")
def test_the_deadline_is_recorded_at_the_time_the_door_read_and_verify_holds_them_together(lca_db):
    # The door reads "now" once: the event says it, and the log records it, to the digit;
    # verify refuses a DeadlineSet whose recorded time is another (tests/deadlines/test_hostile_deadlines.py).
    invoke(lca_db, "deadline", "m1", "--at", "+2d")
    row = read_json(lca_db, "log", "m1")[-1]
    assert row["kind"] == "DeadlineSet" and row["event"]["now"] == row["recorded_at"]
    assert "m1: ok" in invoke(lca_db, "verify", "m1").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--at", "2099-03-01T18:00"], "--at 2099-03-01T18:00: has no time zone"),
        (["--at", "2001-03-01T18:00Z"], "--at 2001-03-01T18:00Z: is not later than now"),
        (["--at", "tomorrow"], "--at tomorrow: is not an ISO 8601 time with a zone"),
        (["--at", "+0h"], "--at +0h: must be later than now"),
        (["--each", "48x"], "--each 48x: is not a period such as 48h"),
        (["--each", "0h"], "--each 0h: must be longer than nothing"),
    ],
)
def test_a_bad_value_is_refused_naming_it_and_nothing_is_written(lca_db, args, message):
    before = invoke(lca_db, "head", "m1").stdout
    result = invoke(lca_db, "deadline", "m1", *args, expect=1)
    assert message in result.stderr
    assert invoke(lca_db, "head", "m1").stdout == before


def test_neither_a_time_nor_a_period_is_a_usage_error(lca_db):
    assert "give --at TIME" in invoke(lca_db, "deadline", "m1", expect=2).output


def test_each_gives_every_later_round_a_deadline_that_long_after_it_opens(lca_db):
    invoke(lca_db, "deadline", "m1", "--each", "48h")
    assert _deadline(lca_db) == {"round": 1, "unit": "round", "at": None, "each_seconds": 172800}
    for who, cells in ROUND_1.items():
        invoke(lca_db, "submit", "m1", who, *cells.split())
    invoke(lca_db, "close", "m1")
    log = read_json(lca_db, "log", "m1")
    closed, scheduled = log[-2], log[-1]
    assert (closed["kind"], scheduled["kind"]) == ("RoundClosed", "DeadlineSet")
    opened = datetime.fromisoformat(closed["recorded_at"])  # the round opened when the last closed
    assert scheduled["recorded_at"] == closed["recorded_at"]
    expected = (opened + timedelta(hours=48)).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert _deadline(lca_db) == {"round": 2, "unit": "round", "at": expected, "each_seconds": 172800}
    assert "m1: ok" in invoke(lca_db, "verify", "m1").stdout


def test_clear_takes_the_deadline_and_the_schedule_away(lca_db):
    invoke(lca_db, "deadline", "m1", "--at", "+2d", "--each", "2d")
    invoke(lca_db, "deadline", "m1", "--clear", "--reason", "paused")
    assert "deadline" not in read_json(lca_db, "status", "m1")
    result = invoke(lca_db, "deadline", "m1", "--clear", expect=1)
    assert "has no deadline" in result.stderr


def test_help_shows_an_example(lca_db):
    assert "matchledger deadline m1 --at" in invoke(lca_db, "deadline", "--help").stdout


def test_messages_after_a_close_say_the_next_rounds_deadline(lca_db):
    invoke(lca_db, "deadline", "m1", "--each", "48h")
    for who, cells in ROUND_1.items():
        invoke(lca_db, "submit", "m1", who, *cells.split())
    invoke(lca_db, "close", "m1")
    at = _deadline(lca_db)["at"]
    data = read_json(lca_db, "messages", "m1")
    assert data["deadline"] == {"round": 2, "unit": "round", "at": at, "each_seconds": 172800}
    text = invoke(lca_db, "messages", "m1").stdout
    assert text.count(f"Deadline for round 2: {at} (UTC)") == 4  # the public post and each player's


def test_messages_of_a_match_without_deadlines_read_as_before(lca_db):
    for who, cells in ROUND_1.items():
        invoke(lca_db, "submit", "m1", who, *cells.split())
    invoke(lca_db, "close", "m1")
    assert "deadline" not in read_json(lca_db, "messages", "m1")
    assert "Deadline" not in invoke(lca_db, "messages", "m1").stdout
