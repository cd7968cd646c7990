"""Фотограф: `void` of the last turn's submission takes the turn back.  After it, every
read model in every view equals that of the match in which the turn was never played,
on random matches from the sampler, the last turn of the game included."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger import engine
from matchledger.commands.errors import message
from matchledger.engine.commands import Submit, Void
from matchledger.engine.photographer.sample import random_turn
from matchledger.ledger.errors import IllegalMove, MatchFinished
from matchledger.projections.fold import InMemoryMatch, replay
from matchledger.projections.rederive import rederive
from matchledger.projections.views import all_read_models
from tests.helpers import REPO, invoke, read_json

from .support import PHOTOGRAPHER_TURNS, every_view, new_photographer, play_turns

GAME = engine.get("photographer")


def played(seed: int, turns: int) -> InMemoryMatch:
    """A sampled match after ``turns`` turns (fewer if it ends first)."""
    rng = random.Random(seed)
    match = InMemoryMatch(GAME.sample(rng, "m1").create)
    for _ in range(turns):
        command = random_turn(match.state, rng)
        if command is None:
            break
        match.do(command)
    return match


def explained(state) -> dict:
    return {p: GAME.explain(state, p) for p in state.players}


@pytest.mark.guarantee("safety.take-back-views")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), turns=st.integers(0, 80), typo_seed=st.integers(0, 2**32))
def test_a_taken_back_turn_leaves_every_view_as_if_it_had_never_been_played(seed, turns, typo_seed):
    match = played(seed, turns)
    typo = random_turn(match.state, random.Random(typo_seed))
    if typo is None:  # the game is over: its own last turn is the one taken back
        clean = played(seed, len(match.state.turns) - 1)
    else:
        clean = played(seed, turns)
        match.do(typo)
    match.do(Void(GAME.last_turn_submission(match.state).seq, "typo"))
    assert match.state.g == clean.state.g
    assert all_read_models(match.state) == all_read_models(clean.state)
    assert explained(match.state) == explained(clean.state)
    assert match.state.outcome is None and match.state.round == clean.state.round
    assert replay("m1", match.pairs()) == match.state
    assert rederive("m1", match.pairs()) == []
    # and the match goes on as the clean one does
    following = random_turn(clean.state, random.Random(typo_seed + 1))
    if following is not None:
        match.do(following)
        clean.do(following)
        assert all_read_models(match.state) == all_read_models(clean.state)


@pytest.mark.guarantee("safety.take-back")
def test_only_the_last_turn_can_be_taken_back_and_only_once():
    match = played(3, 5)
    last = GAME.last_turn_submission(match.state)
    earlier = match.state.submission_at(last.seq - 2)
    with pytest.raises(
        IllegalMove, match=f"only the last turn can be taken back; turn 5 at seq {last.seq} is the last"
    ):
        GAME.decide(match.state, Void(earlier.seq, "x"))
    match.do(Void(last.seq, "typo"))
    with pytest.raises(IllegalMove, match=f"submission {last.seq} \\(turn 5\\) is already taken back"):
        GAME.decide(match.state, Void(last.seq, "again"))
    # the turn before is the last one now, and can be taken back in its turn
    match.do(Void(GAME.last_turn_submission(match.state).seq, "that one too"))
    assert all_read_models(match.state) == all_read_models(played(3, 3).state)


@pytest.mark.guarantee("safety.take-back")
def test_the_public_log_shows_a_taken_back_turn_without_its_reason(tmp_path):
    db = tmp_path / "m.db"
    new_photographer(db)
    play_turns(db, "g1", PHOTOGRAPHER_TURNS[:2])
    invoke(db, "void", "g1", "4", "--reason", "bob meant wind 2:3")
    public = [e for e in read_json(db, "log", "g1", "--public") if e["kind"] == "SubmissionVoided"]
    assert [e["event"] for e in public] == [{"type": "SubmissionVoided", "target_seq": 4}]
    ann = [e for e in read_json(db, "log", "g1", "--as", "ann") if e["kind"] == "SubmissionVoided"]
    assert [e["event"] for e in ann] == [{"type": "SubmissionVoided", "target_seq": 4}]
    bob = [e for e in read_json(db, "log", "g1", "--as", "bob") if e["kind"] == "SubmissionVoided"]
    assert bob[0]["event"]["reason"] == "bob meant wind 2:3"
    assert "bob meant" not in invoke(db, "log", "g1", "--public").stdout
    assert read_json(db, "status", "g1", "--public")["waiting_for"] == ["bob"]
    assert "waiting for: bob" in invoke(db, "status", "g1", "--as", "ann").stdout


@pytest.mark.guarantee("safety.take-back")
def test_a_finished_photographer_match_says_how_to_take_back_its_last_turn(tmp_path):
    match = played(5, 400)
    assert match.state.finished
    last = GAME.last_turn_submission(match.state)
    with pytest.raises(MatchFinished) as refused:
        GAME.decide(match.state, Submit("ann", ["take", "1", "left", "1"]))
    assert (refused.value.turns, refused.value.last_turn_seq) == (True, last.seq)
    assert message(refused.value).endswith(
        f"nothing more can be recorded (`void m1 {last.seq} --reason TEXT` takes back its last turn)"
    )


@pytest.mark.guarantee("safety.take-back-views")
def test_the_last_turn_of_a_finished_match_is_taken_back_through_its_checkpoint(tmp_path, monkeypatch):
    """A finished match is checkpointed, and reads start from that snapshot: the
    take-back folds from it to the very state of the match one turn short."""
    monkeypatch.chdir(REPO)
    lines = [
        line
        for line in (REPO / "fixtures" / "photographer" / "g2-seed7.txt").read_text(encoding="utf-8").splitlines()
        if line.startswith(("new ", "submit "))
    ]
    short = tmp_path / "short.txt"
    short.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    clean, db = tmp_path / "clean.db", tmp_path / "m.db"
    invoke(clean, "script", short)
    invoke(db, "script", REPO / "fixtures" / "photographer" / "g2-seed7.txt")
    assert read_json(db, "log", "g2")[-1]["kind"] == "StateCheckpointed"
    last = [e for e in read_json(db, "log", "g2") if e["kind"] == "SubmissionRecorded"][-1]["seq"]
    invoke(db, "void", "g2", last, "--reason", "the last wind was 1:3")
    assert json.loads(invoke(db, "verify", "g2", "--json").stdout)["ok"]
    assert every_view(db, "g2", ["ann", "bob"]) == every_view(clean, "g2", ["ann", "bob"])
    invoke(db, "submit", "g2", *lines[-1].split()[2:])
    assert read_json(db, "outcome", "g2")["finished"] is True
