"""Reading a match: the one way a state is derived from the log, tamper-evident.

Every read checks the chain of what it shows, and refuses (``VerificationFailed``, exit 3,
naming the first bad seq) rather than show data the chain does not vouch for: a link
or a hash that does not hold, a read up to an event that is no longer there, or a
checkpoint that records another seq than the event before it.  A stored
snapshot is only a cache: a read starts from it only when the log vouches for it, that
is when the event after the snapshot's is a ``StateCheckpointed`` recording the
revision of the code this installation folds the match's game with and the sha256 of exactly the snapshot's bytes.  Then only that event and the
ones after it need their hashes checked and their bodies folded; the snapshot stands for
the rest.  A forged snapshot, or one the log does not vouch for, changes nothing anyone
sees: the read replays from the first event instead.

A :class:`Cursor` is a match folded up to some event whose hash it remembers, so that
the rows after it can be checked and folded on the next read, or after a write.
"""

from __future__ import annotations

from matchledger.engine.state import MatchState
from matchledger.ledger.codec import GENESIS_HASH
from matchledger.ledger.errors import CorruptLog, MatchledgerError, OutsideLog, UnverifiedLog, VerificationFailed
from matchledger.ledger.events import MatchCreated, StateCheckpointed
from matchledger.ledger.log_store import LogStore, StoredEvent
from matchledger.ledger.verify import Finding, verify_chain

from . import snapshots
from .fold import Replayer
from .rederive import checkpoint_out_of_place


class Cursor:
    """A match folded as far as event ``seq``, whose stored hash is ``hash``;
    ``resumed_from``: the seq of the snapshot it started from (0: the first event)."""

    __slots__ = ("match_id", "replayer", "seq", "hash", "resumed_from")

    def __init__(self, match_id: str, replayer: Replayer, seq: int = 0, digest: str = GENESIS_HASH):
        self.match_id = match_id
        self.replayer = replayer
        self.seq = seq
        self.hash = digest
        self.resumed_from = seq

    @property
    def state(self) -> MatchState:
        """The match as folded so far: a cursor is read only once it holds the match's
        first event (``Reader.cursor`` refuses a match with none)."""
        state = self.replayer.state
        assert state is not None, "the cursor has folded no event"
        return state

    def check(self, rows: list[StoredEvent]) -> list:
        """The (seq, event) pairs of ``rows`` once they are shown to continue the chain
        from here; VerificationFailed naming the first bad seq otherwise."""
        events: list = []
        findings = verify_chain(self.match_id, rows, decoded=events, after=(self.seq, self.hash))
        if findings:
            raise refusal(self.match_id, findings[0])
        for row, (seq, event) in zip(rows, events):
            if row.kind == "StateCheckpointed":  # the chain holds: kind and body agree
                misplaced = checkpoint_out_of_place(self.match_id, seq, event)
                if misplaced is not None:
                    raise refusal(self.match_id, misplaced)
        return events

    def follow(self, rows: list[StoredEvent], work: list | None = None) -> None:
        """Check that ``rows`` continue the chain from here, then fold them; ``work``:
        what deciding the events already worked out (a write's own rows)."""
        events = self.check(rows)
        for index, (seq, event) in enumerate(events):
            self.replayer.feed(seq, event, work[index] if work else None)
        if rows:
            self.seq, self.hash = rows[-1].seq, rows[-1].hash


class Reader:
    """Matches of one store, each read through the chain; the latest state of each
    match read or written here is kept and carried on from (``forget`` drops it)."""

    def __init__(self, store: LogStore, use_snapshots: bool = True):
        self.store = store
        self.use_snapshots = use_snapshots
        #: {match: its game}: a first event never changes, so a long-running reader
        #: (serve) asks the store for it once per match
        self._games: dict[str, str] = {}
        self._cursors: dict[str, Cursor] = {}

    def cursor(self, match_id: str) -> Cursor:
        """The match as its log now gives it (kept for the next read or write)."""
        cursor = self._cursors.get(match_id)
        if cursor is None:
            cursor = self._start(match_id, None)
        else:
            cursor.follow(self.store.rows(match_id, after=cursor.seq))
        if cursor.replayer.state is None:  # the match has no events: there is no such match
            raise self.store.unknown_match(match_id)
        self._cursors[match_id] = cursor
        return cursor

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The match after its last event, or after event ``at``."""
        if at is None:
            return self.cursor(match_id).state
        head = self.store.head(match_id)
        if head is None:
            raise self.store.unknown_match(match_id)
        if not 1 <= at <= head[0]:
            raise OutsideLog(match_id, at, head[0])
        cursor = self._start(match_id, at)
        self._reached(match_id, cursor.seq, at)
        return cursor.state

    def checked(self, match_id: str, upto: int | None = None) -> tuple[list[StoredEvent], list]:
        """Every row of the match (up to ``upto``), and its (seq, event) pairs, for a read
        that shows them all (the log, an export, the replay page), once the whole chain
        has been checked."""
        rows = self.store.rows(match_id, upto=upto)
        if not rows:
            raise self.store.unknown_match(match_id)
        events = Cursor(match_id, Replayer(match_id)).check(rows)
        if upto is not None:
            self._reached(match_id, rows[-1].seq, upto)
        return rows, events

    def _reached(self, match_id: str, seq: int, upto: int) -> None:
        """A read up to event ``upto`` of a log that holds a later one must reach it: the
        rows up to it chain, but they stop short when event ``upto`` itself was removed."""
        if seq != upto:
            later = self.store.rows(match_id, after=seq)
            after = f" (next stored seq is {later[0].seq})" if later else ""
            raise refusal(match_id, Finding(match_id, seq + 1, f"event {seq + 1} is missing{after}"))

    def replayed(self, match_id: str) -> Cursor:
        """The match replayed from its first event, never from a snapshot (kept)."""
        cursor = Cursor(match_id, Replayer(match_id))
        cursor.follow(self.checked(match_id)[0])
        self._cursors[match_id] = cursor
        return cursor

    def vouched_snapshot_seq(self, match_id: str) -> int | None:
        """The seq of the state the stored snapshot holds, if the match's last event is
        the checkpoint that vouches for it (nothing left to checkpoint then)."""
        cursor = self._vouched(match_id, None)
        if cursor is None:
            return None
        head = self.store.head(match_id)
        assert head is not None  # the cursor followed the match's rows
        if head[0] != cursor.seq:
            return None
        return cursor.seq - 1

    def kept(self, match_id: str) -> Cursor | None:
        """The match's kept cursor, as far as it was last read (None: none is kept)."""
        return self._cursors.get(match_id)

    def forget(self, match_id: str | None = None) -> None:
        """Drop kept states (after a rolled-back transaction: a match it created may be
        made again, of another game)."""
        if match_id is None:
            self._cursors.clear()
            self._games.clear()
        else:
            self._cursors.pop(match_id, None)
            self._games.pop(match_id, None)

    def _start(self, match_id: str, upto: int | None) -> Cursor:
        """A cursor at ``upto`` (or the last event): from the latest snapshot the log
        vouches for when there is one, else from the first event."""
        vouched = self._vouched(match_id, upto)
        if vouched is not None:
            return vouched
        cursor = Cursor(match_id, Replayer(match_id))
        cursor.follow(self.store.rows(match_id, upto=upto))
        return cursor

    def _game(self, match_id: str) -> str | None:
        """The game the match's first event names (whose code's revision its snapshot
        must be of); None when it names none.  Only a cache key: the snapshot found must
        hold a state of that game, and the events after it are checked against the chain."""
        known = self._games.get(match_id)
        if known is not None:
            return known
        rows = self.store.rows(match_id, upto=1)
        try:
            created = rows[0].event() if rows else None
        except MatchledgerError:  # an undecodable body: the replay names it
            return None
        if not isinstance(created, MatchCreated):
            return None
        self._games[match_id] = created.game
        return created.game

    def _vouched(self, match_id: str, upto: int | None) -> Cursor | None:
        """A cursor resumed from the stored snapshot and carried to ``upto``, if the
        event after the snapshot's vouches for exactly its bytes; else None."""
        if not self.use_snapshots:
            return None
        game = self._game(match_id)
        revision = snapshots.revision(game) if game is not None else None
        if revision is None:
            return None
        found = self.store.snapshot(match_id, revision, None if upto is None else upto - 1)
        if found is None:
            return None
        seq, body, digest = found
        rows = self.store.rows(match_id, after=seq, upto=upto)
        if not rows or rows[0].kind != "StateCheckpointed":
            return None
        try:
            state = snapshots.decode_state(body)
        except snapshots.SnapshotUnusable:
            return None
        if state.match_id != match_id or state.last_seq != seq or state.game != game:
            return None
        cursor = Cursor(match_id, Replayer.resume(state), seq, digest)
        checkpoint = _decoded_checkpoint(rows[0])
        if checkpoint is None or (checkpoint.seq, checkpoint.revision, checkpoint.digest) != (
            seq,
            revision,
            snapshots.digest(body),
        ):
            return None
        try:
            cursor.follow(rows)  # the checkpoint itself is checked against the chain here
        except VerificationFailed:
            # Name the first bad seq of the whole log, as verify does, not the first one
            # after the snapshot: the rows before it may be broken too.
            Cursor(match_id, Replayer(match_id)).check(self.store.rows(match_id, upto=upto))
            raise
        return cursor


def refusal(match_id: str, finding: Finding) -> VerificationFailed:
    """What a read raises instead of showing what the chain does not vouch for."""
    return UnverifiedLog(match_id, finding)


def _decoded_checkpoint(row: StoredEvent) -> StateCheckpointed | None:
    try:
        event = row.event()
    except CorruptLog:
        return None  # the chain check that follows names it, from the first event
    return event if isinstance(event, StateCheckpointed) else None
