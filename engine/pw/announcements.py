"""What Parallel Worlds announces, as types: each round's public type counts and each
participant's private notice (points, and what their Learn and Watch actions showed),
and the outcome.  The checks of :mod:`matchledger.engine.announced` run through them."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, UnsetType

from matchledger.engine import announced
from matchledger.engine.announced import (
    Announced,
    Award,
    ContractResults,
    Count,
    Names,
    Outcome,
    OutcomeHead,
    Standing,
    check_awards,
    check_contracts,
    check_head,
    check_round_number,
    conform,
    distinct,
    members,
)
from matchledger.engine.state import MatchState

from .endgame import SABOTAGE
from .notation import TYPES
from .validation import MAIN_CONTRACTS

Type = Literal[TYPES]  # type: ignore[valid-type]  # each of TYPES, as msgspec reads it; mypy wants them spelt out
#: What a contract result may name (rules, "Contracts"); a Sabotage Pact names its target.
CONTRACTS = (*MAIN_CONTRACTS, SABOTAGE)
#: A participant submits two actions a round: at most two Learn or Watch results.
Two = Meta(max_length=2)


class LearnedAction(Announced, kw_only=True, frozen=True):
    type: Type
    target: str
    predict: Type | UnsetType = UNSET


class Learned(Announced, frozen=True):
    target: str
    actions: Annotated[list[LearnedAction], Two]


class Watched(Announced, frozen=True):
    target: str
    seen: Names


class Notice(Announced, frozen=True):
    own_points: int
    partner_points: int
    learn: Annotated[list[Learned], Two]
    watch: Annotated[list[Watched], Two]


class Public(Announced, frozen=True):
    type_counts: dict[Type, Count]


class Round(Announced, kw_only=True, frozen=True):
    public: Public
    private: dict[str, Notice]
    round: int | UnsetType = UNSET


class Scores(Announced, frozen=True):
    player: int
    guest: int


class PairStanding(Standing[Scores], frozen=True):
    """A pair's line: the player, and their guest."""

    guest: str


class PublicOutcome(OutcomeHead, kw_only=True, frozen=True):
    """At the end the public learns the awards and the contract results, and nothing
    else (an outcome recorded before contract results were announced lacks them)."""

    awards: list[Award]
    contracts: ContractResults | UnsetType = UNSET


def check_round(state: MatchState, round_no: int, announcement: dict) -> None:
    what = f"the announcement of round {round_no}"
    entry = conform(announcement, Round, what)
    check_round_number(entry.round, round_no, what)
    notices = entry.private.values()
    named = [item.target for notice in notices for item in notice.learn + notice.watch]
    named += [action.target for notice in notices for item in notice.learn for action in item.actions]
    named += [name for notice in notices for item in notice.watch for name in item.seen]
    members(entry.private, state.participants, f"{what}, private")
    members(named, state.participants, f"{what}, a private notice")


def check_outcome(state: MatchState, outcome: dict) -> None:
    what = "the announced outcome"
    table = announced.check_outcome(state, outcome, Outcome[PairStanding], what, CONTRACTS, (SABOTAGE,)).standings
    guests = [standing.guest for standing in table]
    members(guests, state.g.guest_of.values(), f"{what}, standings", "guest")
    distinct(guests, f"{what}, standings")


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    what = "the public outcome"
    public = conform(outcome, PublicOutcome, what)
    check_head(state, public, what)
    check_awards(state, public.awards, what)
    check_contracts(state, public.contracts, CONTRACTS, (SABOTAGE,), what)
