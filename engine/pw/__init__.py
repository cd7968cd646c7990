"""Parallel Worlds (``pw``): players and secret guest partners, targeting, deduction.

Rules: engine/pw/rules.md (rulings W1–W9).  Modules: ``notation`` (tokens),
``validation`` (set-up, contracts, W1–W5), ``resolve`` (W6 swaps, effects, W7, W8),
``endgame`` (ranking, ToLs, W9 ECs, contracts), ``views`` (allow-listed read models).
"""

__all__ = ["GAME", "ParallelWorlds"]


def __getattr__(name: str):
    # The rules load when first asked for, not with the package: the game's spec
    # (``.spec``) is read at every start-up and must import nothing of them.
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
