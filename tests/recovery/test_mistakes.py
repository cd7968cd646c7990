"""Each mistake of issue 15's list, made as a host makes it, then recovered with the new
commands: the log verifies, and every view shows exactly what a match in which the
mistake never happened shows."""

from __future__ import annotations

import json

import pytest

from tests.helpers import invoke, read_json

from .support import (
    LCA_PLAYERS,
    LCA_ROUNDS,
    PHOTOGRAPHER_TURNS,
    PW_PAIRS,
    PW_ROUNDS,
    every_view,
    new_lca,
    new_photographer,
    new_pw,
    play_rounds,
    play_turns,
    stored_rows,
    submit_round,
    verified,
)

PW_PARTICIPANTS = [*PW_PAIRS, *PW_PAIRS.values()]


@pytest.fixture
def clean_lca(tmp_path):
    """The match as it should have gone: every player submits, every round closes."""
    db = tmp_path / "clean.db"
    new_lca(db, tmp_path)
    play_rounds(db, "m1", LCA_ROUNDS)
    return db


def finish_lca(db, from_round: int) -> None:
    play_rounds(db, "m1", LCA_ROUNDS[from_round - 1 :])


def cat_submits_late_and_the_match_ends_as_the_clean_one(db, clean_lca) -> None:
    """The recovery's ending: cat's round 1 recorded, the round closed, rounds 2 and 3
    played; the log verifies and every view is the clean match's."""
    submit_round(db, "m1", LCA_ROUNDS[0], only=("cat",))
    invoke(db, "close", "m1")
    finish_lca(db, 2)
    assert verified(db, "m1")
    assert every_view(db, "m1", LCA_PLAYERS) == every_view(clean_lca, "m1", LCA_PLAYERS)


@pytest.mark.guarantee("safety.close-refuses-missing")
def test_an_lca_close_with_a_player_missing_is_refused_naming_her_and_writes_nothing(tmp_path, clean_lca):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    submit_round(db, "m1", LCA_ROUNDS[0], only=("ann", "bob"))  # the `&&` chain stopped at cat's wall cell
    before = stored_rows(db)
    result = invoke(db, "close", "m1", expect=1)
    assert "round 1 of 'm1' cannot close; no submission from cat" in result.stderr
    assert "close m1 --force --reason" in result.stderr
    assert stored_rows(db) == before
    cat_submits_late_and_the_match_ends_as_the_clean_one(db, clean_lca)


@pytest.mark.guarantee("safety.reopen")
def test_an_lca_round_forced_closed_before_a_late_dm_is_reopened_and_closed_again_as_if_never_closed(
    tmp_path, clean_lca
):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    submit_round(db, "m1", LCA_ROUNDS[0], only=("ann", "bob"))
    invoke(db, "close", "m1", "--force", "--reason", "cat said she passes")
    assert read_json(db, "status", "m1")["round"] == 2
    result = invoke(db, "reopen", "m1", "--reason", "cat's DM arrived after all")
    assert "reopened: recorded seq 5 (RoundReopened)" in result.stdout
    assert read_json(db, "status", "m1")["waiting_for"] == ["cat"]
    cat_submits_late_and_the_match_ends_as_the_clean_one(db, clean_lca)


@pytest.mark.guarantee("safety.reopen")
def test_an_empty_round_closed_by_mistake_is_reopened_with_no_submission_in_it(tmp_path, clean_lca):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    submit_round(db, "m1", LCA_ROUNDS[0])
    invoke(db, "close", "m1")
    result = invoke(db, "close", "m1", expect=1)  # typed twice: refused, naming everyone
    assert "no submission from ann, bob, cat" in result.stderr
    invoke(db, "close", "m1", "--force", "--reason", "everyone passes")  # and then forced, by mistake
    # void/correct --reopen need a submission in the round; reopen does not
    invoke(db, "reopen", "m1", "--reason", "round 2 was closed by mistake")
    assert read_json(db, "status", "m1")["round"] == 2
    finish_lca(db, 2)
    assert verified(db, "m1")
    assert every_view(db, "m1", LCA_PLAYERS) == every_view(clean_lca, "m1", LCA_PLAYERS)


@pytest.mark.guarantee("safety.reopen")
def test_a_finished_lca_match_is_reopened_to_correct_a_round_3_submission(tmp_path):
    fixed = dict(LCA_ROUNDS[2], cat="H1 D1 E8")
    clean = tmp_path / "clean.db"
    new_lca(clean, tmp_path)
    for submissions in [*LCA_ROUNDS[:2], fixed]:
        submit_round(clean, "m1", submissions)
        invoke(clean, "close", "m1")
    db = tmp_path / "m.db"
    new_lca(db, tmp_path)
    finish_lca(db, 1)
    refused = invoke(db, "submit", "m1", "cat", *fixed["cat"].split(), expect=1)
    assert "match 'm1' is finished" in refused.stderr and "`reopen m1 --reason TEXT` reopens round 3" in refused.stderr
    invoke(db, "reopen", "m1", "--reason", "cat's third cell was E8, not D8")
    assert read_json(db, "outcome", "m1")["finished"] is False
    invoke(db, "submit", "m1", "cat", *fixed["cat"].split())
    invoke(db, "close", "m1")
    assert verified(db, "m1")
    assert every_view(db, "m1", LCA_PLAYERS) == every_view(clean, "m1", LCA_PLAYERS)


@pytest.mark.guarantee("safety.reopen")
def test_a_pw_round_closed_before_a_resubmission_is_reopened_and_resubmitted(tmp_path):
    clean = tmp_path / "clean.db"
    new_pw(clean)
    play_rounds(clean, "p1", PW_ROUNDS)
    db = tmp_path / "m.db"
    new_pw(db)
    submit_round(db, "p1", dict(PW_ROUNDS[0], ann="gift:bob predict:yan=swap"))  # ann's DM said learn
    invoke(db, "close", "p1")
    invoke(db, "reopen", "p1", "--reason", "ann's predict was misread")
    invoke(db, "submit", "p1", "ann", *PW_ROUNDS[0]["ann"].split())
    invoke(db, "close", "p1")
    play_rounds(db, "p1", PW_ROUNDS[1:])
    assert verified(db, "p1")
    assert every_view(db, "p1", PW_PARTICIPANTS) == every_view(clean, "p1", PW_PARTICIPANTS)


@pytest.mark.guarantee("safety.take-back")
def test_a_photographer_turn_with_a_typo_is_taken_back_and_played_again(tmp_path):
    clean = tmp_path / "clean.db"
    new_photographer(clean)
    play_turns(clean, "g1", PHOTOGRAPHER_TURNS)
    db = tmp_path / "m.db"
    new_photographer(db)
    play_turns(db, "g1", PHOTOGRAPHER_TURNS[:3])
    typo = json.loads(invoke(db, "submit", "g1", "bob", "take", "3", "left", "1", "wind", "1:2", "--json").stdout)
    seq = typo["events"][0]["seq"]
    assert typo["events"][0]["kind"] == "SubmissionRecorded"
    earlier = invoke(db, "void", "g1", seq - 2, "--reason", "typo", expect=1)
    assert f"only the last turn can be taken back; turn 4 at seq {seq} is the last" in earlier.stderr
    invoke(db, "void", "g1", seq, "--reason", "bob took 2 cards, not 1")
    assert read_json(db, "status", "g1")["waiting_for"] == ["bob"]
    play_turns(db, "g1", PHOTOGRAPHER_TURNS[3:])
    assert verified(db, "g1")
    assert every_view(db, "g1", ["ann", "bob"]) == every_view(clean, "g1", ["ann", "bob"])


@pytest.mark.guarantee("safety.abandon")
def test_a_mis_created_match_is_abandoned_never_deleted_and_refuses_every_write(tmp_path):
    db = tmp_path / "m.db"
    new_lca(db, tmp_path, "m9")  # meant ann, bob, cat, dan
    invoke(db, "submit", "m9", "ann", *LCA_ROUNDS[0]["ann"].split())
    rows = stored_rows(db)
    result = invoke(db, "abandon", "m9", "--reason", "created without dan; replaced by m10")
    assert "abandoned 'm9'; recorded seq 3 (MatchAbandoned)" in result.stdout
    assert stored_rows(db)[: len(rows)] == rows  # nothing deleted or changed, one event added
    for args in (
        ["submit", "m9", "bob", *LCA_ROUNDS[0]["bob"].split()],
        ["close", "m9", "--force", "--reason", "x"],
        ["contract", "m9", "ann", "lights"],
        ["note", "m9", "a note"],
        ["amend", "m9", "--option", "filming_lights_divisor=1", "--from-round", "2", "--reason", "x"],
        ["void", "m9", "2", "--reason", "x"],
        ["correct", "m9", "2", *LCA_ROUNDS[0]["bob"].split(), "--reason", "x"],
        ["reopen", "m9", "--reason", "x"],
        ["abandon", "m9", "--reason", "again"],
    ):
        refused = invoke(db, *args, expect=1)
        assert "match 'm9' was abandoned at seq 3: created without dan; replaced by m10" in refused.stderr, args
    assert len(stored_rows(db)) == len(rows) + 1
    status = read_json(db, "status", "m9")
    assert status["abandoned"] == {"seq": 3, "reason": "created without dan; replaced by m10"}
    assert read_json(db, "status", "m9", "--public")["abandoned"] == {"seq": 3}
    assert "abandoned at seq 3: created without dan" in invoke(db, "status", "m9").stdout
    listed = {entry["match"]: entry for entry in read_json(db, "list")}
    assert listed["m9"]["abandoned"] is True and listed["m9"]["abandoned_at"] == 3
    assert "abandoned at seq 3" in invoke(db, "list").stdout
    assert (
        "m9: ok (3 events; chain intact, every announcement re-derived); abandoned at seq 3"
        in invoke(db, "verify", "--all").stdout
    )
    [report] = read_json(db, "verify", "--all")["matches"]
    assert report["ok"] is True and report["abandoned_at"] == 3
