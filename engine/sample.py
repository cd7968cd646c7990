"""Random legal matches: what a game's ``sample(rng, match_id, **knobs)`` gives.

A sample is for tests and benchmarks that need matches nobody wrote by hand.  It is as
pure as the rest of the engine: every choice comes from the ``random.Random`` the caller
passed in (so a seed gives the same match again), nothing reads a clock or a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .commands import Command, CreateMatch
from .state import MatchState


@dataclass(frozen=True)
class Sample:
    """A random legal match of one game: the command that creates it, and a chooser of
    the next command for the match as it stands.

    The chooser reads the state, never changes it, and draws from the sampler's random
    source: ask it once per command actually played, and the same seed plays the same
    match.  ``projections.fold.play`` is the driver."""

    create: CreateMatch
    choose: Callable[[MatchState], Command | None]

    def next_command(self, state: MatchState) -> Command | None:
        """A legal next command for ``state`` (this sample's match, after the commands
        played so far); None once the match is finished."""
        return self.choose(state)
