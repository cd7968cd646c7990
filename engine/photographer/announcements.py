"""What Фотограф announces at the end, as types: the standings (no awards: it is not a
Main Match).  Turns are announced by the engine alone; a host enters only the results.
The checks of :mod:`matchledger.engine.announced` run through them."""

from __future__ import annotations

from typing import Annotated

from matchledger.engine.announced import Announced, Award, OutcomeHead, check_head, conform, distinct, members
from matchledger.engine.state import MatchState
from matchledger.ledger.limits import PARTICIPANTS_MAX
from msgspec import Meta


class Scores(Announced):
    rows: int
    blurred: int
    missing: int
    good_shots: int


class Standing(Announced):
    participant: str
    rank: Annotated[int, Meta(ge=1)]
    total: int
    scores: Scores


class Outcome(OutcomeHead, kw_only=True):
    standings: Annotated[list[Standing], Meta(max_length=PARTICIPANTS_MAX)]
    awards: Annotated[list[Award], Meta(max_length=0)]


def check_outcome(state: MatchState, outcome: dict, what: str = "the announced outcome") -> None:
    announced = conform(outcome, Outcome, what)
    check_head(state, announced, what)
    seated = [standing.participant for standing in announced.standings]
    members(seated, state.players, f"{what}, standings", "player")
    distinct(seated, f"{what}, standings")


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    """Every part of the points is public: the public outcome has the host's shape."""
    check_outcome(state, outcome, "the public outcome")
