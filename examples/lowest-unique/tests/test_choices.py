"""The legal choices (``Game.choices``): one part, the numbers 1 to the round's
`highest` (U3), offered again after a submission (U4), nothing once the match is over;
held to ``decide`` both ways."""

from __future__ import annotations

import random

import pytest
from matchledger_lowest_unique.game import GAME

from matchledger.engine.commands import Amend, CloseRound, CreateMatch, Submit
from matchledger.ledger.errors import MatchledgerError
from matchledger.projections.fold import InMemoryMatch, play


def new_match(**options) -> InMemoryMatch:
    raw = {key: str(value) for key, value in options.items()}
    return InMemoryMatch(CreateMatch("m", "lowest-unique", ["ann", "bob", "cat"], raw))


def offered(description) -> list[list[str]]:
    [part] = description["parts"]
    assert (part["min"], part["max"]) == (1, 1)
    return [option["tokens"] for option in part["options"]]


def test_u3_every_number_offered_is_accepted_and_nothing_else_is():
    match = new_match(highest=7)
    description = GAME.choices(match.state, "ann")
    assert offered(description) == [[str(n)] for n in range(1, 8)]
    for tokens in offered(description):
        GAME.decide(match.state, Submit("ann", tokens))
    for tokens in (["0"], ["8"], ["1", "2"]):
        with pytest.raises(MatchledgerError):
            GAME.decide(match.state, Submit("ann", tokens))


def test_u4_u12_offered_again_after_a_submission_and_as_highest_is_amended():
    match = new_match(highest=7)
    match.do(Submit("ann", ["3"]))
    assert offered(GAME.choices(match.state, "ann"))[-1] == ["7"]
    match.do(Amend("highest", "4", 2, "shorter"))
    for player in ("bob", "cat"):
        match.do(Submit(player, ["1"]))
    match.do(CloseRound())
    assert offered(GAME.choices(match.state, "ann"))[-1] == ["4"]
    assert GAME.choices(match.state, "ann")["prompt"] == "Round 2: one number from 1 to 4"


def test_nothing_is_offered_once_the_match_is_over():
    finished = play(GAME.sample(random.Random(3), "m", n_players=3, rounds=1))
    assert finished.state.finished
    assert set(GAME.choices(finished.state, "ann")) == {"none"}


def test_the_description_keeps_the_shared_shape_and_holds_to_the_sampler():
    from matchledger.engine import choices

    for seed in range(1, 6):
        sample = GAME.sample(random.Random(seed), f"m{seed}")
        match, rng = InMemoryMatch(sample.create), random.Random(seed)
        while (command := sample.next_command(match.state)) is not None:
            if isinstance(command, Submit):
                description = GAME.choices(match.state, command.participant)
                choices.check(description)
                [recorded] = GAME.decide(match.state, command)
                assert choices.offers(description, list(recorded.tokens))  # what the sampler plays is offered
                drawn = choices.sample(description, rng)
                GAME.decide(match.state, Submit(command.participant, drawn))  # what is offered is accepted
            match.do(command)
        choices.check(GAME.choices(match.state, "ann"))
