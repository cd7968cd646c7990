"""Auditor's toolkit on the toy game: corrections as events, reopen, hand-scored
outcomes, audit, diff, rescore."""

import json
import sqlite3

import pytest

from matchledger.ledger.errors import CorruptLog
from matchledger.projections.rescore import rescore
from tests.cli.test_cli import SCRIPT
from tests.helpers import invoke, read_json


@pytest.fixture
def toy_match_db(tmp_path):
    (tmp_path / "s.txt").write_text(SCRIPT)
    path = tmp_path / "m.db"
    invoke(path, "script", tmp_path / "s.txt")
    return path


def bodies(db):
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT seq, body, hash FROM events ORDER BY seq").fetchall()
    conn.close()
    return rows


def test_void_in_open_round_and_at_before_it(toy_match_db):
    invoke(toy_match_db, "submit", "t1", "ann", "7")  # seq 5, round 2
    invoke(toy_match_db, "submit", "t1", "ann", "2")  # seq 6 supersedes 5
    invoke(toy_match_db, "void", "t1", "6", "--reason", "typo")  # seq 7: ann's seq 5 counts again
    invoke(toy_match_db, "submit", "t1", "bob", "1")
    invoke(toy_match_db, "close", "t1")
    assert read_json(toy_match_db, "scores", "t1") == {"totals": {"ann": 10, "bob": 6}}
    assert read_json(toy_match_db, "status", "t1", "--at", "6")["submitted"] == ["ann"]


def test_closed_round_needs_reopen_and_earlier_bytes_never_change(toy_match_db):
    before = bodies(toy_match_db)
    result = invoke(toy_match_db, "correct", "t1", "2", "9", "--reason", "misread", expect=1)
    assert "add --reopen" in result.output
    invoke(toy_match_db, "correct", "t1", "2", "9", "--reason", "misread DM", "--reopen")
    assert bodies(toy_match_db)[: len(before)] == before  # earlier events untouched
    assert read_json(toy_match_db, "status", "t1")["round"] == 1  # the round must be closed again
    invoke(toy_match_db, "close", "t1")
    assert read_json(toy_match_db, "scores", "t1") == {"totals": {"ann": 9, "bob": 5}}
    assert read_json(toy_match_db, "scores", "t1", "--at", "4") == {"totals": {"ann": 3, "bob": 5}}
    assert invoke(toy_match_db, "verify", "t1").exit_code == 0
    report = read_json(toy_match_db, "audit", "t1")
    kinds = [c["event"] for c in report["corrections"]]
    assert kinds == ["RoundReopened", "SubmissionCorrected"]
    assert all(c["actor"] == "tester" and c["reason"] == "misread DM" for c in report["corrections"])
    assert "misread DM" in invoke(toy_match_db, "log", "t1").output


def test_only_the_last_closed_round_can_be_reopened(toy_match_db):
    for line in (("submit", "t1", "ann", "1"), ("submit", "t1", "bob", "1"), ("close", "t1")):
        invoke(toy_match_db, *line)
    result = invoke(toy_match_db, "void", "t1", "2", "--reopen", "--reason", "late", expect=1)
    assert "only the open round" in result.output


def test_hand_scored_outcome_is_recorded_and_verify_finds_the_error(tmp_path, toy_match_db):
    for r in (2, 3):
        invoke(toy_match_db, "submit", "t1", "ann", "1")
        invoke(toy_match_db, "submit", "t1", "bob", "1")
        if r == 3:
            ann = tmp_path / "r3.json"
            ann.write_text(
                json.dumps(
                    {"public": {"submitted": ["ann", "bob"]}, "private": {"ann": {"points": 1}, "bob": {"points": 1}}}
                )
            )
            invoke(toy_match_db, "close", "t1", "--announced", ann)
        else:
            invoke(toy_match_db, "close", "t1")
    assert read_json(toy_match_db, "log", "t1")[-1]["kind"] == "RoundClosed"  # no computed outcome written
    computed = read_json(toy_match_db, "outcome", "t1")
    announced = json.loads(json.dumps(computed))
    announced["standings"][0]["total"] = 99
    final = tmp_path / "final.json"
    final.write_text(json.dumps(announced))
    invoke(toy_match_db, "outcome", "t1", "--announced", final)
    report = json.loads(invoke(toy_match_db, "verify", "t1", "--json", expect=3).stdout)
    [finding] = report["matches"][0]["findings"]
    assert finding["field"] == "outcome.standings[0].total"
    assert (finding["recorded"], finding["recomputed"]) == (99, 7)
    assert read_json(toy_match_db, "audit", "t1", expect=3)["host_announcements"][0]["round"] == 3


def test_a_correct_hand_scored_match_verifies_clean_and_a_second_outcome_is_refused(tmp_path, toy_match_db):
    invoke(toy_match_db, "submit", "t1", "ann", "1")
    invoke(toy_match_db, "submit", "t1", "bob", "2")
    announcement = tmp_path / "r2.json"
    announcement.write_text(
        json.dumps({"public": {"submitted": ["ann", "bob"]}, "private": {"ann": {"points": 1}, "bob": {"points": 2}}})
    )
    invoke(toy_match_db, "close", "t1", "--announced", announcement)
    invoke(toy_match_db, "submit", "t1", "ann", "4")
    invoke(toy_match_db, "submit", "t1", "bob", "4")
    announcement.write_text(
        json.dumps({"public": {"submitted": ["ann", "bob"]}, "private": {"ann": {"points": 4}, "bob": {"points": 4}}})
    )
    invoke(toy_match_db, "close", "t1", "--announced", announcement)
    final = tmp_path / "final.json"
    final.write_text(json.dumps(read_json(toy_match_db, "outcome", "t1")))  # ann 8, bob 11: announced as computed
    invoke(toy_match_db, "outcome", "t1", "--announced", final)
    assert "ok" in invoke(toy_match_db, "verify", "t1").output
    assert "already recorded" in invoke(toy_match_db, "outcome", "t1", "--announced", final, expect=1).output


def test_diff_two_files_names_the_first_parting_and_differing_models(tmp_path, toy_match_db):
    other = tmp_path / "other.db"
    (tmp_path / "s2.txt").write_text(SCRIPT.replace("submit t1 bob 5", "submit t1 bob 6"))
    invoke(other, "script", tmp_path / "s2.txt")
    result = json.loads(invoke(toy_match_db, "diff", "t1", "--db-b", other, "--json", expect=3).stdout)
    assert result["first_parting"]["seq"] == 3
    assert result["first_parting"]["field"] == "tokens[0]"
    assert "scores:host" in result["differing_read_models"]
    assert "knowledge:ann" not in result["differing_read_models"]  # ann's view shows only her own points
    same = json.loads(invoke(toy_match_db, "diff", "t1", "t1", "--json").stdout)
    assert same["identical"] and same["differing_read_models"] == []


def test_rescore_writes_nothing_and_shows_both(toy_match_db):
    before = bodies(toy_match_db)
    result = json.loads(invoke(toy_match_db, "rescore", "t1", "--option", "multiplier=3", "--json").stdout)
    assert [s["total"] for s in result["recorded"]["standings"]] == [5, 3]
    assert [s["total"] for s in result["rescored"]["standings"]] == [15, 9]
    assert bodies(toy_match_db) == before
    assert "unknown option 'speed'" in invoke(toy_match_db, "rescore", "t1", "--option", "speed=1", expect=1).output


def test_rescore_of_no_events_is_refused_as_a_log_without_events():
    """Like every fold (`replay`), never None where a state is promised."""
    with pytest.raises(CorruptLog, match="has no events"):
        rescore("t1", [], {})
