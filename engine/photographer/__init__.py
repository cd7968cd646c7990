"""Фотограф / Wind the Film! (``photographer``): turn-based card drafting with hidden
hands.  Rules: engine/photographer/rules.md (rulings P1-P9)."""

__all__ = ["GAME", "PhotographerGame"]


def __getattr__(name: str):
    # The rules load when first asked for, not with the package: the game's spec
    # (``.spec``) is read at every start-up and must import nothing of them.
    if name in __all__:
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
