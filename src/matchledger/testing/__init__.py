"""What matchledger ships for tests: the contract suites, and pinning replayed histories.

- ``GameContract`` (:mod:`.game_contract`): the contract every game keeps, for a game's
  own tests; ``StoreContract`` (:mod:`.store_contract`) with the harnesses
  ``SQLiteHarness`` and ``PostgresHarness``: the contract every back end's store keeps
  (docs/testing.md).

Pinning replayed histories (docs/snapshot-testing.md):

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
    "GameContract": "game_contract",
    "StoreContract": "store_contract",
    "SQLiteHarness": "store_contract",
    "PostgresHarness": "store_contract",
}

__all__ = sorted(_HOMES)  # noqa: PLE0605 (a list, built from the table of homes)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
