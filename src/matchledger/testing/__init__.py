"""Pinning replayed histories in tests (docs/snapshot-testing.md).

- ``replay_history(PATH, MATCH)``: a match of a database or an exported JSON Lines file,
  replayed into a :class:`History` (every step, every view, every read model).
- ``replayed_history(application, MATCH)``: the same from an open application.
- the fixture ``matchledger_history`` (with ``@pytest.mark.matchledger_history(PATH, MATCH)``)
  and the syrupy extension ``HistoryExtension``: ``assert matchledger_history ==
  snapshot.use_extension(HistoryExtension)``.
- ``pytest --matchledger-history PATH``: the same for every match of PATH.

Names are loaded when first used: pytest imports this package in every run (its plugin
lives here), and neither the application nor syrupy belongs in that import.
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
