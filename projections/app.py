"""The application: a store, the engines and the fold, kept apart and wired together.

Every command goes the same way: replay the match (incrementally, from a per-process
cache), let the game ``decide``, append the resulting events in one transaction that
states the seq it expects, then fold the new events into the cached state.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

from matchledger import engine
from matchledger.engine.base import MatchState
from matchledger.engine.commands import CreateMatch
from matchledger.ledger.errors import CorruptLog, IllegalMove, MalformedInput
from matchledger.ledger.store import Store, StoredEvent

from . import snapshots
from .fold import Replayer


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


#: Events folded since the last snapshot after which a command writes a new one (a
#: finished match gets one after every command).
SNAPSHOT_EVERY = 64


class Ledger:
    def __init__(
        self,
        store: Store,
        *,
        actor: str = "host",
        clock: Callable[[], str] = utc_now,
        use_snapshots: bool = True,
    ):
        self.store = store
        self.actor = actor
        self.clock = clock
        self.use_snapshots = use_snapshots
        self._replayers: dict[str, Replayer] = {}
        self._snapshot_seq: dict[str, int] = {}  # match -> seq of its snapshot known here

    # ---- reading

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The match after its last event, or after event ``at``."""
        if at is not None:
            head = self.store.head(match_id)
            if head is None:
                self.store.events(match_id)  # raises UnknownMatch
            if at < 1 or at > head[0]:
                raise MalformedInput(f"--at {at} is outside match {match_id!r} (events 1 to {head[0]})")
            replayer, caught_up = self._start(match_id, upto=at)
            if not caught_up:
                replayer.feed_all(self.store.events(match_id, after=replayer.last_seq, upto=at))
            return replayer.state
        replayer = self._replayers.get(match_id)
        caught_up = False
        if replayer is None or replayer.state is None:
            replayer, caught_up = self._start(match_id)
            self._replayers[match_id] = replayer
        if not caught_up:
            replayer.feed_all(self.store.events(match_id, after=replayer.last_seq))
        if replayer.state is None:
            raise CorruptLog(f"match {match_id!r} has no events")
        return replayer.state

    def _start(self, match_id: str, upto: int | None = None) -> tuple[Replayer, bool]:
        """A replayer resumed from the match's snapshot when one is usable, else fresh;
        and whether it already stands at the last event wanted (no tail to read)."""
        if self.use_snapshots and snapshots.revision() is not None:
            found = self.store.snapshot(match_id, snapshots.revision(), upto)
            if found is not None:
                seq, body, last_seq = found
                try:
                    state = snapshots.decode_state(body)
                except snapshots.SnapshotUnusable:
                    state = None  # a stale or unreadable cache: replay from the start
                if state is not None and state.match_id == match_id and state.last_seq == seq:
                    if upto is None:
                        self._snapshot_seq[match_id] = seq
                    return Replayer.resume(state), seq == (last_seq if upto is None else upto)
        if upto is None:
            self._snapshot_seq.setdefault(match_id, 0)
        return Replayer(match_id), False

    # ---- snapshots

    def checkpoint(self, match_id: str) -> int:
        """Store a snapshot of the match as it stands, replayed from its first event (so
        that it replaces a snapshot that is stale or wrong); the seq it was taken after."""
        replayer = Replayer(match_id)
        replayer.feed_all(self.store.events(match_id))
        self._replayers[match_id] = replayer
        state = replayer.state
        if not snapshots.can_snapshot(state):
            raise IllegalMove(
                f"match {match_id!r}: no snapshot can be stored (game {state.game!r} has none, or this "
                "installation cannot read the engine's source to stamp its revision)"
            )
        try:
            body = snapshots.encode_state(state)
        except snapshots.SnapshotUnusable as exc:
            raise IllegalMove(str(exc)) from None
        head = self.store.head(match_id)
        self.store.save_snapshot(match_id, head[0], head[1], snapshots.revision(), body)
        self._snapshot_seq[match_id] = head[0]
        return head[0]

    def import_rows(self, rows: list[StoredEvent], state: MatchState) -> None:
        """Write verified rows of a match from elsewhere, with a snapshot of ``state``
        (the replay of exactly those rows), in one transaction."""
        with self.store.transaction():
            self.store.append_rows(rows)
            body = self._snapshot_body(state) if self.use_snapshots else None
            if body is not None:
                last = rows[-1]
                self.store.save_snapshot(last.match_id, last.seq, last.hash, snapshots.revision(), body)

    @staticmethod
    def _snapshot_body(state: MatchState) -> bytes | None:
        """The snapshot of ``state``, or None when it cannot be stored (a cache: the
        command is recorded all the same, and reads replay from the first event)."""
        if not snapshots.can_snapshot(state):
            return None
        try:
            return snapshots.encode_state(state)
        except snapshots.SnapshotUnusable:
            return None

    def _snapshot_due(self, match_id: str, state: MatchState) -> bool:
        if not self.use_snapshots or not snapshots.can_snapshot(state):
            return False
        return state.finished or state.last_seq - self._snapshot_seq.get(match_id, 0) >= SNAPSHOT_EVERY

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
        try:
            with self.store.transaction():  # the events and a snapshot due after them, together
                rows = self.store.append(match_id, state.last_seq + 1, events, actor=self.actor, recorded_at=self.clock())
                replayer = self._replayers[match_id]
                for row in rows:
                    # Fed as a replay reads it (decoded from the stored body, dict keys in
                    # the encoder's order), so the cached state is the replayed one exactly.
                    replayer.feed(row.seq, row.event())
                body = self._snapshot_body(replayer.state) if rows and self._snapshot_due(match_id, replayer.state) else None
                if body is not None:
                    last = rows[-1]
                    self.store.save_snapshot(match_id, last.seq, last.hash, snapshots.revision(), body)
                    self._snapshot_seq[match_id] = last.seq
        except BaseException:
            self.forget(match_id)  # the cached state may hold events that were rolled back
            raise
        return rows

    def forget(self, match_id: str | None = None) -> None:
        """Drop cached states (after a rolled-back transaction)."""
        if match_id is None:
            self._replayers.clear()
            self._snapshot_seq.clear()
        else:
            self._replayers.pop(match_id, None)
            self._snapshot_seq.pop(match_id, None)
