"""Parallel Worlds (``pw``): players and secret guest partners, targeting, deduction.

Rules: rules/parallel-worlds.md (rulings W1–W9).  Modules: ``notation`` (tokens),
``validation`` (set-up, contracts, W1–W5), ``resolve`` (W6 swaps, effects, W7, W8),
``endgame`` (ranking, ToLs, W9 ECs, contracts), ``views`` (allow-listed read models).
"""

from .game import ParallelWorlds

GAME = ParallelWorlds()

__all__ = ["GAME", "ParallelWorlds"]
