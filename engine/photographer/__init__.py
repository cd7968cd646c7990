"""Фотограф / Wind the Film! (``photographer``): turn-based card drafting with hidden
hands.  Rules: shared/rules/photographer.md (rulings P1-P9)."""

from .game import PhotographerGame

GAME = PhotographerGame()

__all__ = ["GAME", "PhotographerGame"]
