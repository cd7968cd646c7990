"""What the parts of the application share: one store, read through one reader."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from matchledger import engine
from matchledger.engine.state import MatchState
from matchledger.ledger.log_store import LogStore

from ..reading import Reader

if TYPE_CHECKING:  # the rules are loaded only for a match's own game
    from matchledger.engine.game import Game


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class Wiring(Protocol):
    """The store, the reader every state is read through (chain checked, from a snapshot
    only when the log vouches for it), who records events, the clock and the salts.
    The application is the one object that holds them; each part reads them from it
    when it acts, so a value replaced on the application holds for every part."""

    store: LogStore
    reader: Reader
    actor: str
    clock: Callable[[], str]
    #: a salt for each event recorded (``lambda: ""`` records none: tests that pin hashes)
    salts: Callable[[], str]
    use_snapshots: bool


def game_of(state: MatchState) -> Game:
    """The rules the match is played by."""
    return engine.get(state.game)
