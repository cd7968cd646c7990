"""Each game's own presentation, one package per game named as the engine registers it,
holding any of:

- ``text.py``: ``text(model, data, view) -> str | None``, the terminal text of a read
  model (None: the generic text will do);
- ``picture.py``: ``board(models) -> Canvas``, ``panels(models) -> list[Panel]``,
  ``legend(models) -> [(label, colour)]`` and ``headline(models) -> str``.
- ``messages.py``: ``public_message(reveals, round)`` and ``participant_message(knowledge,
  round)`` (each message's JSON, from that read model alone), ``public_lines(match,
  message)`` and ``participant_lines(match, name, message)`` (its text).

There is no table of games here: the engine's registry is the only one, and a game's
presentation is found by its name.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from types import ModuleType


@functools.cache  # Python does not remember a module it did not find: look each one up once
def presentation_module(game: str, kind: str) -> ModuleType | None:
    """``game``'s module ``kind`` ("text", "picture" or "messages"), or None when it has none."""
    name = f"{__name__}.{game}.{kind}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name not in (name, f"{__name__}.{game}"):
            raise  # the module exists but something it imports is missing
        return None


def games_with(kind: str) -> list[str]:
    """The games that have a module ``kind``, sorted by name."""
    return sorted(
        game.name
        for game in pkgutil.iter_modules(__path__)
        if game.ispkg and importlib.util.find_spec(f"{__name__}.{game.name}.{kind}") is not None
    )
