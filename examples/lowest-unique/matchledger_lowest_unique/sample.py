"""Random legal matches of Lowest Unique, for tests and benchmarks (pure: every choice
comes from the caller's ``random.Random``)."""

from __future__ import annotations

import random

from matchledger.engine.commands import CloseRound, CreateMatch, Submit
from matchledger.engine.sample import Sample
from matchledger.engine.state import MatchState

NAMES = (
    "ann",
    "bob",
    "cat",
    "dan",
    "eve",
    "fay",
    "gus",
    "hal",
    "ivy",
    "jon",
    "kim",
    "lou",
    "max",
    "ned",
    "oli",
    "pat",
    "quin",
    "rae",
    "sam",
    "tia",
)


def sample(
    rng: random.Random,
    match_id: str = "m1",
    n_players: int | None = None,
    rounds: int | None = None,
    highest: int | None = None,
    resubmit: float = 0.2,
) -> Sample:
    """A match of ``n_players`` (3 to 20, U1), ``rounds`` rounds and numbers up to
    ``highest`` (drawn where not given).  A player sometimes changes their number before
    the close (U4), with probability ``resubmit`` each round."""
    n = n_players if n_players is not None else rng.randint(3, 8)
    rounds = rounds if rounds is not None else rng.randint(1, 4)
    highest = highest if highest is not None else rng.choice([2, 3, 5, 10])
    create = CreateMatch(match_id, "lowest-unique", list(NAMES[:n]), {"rounds": str(rounds), "highest": str(highest)})
    resubmitted: set[int] = set()

    def choose(state: MatchState) -> Submit | CloseRound | None:
        if state.finished or state.round > rounds:
            return None
        top = state.options_for(state.round)["highest"]
        waiting = [p for p in state.players if state.current_submission(state.round, p) is None]
        if waiting:
            return Submit(waiting[0], [str(rng.randint(1, top))])
        if state.round not in resubmitted:
            resubmitted.add(state.round)
            if rng.random() < resubmit:
                return Submit(rng.choice(state.players), [str(rng.randint(1, top))])
        return CloseRound()

    return Sample(create, choose)
