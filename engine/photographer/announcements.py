"""What Фотограф announces at the end, as types: the standings (no awards: it is not a
Main Match).  Turns are announced by the engine alone; a host enters only the results.
The checks of :mod:`matchledger.engine.announced` run through them."""

from __future__ import annotations

from matchledger.engine import announced
from matchledger.engine.announced import Announced, Outcome, Standing
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import MalformedInput


class Scores(Announced, frozen=True):
    rows: int
    blurred: int
    missing: int
    good_shots: int


def check_outcome(state: MatchState, outcome: dict, what: str = "the announced outcome") -> None:
    if announced.check_outcome(state, outcome, Outcome[Standing[Scores]], what).awards:
        raise MalformedInput(f"{what} lists awards; photographer has none (it is not a Main Match)")


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    """Every part of the points is public: the public outcome has the host's shape."""
    check_outcome(state, outcome, "the public outcome")
