"""What Parallel Worlds announces, as types: each round's public type counts and each
participant's private notice (points, and what their Learn and Watch actions showed),
and the outcome.  The checks of :mod:`matchledger.engine.announced` run through them."""

from __future__ import annotations

from typing import Annotated, Literal

from matchledger.engine.announced import (
    Announced,
    Award,
    Count,
    Names,
    OutcomeHead,
    check_head,
    check_reasons,
    check_round_number,
    conform,
    distinct,
    members,
)
from matchledger.engine.state import MatchState
from matchledger.ledger.limits import PARTICIPANTS_MAX
from matchledger.ledger.validation import quoted
from msgspec import UNSET, Meta, UnsetType

from .notation import TYPES

Type = Literal[TYPES]
#: A participant submits two actions a round: at most two Learn or Watch results.
Two = Meta(max_length=2)


class LearnedAction(Announced, kw_only=True):
    type: Type
    target: str
    predict: Type | UnsetType = UNSET


class Learned(Announced):
    target: str
    actions: Annotated[list[LearnedAction], Two]


class Watched(Announced):
    target: str
    seen: Names


class Notice(Announced):
    own_points: int
    partner_points: int
    learn: Annotated[list[Learned], Two]
    watch: Annotated[list[Watched], Two]


class Public(Announced):
    type_counts: dict[Type, Count]


class Round(Announced, kw_only=True):
    public: Public
    private: dict[str, Notice]
    round: int | UnsetType = UNSET


class Scores(Announced):
    player: int
    guest: int


class Standing(Announced):
    participant: str
    guest: str
    rank: Annotated[int, Meta(ge=1)]
    total: int
    scores: Scores


class Outcome(OutcomeHead, kw_only=True):
    standings: Annotated[list[Standing], Meta(max_length=PARTICIPANTS_MAX)]
    awards: list[Award]


class PublicOutcome(OutcomeHead, kw_only=True):
    """At the end the public learns the awards, and nothing else."""

    awards: list[Award]


def check_round(state: MatchState, round_no: int, announcement: dict) -> None:
    what = f"the announcement of round {round_no}"
    announced = conform(announcement, Round, what)
    check_round_number(announced.round, round_no, what)
    everyone = state.participants
    members(announced.private, everyone, f"{what}, private")
    for participant, notice in announced.private.items():
        where = f"{what}, {quoted(participant)}'s notice"
        targets = [item.target for item in notice.learn + notice.watch]
        targets += [action.target for item in notice.learn for action in item.actions]
        members(targets + [name for item in notice.watch for name in item.seen], everyone, where)


def _awards(state: MatchState, awards: list, what: str) -> None:
    members([award.participant for award in awards], state.players, f"{what}, awards", "player")
    check_reasons(awards, what)


def check_outcome(state: MatchState, outcome: dict) -> None:
    what = "the announced outcome"
    announced = conform(outcome, Outcome, what)
    check_head(state, announced, what)
    players = [standing.participant for standing in announced.standings]
    guests = [standing.guest for standing in announced.standings]
    members(players, state.players, f"{what}, standings", "player")
    members(guests, state.g.guest_of.values(), f"{what}, standings", "guest")
    distinct(players + guests, f"{what}, standings")
    _awards(state, announced.awards, what)


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    what = "the public outcome"
    announced = conform(outcome, PublicOutcome, what)
    check_head(state, announced, what)
    _awards(state, announced.awards, what)
