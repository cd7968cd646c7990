"""The legal-choices half of the game contract (:mod:`.game_contract` runs it):
a game's description of what a participant may submit (``Game.choices``, shaped as
:mod:`matchledger.engine.choices` says) held to its own ``decide``, on a random legal
match of its sampler.

At every state where the sampler plays a participant's submission:

- (a) every submission drawn from that participant's description is accepted by
  ``decide``; a refusal is excused only where it cites one of the game's
  ``CHOICES_HIDDEN`` rulings (a rule on what the participant cannot see), and only if
  the same submission is accepted once every other participant's submissions are taken
  away;
- (b) the submission the sampler plays there, as the game normalizes it, is offered;
- the description keeps the shape ``engine.choices.check`` wants and is plain JSON; and
  where it says nothing may be submitted (``{"none": ...}``), the sampler's submission,
  made by that participant instead, is refused.

A game whose ``choices`` gives None everywhere describes nothing (its page offers the
typed notation alone): these checks then count nothing, and the suite says so.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import msgspec

from matchledger import engine
from matchledger.engine import choices as described
from matchledger.engine.commands import Submit
from matchledger.engine.sample import Sample
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import MatchledgerError
from matchledger.projections.fold import InMemoryMatch


def without_hidden(state: MatchState, participant: str) -> MatchState:
    """``state`` with every other participant's submissions taken away: what the
    participant cannot see of it."""
    bare = copy.copy(state)
    bare.submissions = {
        r: {p: subs for p, subs in by.items() if p == participant} for r, by in state.submissions.items()
    }
    return bare


def played_submissions(sample: Sample) -> Iterator[tuple[MatchState, Submit]]:
    """(state, the sampler's Submit) at each submission the sampler plays, the match
    going on as the sampler plays it."""
    match = InMemoryMatch(sample.create)
    while True:
        command = sample.next_command(match.state)
        if command is None:
            return
        if isinstance(command, Submit):
            yield match.state, command
        match.do(command)


def checked_description(rules, state, participant: str):
    description = rules.choices(state, participant)
    if description is not None:
        described.check(description)
        assert msgspec.json.decode(msgspec.json.encode(description)) == description, "not plain JSON"
    return description


def drawn_are_accepted(game: str, sample: Sample, rng: random.Random, draws: int = 3) -> int:
    """(a); how many drawn submissions were checked."""
    rules = engine.get(game)
    checked = 0
    for state, command in played_submissions(sample):
        who = command.participant
        description = checked_description(rules, state, who)
        for _ in range(draws):
            tokens = described.sample(description, rng)
            if tokens is None:
                break
            checked += 1
            try:
                rules.decide(state, Submit(who, tokens))
            except MatchledgerError as exc:
                cited = str(exc).partition(":")[0]
                assert cited in rules.CHOICES_HIDDEN, f"{who} was offered {tokens}, refused: {exc}"
                # the refusal rests on what the participant cannot see
                rules.decide(without_hidden(state, who), Submit(who, tokens))
    return checked


def played_are_offered(game: str, sample: Sample) -> int:
    """(b), and a "none" refuses; how many played submissions were checked."""
    rules = engine.get(game)
    checked = 0
    for state, command in played_submissions(sample):
        [recorded, *_] = rules.decide(state, command)
        description = checked_description(rules, state, command.participant)
        if description is None:
            continue
        assert described.offers(description, list(recorded.tokens)), (
            f"{command.participant} played {recorded.tokens}, not offered by {description}"
        )
        checked += 1
        for other in state.participants:
            if described.is_nothing(checked_description(rules, state, other)):
                try:
                    rules.decide(state, Submit(other, list(recorded.tokens)))
                except MatchledgerError:
                    continue
                raise AssertionError(f"{other} may submit nothing now, yet {recorded.tokens} was accepted")
    return checked
