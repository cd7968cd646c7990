"""Lowest Unique (``lowest-unique``): each round every player secretly names a number;
the lowest number nobody else named wins the round's point.

Rules: ``rules.md`` in this package (rulings U1–U12).  Modules: ``spec`` (the
declaration matchledger reads at start-up), ``game`` (the rules), ``views`` (the
allow-listed read models), ``announcements`` (the shapes of what the game announces),
``sample`` (random legal matches).
"""

__all__ = ["GAME", "LowestUnique"]


def __getattr__(name: str):
    # The rules load when first asked for, not with the package: the spec is read at
    # every start-up of matchledger and must import nothing of them.
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
