"""`deadline MATCH --remind PERIOD`: a reminder that long before each deadline, recorded in
the log with the deadline (re-decided by `verify`, shown by `status` and `log`), stopped
by `--clear`; a period that is no period is refused, naming it, and nothing is written."""

from __future__ import annotations

from tests.helpers import invoke, read_json


def test_a_reminder_is_recorded_with_the_deadline_and_shown(lca_db):
    invoke(lca_db, "deadline", "m1", "--at", "+2d", "--each", "48h", "--remind", "6h")
    shown = read_json(lca_db, "status", "m1", "--json")["deadline"]
    assert shown["remind_seconds"] == 6 * 3600 and shown["each_seconds"] == 48 * 3600
    assert "a reminder 6h before each deadline" in invoke(lca_db, "log", "m1").stdout
    assert read_json(lca_db, "verify", "m1", "--json")["ok"] is True
    invoke(lca_db, "deadline", "m1", "--remind", "1d")  # alone: the deadline stays
    assert read_json(lca_db, "status", "m1", "--json")["deadline"]["remind_seconds"] == 86_400
    invoke(lca_db, "deadline", "m1", "--clear")
    assert "deadline" not in read_json(lca_db, "status", "m1", "--json")


def test_a_reminder_that_is_no_period_is_refused_and_nothing_written(lca_db):
    head = read_json(lca_db, "head", "m1", "--json")
    for bad in ("0m", "6 hours", "-1h"):
        result = invoke(lca_db, "deadline", "m1", "--at", "+2d", "--remind", bad, expect=None)
        assert result.exit_code in (1, 2) and "remind" in result.output and bad in result.output
    assert read_json(lca_db, "head", "m1", "--json") == head
