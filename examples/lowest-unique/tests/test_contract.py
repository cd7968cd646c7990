"""matchledger's shipped game contract suite, run on Lowest Unique from this
distribution's own tests (as a game kept anywhere runs it)."""

from __future__ import annotations

import pytest

game_contract = pytest.importorskip(
    "matchledger.testing.game_contract",
    reason="this matchledger does not ship the game contract suite (matchledger.testing.game_contract)",
)


class TestLowestUnique(game_contract.GameContract):
    game = "lowest-unique"
    seeds = range(1, 7)
