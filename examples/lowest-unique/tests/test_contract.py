"""matchledger's shipped game contract suite, run on Lowest Unique from this
distribution's own tests (as a game kept anywhere runs it)."""

from __future__ import annotations

from matchledger.testing.game_contract import GameContract


class TestLowestUnique(GameContract):
    game = "lowest-unique"
    seeds = range(1, 7)
