"""The shapes of what Lowest Unique announces (matchledger's engine/announced.py): a
round's announcement (U7, U8) and the outcome (U11), as a host may also enter them by
hand (``close --announced``, ``outcome --announced``)."""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, UnsetType

from matchledger.engine import announced
from matchledger.engine.announced import (
    Announced,
    Award,
    OutcomeHead,
    Standing,
    check_head,
    check_round_number,
    conform,
    distinct,
    members,
)
from matchledger.engine.state import MatchState
from matchledger.ledger.limits import PARTICIPANTS_MAX

Number = Annotated[int, Meta(ge=1, le=100)]  # U2: highest is at most 100


class Public(Announced):
    numbers: Annotated[list[Number], Meta(max_length=PARTICIPANTS_MAX)]  # U7
    lowest_unique: Number | None


class Notice(Announced):
    number: Number | None  # U8; None: no number (U5)
    won: bool


class Round(Announced, kw_only=True):
    public: Public
    private: dict[str, Notice]
    round: int | UnsetType = UNSET


class Won(Announced):
    won: Annotated[list[Annotated[int, Meta(ge=1)]], Meta(max_length=20)]  # the rounds a player won


class PlayerStanding(Standing[Won]):
    """A line of the host's table (U11): the player, rank, total and the rounds won."""


class PublicStanding(Announced):
    """A line of the public table (U11): no rounds won (they would say who chose what)."""

    participant: str
    rank: Annotated[int, Meta(ge=1)]
    total: int


class PublicOutcome(OutcomeHead, kw_only=True):
    standings: Annotated[list[PublicStanding], Meta(max_length=PARTICIPANTS_MAX)]
    awards: list[Award]


def check_round(state: MatchState, round_no: int, announcement: dict) -> None:
    what = f"the announcement of round {round_no}"
    entry = conform(announcement, Round, what)
    check_round_number(entry.round, round_no, what)
    members(entry.private, state.players, f"{what}, private", "player")


def check_outcome(state: MatchState, outcome: dict) -> None:
    announced.check_outcome(state, outcome, announced.Outcome[PlayerStanding], "the announced outcome")


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    what = "the public outcome"
    public = conform(outcome, PublicOutcome, what)
    check_head(state, public, what)
    ranked = [standing.participant for standing in public.standings]
    members(ranked, state.players, f"{what}, standings", "player")
    distinct(ranked, f"{what}, standings")
