"""Writing matches: creating one, deciding a command and recording its events,
checkpoints, and importing a verified export.

Every write goes the same way: replay the match (incrementally, from the reader's kept
state or a snapshot), let the game decide, append the resulting events in one
transaction that states the seq it expects, then fold the new events into the kept
state.  What the write did to what was recorded before (a resubmission's superseded
seq, what a void brought back) is read from that same state: no second round trip.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterator

import msgspec

from matchledger import engine
from matchledger.engine.commands import Command, CreateMatch
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import IllegalMove, LogConflict
from matchledger.ledger.events import Event, StateCheckpointed, salted
from matchledger.ledger.log_store import StoredEvent
from matchledger.ledger.validation import check_actor, check_match_id

from .. import snapshots
from ..fold import replay
from ..reading import Cursor
from ..supersession import void_effect
from ..verification import VerifiedExport
from .results import Checkpointed, Recorded
from .wiring import Wiring, game_of

#: How often a command that lost the race for the log is decided again before its
#: writer is told the match moved on (``LogConflict``).
DECISION_ATTEMPTS = 8


class Writes:
    """What a host (or, through a link, a participant) records (each method's contract
    is written on the facade, ``Application``)."""

    def __init__(self, wiring: Wiring):
        self._wiring = wiring

    def create(self, cmd: CreateMatch) -> Recorded:
        store = self._wiring.store
        check_match_id(cmd.match_id)
        check_actor(self._wiring.actor)
        if store.has_match(cmd.match_id):
            raise IllegalMove(f"match {cmd.match_id!r} already exists in {store.location!r}")
        game = engine.get(cmd.game)
        key = game.seed_to_draw(dict(cmd.setup or {}))
        if key is not None:
            cmd = msgspec.structs.replace(cmd, setup={**(cmd.setup or {}), key: secrets.randbits(64)})
        events = game.create(cmd)
        return Recorded(tuple(self._append(cmd.match_id, 1, events)))

    def execute(self, match_id: str, cmd: Command, *, actor: str | None = None, now: str | None = None) -> Recorded:
        """Decide ``cmd`` and record what it decides, at ``now`` (None: the clock's time
        as it is recorded; a door that decided something on the time passes the time it
        read, so that what it decided and what the log says agree)."""
        recorded = self.execute_when(match_id, lambda _state: cmd, actor=actor, now=now)
        assert recorded is not None  # a command given is always decided
        return recorded

    def execute_when(
        self,
        match_id: str,
        command_for: Callable[[MatchState], Command | None],
        *,
        actor: str | None = None,
        now: str | None = None,
    ) -> Recorded | None:
        """:meth:`execute` of the command ``command_for`` gives for the match as it
        stands under its write lock (asked again whenever the decision is made again):
        None from it records nothing, and is returned.  A door that acts on what it read
        earlier (a deadline it saw pass) re-checks it here, against the log as it then is."""
        actor = check_actor(self._wiring.actor if actor is None else actor)
        if (
            self._wiring.store.in_transaction
        ):  # inside another's transaction: a conflict is the outer writer's to answer
            return self._execute_once(match_id, command_for, actor, now)
        for attempt in range(1, DECISION_ATTEMPTS + 1):
            try:
                return self._execute_once(match_id, command_for, actor, now)
            except LogConflict:
                # Another writer appended between this decision and its append (a back
                # end whose transaction takes the match's lock only to append): decided
                # again against the log as it now stands, so a legal command never fails
                # for being stale (docs/design.md, "Store"); one the rules now refuse is refused.
                if attempt == DECISION_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    def _execute_once(
        self, match_id: str, command_for: Callable[[MatchState], Command | None], actor: str, at: str | None = None
    ) -> Recorded | None:
        store, reader = self._wiring.store, self._wiring.reader
        decided = False
        try:
            # The write lock is taken before the state is read, so a command is decided
            # against every event committed before it: a host's command racing the
            # service's submissions is decided after them, never refused as stale.  (A
            # back end whose transaction takes no lock up front still refuses a stale
            # decision by the expected seq.)  The events and a checkpoint after them
            # are written together.
            with store.transaction():
                cursor = reader.cursor(match_id)
                state = cursor.state
                was_finished, was_open = state.finished, state.round
                cmd = command_for(state)
                if cmd is None:
                    return None
                decision = game_of(state).decision(state, cmd)
                decided = True
                now = _recorded_time(cmd, at, self._wiring.clock)
                rows = self._append(match_id, cursor.seq + 1, decision.events, actor, now)
                # Folded as a replay reads them (decoded from the stored bodies, dict keys
                # in the encoder's order), so the kept state is the replayed one exactly;
                # what deciding worked out (a round's resolution) comes along.
                cursor.follow(rows, decision.work)
                rows += self._scheduled_deadline(cursor, was_open, actor, now)
                if cursor.state.finished and not was_finished:
                    rows += self._checkpoint(cursor, actor)
        except BaseException:
            if decided:  # the kept state may hold events that were rolled back
                reader.forget(match_id)
            raise
        return self._recorded(cursor, rows)

    def _recorded(self, cursor: Cursor, rows: list[StoredEvent]) -> Recorded:
        """``rows`` (just recorded, and folded into ``cursor``) with what they superseded
        and what their voids did, read from the state they left."""
        state = cursor.state
        replaced = state.supersedes
        supersedes = {row.seq: replaced[row.seq] for row in rows if row.seq in replaced}
        voids = [row.seq for row in rows if row.kind == "SubmissionVoided"]
        effects = {}
        if voids:  # which announcements a void took back is told by the kinds of the rows before it
            first = rows[0].seq - 1
            earlier = self._wiring.store.rows(cursor.match_id, upto=first)
            kinds = [(row.seq, row.kind) for row in earlier] + [(row.seq, row.kind) for row in rows]
            effects = {seq: effect for seq in voids if (effect := void_effect(state, seq, kinds)) is not None}
        return Recorded(tuple(rows), supersedes, effects)

    def checkpoint(self, match_id: str) -> Checkpointed:
        reader = self._wiring.reader
        done = reader.vouched_snapshot_seq(match_id)
        if done is not None:
            return Checkpointed(done, [])
        cursor = reader.replayed(match_id)
        state = cursor.state
        if not snapshots.can_snapshot(state):
            raise IllegalMove(
                f"match {match_id!r}: no snapshot can be stored (game {state.game!r} has none, or this "
                "installation cannot read the game's source to stamp its revision)"
            )
        try:
            snapshots.encode_state(state)
        except snapshots.SnapshotUnusable as exc:
            raise IllegalMove(str(exc)) from None
        seq = cursor.seq
        try:
            with self._wiring.store.transaction():
                rows = self._checkpoint(cursor)
        except BaseException:
            reader.forget(match_id)
            raise
        return Checkpointed(seq, rows)

    def checkpoint_all(self) -> dict[str, Checkpointed]:
        store = self._wiring.store
        with store.transaction():
            return {match_id: self.checkpoint(match_id) for match_id in store.match_ids()}

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        try:
            with self._wiring.store.transaction():
                yield
        except BaseException:
            self._wiring.reader.forget()
            raise

    def import_verified(self, export: VerifiedExport) -> list[StoredEvent]:
        store = self._wiring.store
        if store.has_match(export.match_id):
            raise IllegalMove(f"match {export.match_id!r} already exists in {store.location!r}; nothing imported")
        with store.transaction():
            store.append_rows(export.rows)
            if self._wiring.use_snapshots:
                self._store_imported_snapshot(export)
        return export.rows

    # ------------------------------------------------------------------ internals

    def _append(
        self,
        match_id: str,
        expected_seq: int,
        events: list[Event],
        actor: str | None = None,
        recorded_at: str | None = None,
    ) -> list[StoredEvent]:
        """Record ``events``, each with a salt of its own (see ``Event.salt``), at
        ``recorded_at`` (None: the clock's time now)."""
        wiring = self._wiring
        events = [salted(event, wiring.salts()) for event in events]
        return wiring.store.append(
            match_id,
            expected_seq,
            events,
            actor=actor or wiring.actor,
            recorded_at=wiring.clock() if recorded_at is None else recorded_at,
        )

    def _scheduled_deadline(self, cursor: Cursor, was_open: int, actor: str, now: str) -> list[StoredEvent]:
        """The deadline of a round (or turn) that the command just opened, where the host
        gave every later one a period (``deadline --each``): that long after the time the
        round opened, which is the time recorded with the command that opened it.  It is
        recorded as a deadline the host set then would be, so `verify` re-decides it."""
        state = cursor.state
        game = game_of(state)
        if (
            not state.deadline_each
            or state.round == was_open
            or state.finished
            or state.abandoned is not None
            or game.play_is_over(state)
        ):
            return []
        from matchledger.engine.commands import SetDeadline

        from .. import deadlines  # here: only a scheduled match pays for it

        each = state.deadline_each
        command = SetDeadline(now, deadlines.after(now, each), reason=f"each {deadlines.period_text(each)}")
        decision = game.decision(state, command)
        rows = self._append(cursor.match_id, cursor.seq + 1, decision.events, actor, now)
        cursor.follow(rows, decision.work)
        return rows

    def _checkpoint(self, cursor: Cursor, actor: str | None = None) -> list[StoredEvent]:
        """Store the snapshot of the cursor's state and append the event that vouches
        for it ([] when the state cannot be stored: the match is read from its first
        event then).  Inside the caller's transaction."""
        body = snapshots.encode_if_possible(cursor.state) if self._wiring.use_snapshots else None
        if body is None:
            return []
        seq, digest = cursor.seq, cursor.hash
        revision = snapshots.revision(cursor.state.game)
        assert revision is not None  # a state is encoded only where its game's revision is known
        event = StateCheckpointed(seq=seq, revision=revision, digest=snapshots.digest(body))
        rows = self._append(cursor.match_id, seq + 1, [event], actor)
        self._wiring.store.save_snapshot(cursor.match_id, seq, digest, revision, body)
        cursor.follow(rows)
        return rows

    def _store_imported_snapshot(self, export: VerifiedExport) -> None:
        """The snapshot an imported log's last checkpoint vouches for, if this engine
        encodes the replayed state to exactly those bytes (else reads replay it)."""
        checkpoints = [row for row in export.rows if row.kind == "StateCheckpointed"]
        if not checkpoints:
            return
        revision = snapshots.revision(export.state.game)
        if revision is None:
            return
        event = checkpoints[-1].event()
        assert isinstance(event, StateCheckpointed)  # as its kind says: the verified chain holds the two alike
        if event.revision != revision:
            return
        state = replay(export.match_id, [(r.seq, r.event()) for r in export.rows], upto=event.seq)
        body = snapshots.encode_if_possible(state)
        if body is not None and snapshots.digest(body) == event.digest:
            self._wiring.store.save_snapshot(
                export.match_id, event.seq, export.rows[event.seq - 1].hash, revision, body
            )


def _recorded_time(cmd: Command, at: str | None, clock: Callable[[], str]) -> str:
    """When ``cmd``'s events are recorded: a command that carries the time its door read
    (a deadline's ``now``) at exactly that time, so that `verify` can hold the two
    together (a deadline recorded later, or earlier, than it says it was set is forged);
    else at ``at`` where the door gave one, else at the clock's time now."""
    carried = getattr(cmd, "now", None)
    if isinstance(carried, str):
        return carried
    return clock() if at is None else at
