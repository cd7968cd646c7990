"""Each game's own presentation: the package its declaration names
(``GameSpec.presentation``, wherever it is installed: the built-in games keep theirs
here, one package per game), holding any of:

- ``text.py``: ``text(model, data, view) -> str | None``, the terminal text of a read
  model (None: the generic text will do);
- ``picture.py``: ``board(models) -> Canvas``, ``panels(models) -> list[Panel]``,
  ``legend(models) -> [(label, colour)]`` and ``headline(models) -> str``.
- ``messages.py``: ``public_message(reveals, round)`` and ``participant_message(knowledge,
  round)`` (each message's JSON, from that read model alone), ``public_lines(match,
  message)`` and ``participant_lines(match, name, message)`` (its text).

A game that declares no presentation, or whose package lacks one of these modules, is
shown by the generic one (:mod:`..generic_picture`, :mod:`..generic_messages`, the
generic text of :mod:`..text`).  There is no table of games here: the engine's
registry is the only one.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

from matchledger import engine

#: The modules a presentation package may hold.
KINDS = ("text", "picture", "messages")


def presentation_module(game: str, kind: str) -> ModuleType | None:
    """``game``'s own module ``kind`` ("text", "picture" or "messages"), or None when
    it has none (no presentation declared, or none of that kind in the package)."""
    package = engine.spec(game).presentation
    return None if package is None else _module(package, kind)


@functools.cache  # Python does not remember a module it did not find: look each one up once
def _module(package: str, kind: str) -> ModuleType | None:
    name = f"{package}.{kind}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            # the declared package is missing, or the module exists but something it
            # imports is missing: an installation to repair, not a game to show generically
            raise
        return None


def games_with(kind: str) -> list[str]:
    """The installed games that have their own module ``kind``, sorted by name."""
    return sorted(name for name in engine.names() if presentation_module(name, kind) is not None)
