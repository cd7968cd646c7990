"""The application: a store, the engines and the fold, kept apart and wired together.

Every command goes the same way: replay the match (incrementally, from a per-process
cache), let the game ``decide``, append the resulting events in one transaction that
states the seq it expects, then fold the new events into the cached state.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

import engine
from engine.base import MatchState
from engine.commands import CreateMatch
from ledger.errors import IllegalMove, MalformedInput
from ledger.store import Store, StoredEvent

from .fold import Replayer, replay


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


class Ledger:
    def __init__(self, store: Store, *, actor: str = "host", clock: Callable[[], str] = utc_now):
        self.store = store
        self.actor = actor
        self.clock = clock
        self._replayers: dict[str, Replayer] = {}

    # ---- reading

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The match after its last event, or after event ``at``."""
        if at is not None:
            head = self.store.head(match_id)
            if head is None:
                self.store.events(match_id)  # raises UnknownMatch
            if at < 1 or at > head[0]:
                raise MalformedInput(f"--at {at} is outside match {match_id!r} (events 1 to {head[0]})")
            return replay(match_id, self.store.events(match_id, upto=at))
        replayer = self._replayers.get(match_id)
        if replayer is None or replayer.state is None:
            replayer = Replayer(match_id)
            replayer.feed_all(self.store.events(match_id))
            self._replayers[match_id] = replayer
        else:
            replayer.feed_all(self.store.events(match_id, after=replayer.state.last_seq))
        return replayer.state

    def game_of(self, state: MatchState):
        return engine.get(state.game)

    # ---- writing

    def create(self, cmd: CreateMatch) -> list[StoredEvent]:
        if not cmd.match_id or any(c.isspace() for c in cmd.match_id):
            raise MalformedInput(f"bad match id {cmd.match_id!r}")
        if self.store.has_match(cmd.match_id):
            raise IllegalMove(f"match {cmd.match_id!r} already exists in {self.store.path!r}")
        events = engine.get(cmd.game).create(cmd)
        return self.store.append(cmd.match_id, 1, events, actor=self.actor, recorded_at=self.clock())

    def execute(self, match_id: str, cmd) -> list[StoredEvent]:
        state = self.state(match_id)
        events = self.game_of(state).decide(state, cmd)
        rows = self.store.append(match_id, state.last_seq + 1, events, actor=self.actor, recorded_at=self.clock())
        replayer = self._replayers.get(match_id)
        if replayer is not None:
            for row, event in zip(rows, events):
                replayer.feed(row.seq, event)
        return rows

    def forget(self, match_id: str | None = None) -> None:
        """Drop cached states (after a rolled-back transaction)."""
        if match_id is None:
            self._replayers.clear()
        else:
            self._replayers.pop(match_id, None)
