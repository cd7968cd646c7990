"""The legal-choices contract every game that describes its choices keeps
(:mod:`matchledger.engine.choices`), checked on random legal matches of its own sampler.

At every state of a sampled match where the sampler plays a participant's submission:

- (a) every submission drawn from that participant's description is accepted by
  ``decide``; a refusal is excused only where it cites one of the game's
  ``CHOICES_HIDDEN`` rulings, and only if the same submission is accepted once what the
  participant cannot see (every other participant's submissions) is taken away;
- (b) the submission the sampler plays there, as the game normalizes it, is offered;
- the description keeps the shape of ``engine.choices.check`` and is JSON; and where it
  says nothing may be submitted (``{"none": ...}``), the sampler's submission, made by
  that participant instead, is refused.

Written as one class that takes the game's name, so it can be shipped for a game kept
elsewhere to run from its own tests.
"""

from __future__ import annotations

import copy
import random

import msgspec
import pytest
from matchledger.engine import choices as described
from matchledger.engine.commands import Submit
from matchledger.ledger.errors import MatchledgerError
from matchledger.projections.fold import InMemoryMatch

from matchledger import engine

pytestmark = pytest.mark.guarantee("log.choices-contract")

SEEDS = range(1, 4)
#: Submissions drawn from each description.
DRAWS = 3


def describing_games() -> list[str]:
    """The games whose choices describe something at the start of a sampled match."""
    found = []
    for name in engine.names():
        game = engine.get(name)
        if not hasattr(game, "sample"):
            continue
        match = InMemoryMatch(game.sample(random.Random(0), "probe").create)
        if any(game.choices(match.state, p) is not None for p in match.state.participants):
            found.append(name)
    return found


def without_hidden(state, participant: str):
    """``state`` with every other participant's submissions taken away: what the
    participant cannot see of it."""
    bare = copy.copy(state)
    bare.submissions = {r: {p: subs for p, subs in by.items() if p == participant} for r, by in state.submissions.items()}
    return bare


class ChoicesContract:
    """The checks, each taking the game's name (``game``) and a sampler seed."""

    seeds = SEEDS
    draws = DRAWS

    def played_submissions(self, game: str, seed: int):
        """(state, the sampler's Submit, the game object) at each submission the sampler
        plays, the match going on as the sampler plays it."""
        rules = engine.get(game)
        sample = rules.sample(random.Random(seed), f"{game}-{seed}")
        match = InMemoryMatch(sample.create)
        while True:
            command = sample.next_command(match.state)
            if command is None:
                return
            if isinstance(command, Submit):
                yield match.state, command, rules
            match.do(command)

    def check_description(self, rules, state, participant: str):
        description = rules.choices(state, participant)
        if description is not None:
            described.check(description)
            assert msgspec.json.decode(msgspec.json.encode(description)) == description, "not plain JSON"
        return description

    def check_drawn_are_accepted(self, game: str, seed: int) -> int:
        """(a); how many drawn submissions were checked."""
        rng = random.Random(seed)
        checked = 0
        for state, command, rules in self.played_submissions(game, seed):
            who = command.participant
            description = self.check_description(rules, state, who)
            for _ in range(self.draws):
                tokens = described.sample(description, rng)
                if tokens is None:
                    break
                checked += 1
                try:
                    rules.decide(state, Submit(who, tokens))
                except MatchledgerError as exc:
                    cited = str(exc).partition(":")[0]
                    assert cited in rules.CHOICES_HIDDEN, f"{who} offered {tokens}, refused: {exc}"
                    # the refusal rests on what the participant cannot see
                    rules.decide(without_hidden(state, who), Submit(who, tokens))
        return checked

    def check_played_are_offered(self, game: str, seed: int) -> int:
        """(b), and a "none" refuses; how many played submissions were checked."""
        checked = 0
        for state, command, rules in self.played_submissions(game, seed):
            [recorded, *_] = rules.decide(state, command)
            description = self.check_description(rules, state, command.participant)
            assert described.offers(description, list(recorded.tokens)), (
                f"{command.participant} played {recorded.tokens}, not offered by {description}")
            checked += 1
            for other in state.participants:
                if described.is_nothing(self.check_description(rules, state, other)):
                    with pytest.raises(MatchledgerError):
                        rules.decide(state, Submit(other, list(recorded.tokens)))
        return checked


GAMES = describing_games()


@pytest.mark.parametrize("game", GAMES)
class TestChoicesContract(ChoicesContract):
    @pytest.mark.parametrize("seed", SEEDS)
    def test_every_submission_drawn_from_the_choices_is_accepted(self, game, seed):
        assert self.check_drawn_are_accepted(game, seed) > 0

    @pytest.mark.parametrize("seed", SEEDS)
    def test_every_submission_the_sampler_plays_is_offered(self, game, seed):
        assert self.check_played_are_offered(game, seed) > 0
