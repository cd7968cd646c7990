"""Pinning replayed histories in tests.

- ``replay_history(PATH, MATCH)``: a match of a database or an exported JSON Lines file,
  replayed into a :class:`History` (every step, every view, every read model).
- ``replayed_history(application, MATCH)``: the same from an open application.
- the syrupy extension ``HistoryExtension``: ``assert replay_history(PATH, MATCH) ==
  snapshot.use_extension(HistoryExtension)``.

Names are loaded when first used, so that importing the package costs nothing: neither
the application nor syrupy is loaded until a name that needs it is asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_HOMES = {
    "History": "history",
    "Step": "history",
    "replay_history": "history",
    "replayed_history": "history",
    "HistoryExtension": "extension",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
