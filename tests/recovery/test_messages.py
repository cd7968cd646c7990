"""What a host is told when a recovery is not possible: what the seq is, and what to do
instead."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .support import (
    LCA_ROUNDS,
    PW_ROUNDS,
    new_lca,
    new_photographer,
    new_pw,
    play_rounds,
    stored_rows,
    submit_round,
)

pytestmark = pytest.mark.guarantee("safety.messages")


def test_void_or_correct_of_a_seq_past_the_log_says_there_is_no_such_event(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    assert (
        "no event 999 in match 'm1' (events 1 to 1)"
        in invoke(db, "void", "m1", "999", "--reason", "x", expect=1).stderr
    )
    assert "no event 0 in match 'm1'" in invoke(db, "correct", "m1", "0", "A1", "--reason", "x", expect=1).stderr
    new_photographer(db)
    assert "no event 7 in match 'g1' (events 1 to 1)" in invoke(db, "void", "g1", "7", "--reason", "x", expect=1).stderr
    assert "event 1 of 'm1' is not a submission" in invoke(db, "void", "m1", "1", "--reason", "x", expect=1).stderr


def test_explain_of_a_stranger_names_them_without_an_as_option(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    result = invoke(db, "explain", "m1", "zed", expect=1)
    assert "'zed' is not a participant of 'm1' (participants: ann, bob, cat)" in result.stderr
    assert "--as" not in result.stderr


def test_reopen_before_any_close_and_reopen_of_a_photographer_match_say_what_is_possible(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    assert (
        "no round of 'm1' is closed yet; round 1 is open"
        in invoke(db, "reopen", "m1", "--reason", "x", expect=1).stderr
    )
    new_photographer(db)
    refused = invoke(db, "reopen", "g1", "--reason", "x", expect=1)
    assert "photographer has no rounds to reopen" in refused.stderr and "`void g1 SEQ --reason TEXT`" in refused.stderr
    assert "reopening a round needs a --reason" in invoke(db, "reopen", "m1", "--reason", " ", expect=1).stderr


def test_a_finished_pw_match_says_reopen_is_the_way_back_and_reopen_gets_there(tmp_path):
    db = tmp_path / "m.db"
    new_pw(db)
    play_rounds(db, "p1", PW_ROUNDS)
    before = stored_rows(db)
    refused = invoke(db, "submit", "p1", "ann", *PW_ROUNDS[2]["ann"].split(), expect=1)
    assert (
        "match 'p1' is finished; nothing more can be recorded (`reopen p1 --reason TEXT` reopens round 3"
        in refused.stderr
    )
    assert stored_rows(db) == before
    invoke(db, "reopen", "p1", "--reason", "a late correction")
    invoke(db, "submit", "p1", "ann", *PW_ROUNDS[2]["ann"].split())
    invoke(db, "close", "p1")
    assert invoke(db, "verify", "p1").exit_code == 0


def test_a_photographer_turn_cannot_be_corrected_and_says_to_take_it_back(tmp_path):
    db = tmp_path / "m.db"
    new_photographer(db)
    invoke(db, "submit", "g1", "ann", "take", "1", "left", "3", "wind", "1:2")
    refused = invoke(db, "correct", "g1", "2", "take", "1", "left", "2", "--reason", "x", expect=1)
    assert (
        "a turn cannot be corrected, but the last one can be taken back (`void g1 SEQ --reason TEXT`)" in refused.stderr
    )
    assert "--reopen" in invoke(db, "void", "g1", "2", "--reopen", "--reason", "x", expect=1).stderr


def test_a_resubmission_says_in_text_which_seq_it_supersedes(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    submit_round(db, "m1", LCA_ROUNDS[0], only=("ann",))
    line = invoke(db, "submit", "m1", "ann", *LCA_ROUNDS[0]["bob"].split()).stdout
    assert line.strip() == f"ann: {LCA_ROUNDS[0]['bob']}; recorded seq 3 (SubmissionRecorded), superseding seq 2"
