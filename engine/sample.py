"""Random legal matches: what a game's ``sample(rng, match_id, **knobs)`` gives.

A sample is for tests and benchmarks that need matches nobody wrote by hand.  It is as
pure as the rest of the engine: every choice comes from the ``random.Random`` the caller
passed in (so a seed gives the same match again), nothing reads a clock or a file.

The knob ``scale`` is what the benchmark asks a sampler for (``bench/``), so that it
needs to know nothing of a game: ``1`` to ``4``, the corpus's four matches from small to
large (sizes like the game's fixtures'); ``"small"``, a small match; ``"largest"``, the
largest input the limits allow (the most participants, the longest names:
:func:`longest_names`, the largest set-up).  A sampler that takes no ``scale`` is
benchmarked at its default size and left out of ``bench --limits``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .commands import Command, CreateMatch
from .state import MatchState

#: The values of the ``scale`` knob (see the module).
SCALES = (1, 2, 3, 4, "small", "largest")


def longest_names(count: int, prefix: str) -> list[str]:
    """``count`` distinct participant names of the longest length allowed."""
    from matchledger.ledger.limits import NAME_MAX_LENGTH

    letters = "abcdefghijklmnopqrstuvwxyz"
    return [f"{prefix}{i:02d}".ljust(NAME_MAX_LENGTH, letters[i % 26]) for i in range(count)]


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
