"""The application: the one way in for every front door (the command line now, the HTTP
service next).  It wires a store, the engines and the fold together; a front door parses
what it is given, calls one method here and renders what comes back.

Every write goes the same way: replay the match (incrementally, from a per-process cache
or a snapshot), let the game decide, append the resulting events in one transaction that
states the seq it expects, then fold the new events into the cached state.  Every read
replays the match up to the seq asked for and asks the game for one read model in one
view.  Verification has one implementation (:mod:`.verification`), used by `verify`,
`audit`, `import` and `diff` alike.
"""

from __future__ import annotations

import contextlib
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

import msgspec
from matchledger.engine.commands import CreateMatch
from matchledger.engine.state import HOST, MatchState, View
from matchledger.ledger.errors import CorruptLog, IllegalMove, MalformedInput
from matchledger.ledger.portable import export_lines
from matchledger.ledger.store import Store, StoredEvent
from matchledger.ledger.validation import check_actor, check_match_id
from matchledger.ledger.verify import Finding, verify_chain

from matchledger import engine

from . import snapshots
from .audit import audit_report
from .comparison import Comparison, Side, compare
from .fold import Replayer
from .rescore import rescore
from .verification import MatchReport, VerifiedExport, verify_stored
from .views import resolve_view

#: The read models a front door may ask for by name.
READ_MODELS = ("status", "scores", "outcome", "reveals", "knowledge")

#: Events folded since the last snapshot after which a command writes a new one (a
#: finished match gets one after every command).
SNAPSHOT_EVERY = 64


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


class Reading(msgspec.Struct, frozen=True):
    """One read model of a match in one view, and the state it was read from."""

    state: MatchState
    view: View
    data: dict


class Audit(msgspec.Struct, frozen=True):
    report: dict  # JSON-ready
    findings: list[Finding]


class Rescored(msgspec.Struct, frozen=True):
    overrides: dict[str, Any]
    recorded: dict
    rescored: dict


class Application:
    """Matches in one store, as hosts, participants, the public and auditors reach them."""

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

    # ------------------------------------------------------------------ matches

    @property
    def location(self) -> str:
        """Where the matches are kept (the database file), as messages name it."""
        return self.store.path

    def match_ids(self) -> list[str]:
        return self.store.match_ids()

    def head(self, match_id: str) -> tuple[int, str]:
        """(seq, hash) of the match's last event; UnknownMatch when there is none."""
        head = self.store.head(match_id)
        if head is None:
            raise self.store.unknown_match(match_id)
        return head

    def check_at(self, match_id: str, at: int | None) -> None:
        """``--at SEQ`` must name an event of the match."""
        last = self.head(match_id)[0]
        if at is not None and not 1 <= at <= last:
            raise MalformedInput(f"--at {at} is outside match {match_id!r} (events 1 to {last})")

    def game_of(self, state: MatchState):
        return engine.get(state.game)

    # ------------------------------------------------------------------ reading

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The match after its last event, or after event ``at``."""
        if at is not None:
            self.check_at(match_id, at)
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
        if replayer.state is None:  # the match has no events: there is no such match
            self._replayers.pop(match_id, None)
            self.head(match_id)
            raise CorruptLog(f"match {match_id!r} has no events")
        return replayer.state

    def read(
        self, match_id: str, model: str, *, public: bool = False, participant: str | None = None, at: int | None = None
    ) -> Reading:
        """Read model ``model`` (one of READ_MODELS) in the view asked for: the host's
        by default, the public's, or one participant's (``knowledge`` needs one)."""
        state = self.state(match_id, at)
        view = resolve_view(state, public=public, participant=participant)
        game = self.game_of(state)
        data = game.knowledge(state, view.participant) if model == "knowledge" else getattr(game, model)(state, view)
        return Reading(state, view, data)

    def log(self, match_id: str, at: int | None = None) -> list[StoredEvent]:
        """The match's stored events (up to ``at``), for the host and auditors."""
        self.check_at(match_id, at)
        return self.store.rows(match_id, upto=at)

    def explain(self, match_id: str, participant: str, at: int | None = None) -> Reading:
        """``participant``'s score line by line (the host's view)."""
        state = self.state(match_id, at)
        resolve_view(state, participant=participant)
        return Reading(state, HOST, self.game_of(state).explain(state, participant))

    def view(self, state: MatchState, *, public: bool = False, participant: str | None = None) -> View:
        """The host's view, the public's or ``participant``'s (who must be one)."""
        return resolve_view(state, public=public, participant=participant)

    def history(
        self, match_id: str, *, public: bool = False, participant: str | None = None
    ) -> tuple[View, Iterator[tuple[StoredEvent, MatchState]]]:
        """The view asked for (checked against the match as it stands) and every event
        with the state right after it, from the first event on (one state object, folded
        further at each step: use it before asking for the next)."""
        view = self.view(self.state(match_id), public=public, participant=participant)
        rows = self.store.rows(match_id)

        def steps() -> Iterator[tuple[StoredEvent, MatchState]]:
            replayer = Replayer(match_id)
            for row in rows:
                yield row, replayer.feed(row.seq, row.event())

        return view, steps()

    def rescore(self, match_id: str, options: dict[str, str]) -> Rescored:
        """The host's outcome as recorded and under other option values (nothing written)."""
        state = self.state(match_id)
        game = self.game_of(state)
        overrides = {key: game.parse_option(key, value) for key, value in options.items()}
        alternative = rescore(match_id, self.store.events(match_id), overrides)
        return Rescored(overrides, game.outcome(state, HOST), game.outcome(alternative, HOST))

    # ------------------------------------------------------------------ writing

    def create(self, cmd: CreateMatch) -> list[StoredEvent]:
        check_match_id(cmd.match_id)
        check_actor(self.actor)
        if self.store.has_match(cmd.match_id):
            raise IllegalMove(f"match {cmd.match_id!r} already exists in {self.location!r}")
        events = engine.get(cmd.game).create(cmd)
        return self.store.append(cmd.match_id, 1, events, actor=self.actor, recorded_at=self.clock())

    def execute(self, match_id: str, cmd) -> list[StoredEvent]:
        """Decide ``cmd`` against the match as its log gives it and record the events."""
        check_actor(self.actor)
        state = self.state(match_id)
        decision = self.game_of(state).decision(state, cmd)
        try:
            with self.store.transaction():  # the events and a snapshot due after them, together
                rows = self.store.append(match_id, state.last_seq + 1, decision.events, actor=self.actor, recorded_at=self.clock())
                replayer = self._replayers[match_id]
                for row, work in zip(rows, decision.work):
                    # Fed as a replay reads it (decoded from the stored body, dict keys in
                    # the encoder's order), so the cached state is the replayed one
                    # exactly; what deciding worked out (a round's resolution) comes along.
                    replayer.feed(row.seq, row.event(), work)
                if rows and self._snapshot_due(match_id, replayer.state):
                    self._save_snapshot(replayer.state, rows[-1])
        except BaseException:
            self.forget(match_id)  # the cached state may hold events that were rolled back
            raise
        return rows

    def checkpoint(self, match_id: str) -> int:
        """Store a snapshot of the match as it stands, replayed from its first event (so
        that it replaces a snapshot that is stale or wrong); the seq it was taken after."""
        replayer = Replayer(match_id)
        replayer.feed_all(self._events(match_id))
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
        seq, digest = self.head(match_id)
        self.store.save_snapshot(match_id, seq, digest, snapshots.revision(), body)
        self._snapshot_seq[match_id] = seq
        return seq

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """Every command executed inside is written together, or none is (the cached
        states are dropped when they are rolled back)."""
        try:
            with self.store.transaction():
                yield
        except BaseException:
            self.forget()
            raise

    def checkpoint_all(self) -> dict[str, int]:
        """:meth:`checkpoint` of every match, all in one transaction."""
        with self.store.transaction():
            return {match_id: self.checkpoint(match_id) for match_id in self.store.match_ids()}

    def forget(self, match_id: str | None = None) -> None:
        """Drop cached states (after a rolled-back transaction)."""
        if match_id is None:
            self._replayers.clear()
            self._snapshot_seq.clear()
        else:
            self._replayers.pop(match_id, None)
            self._snapshot_seq.pop(match_id, None)

    # ------------------------------------------------------------------ auditing

    def verify(self, match_id: str, head: tuple[int, str] | None = None) -> MatchReport:
        """Chain (and a published head), re-derivation, stored snapshot."""
        self.head(match_id)
        return verify_stored(self.store, match_id, head)

    def verify_all(self, jobs: int = 1) -> Iterator[MatchReport]:
        """Every match's report, in match order; ``jobs`` > 1 verifies in that many
        processes (each with its own connection) with the same reports."""
        match_ids = self.store.match_ids()
        if jobs > 1 and len(match_ids) >= 2 * jobs:
            # imported here: process pools cost every other command start-up time
            from .parallel import verify_in_processes

            yield from verify_in_processes(self.store.path, match_ids, jobs)
            return
        for match_id in match_ids:
            yield verify_stored(self.store, match_id)

    def audit(self, match_id: str) -> Audit:
        """Who changed what, when and why, with the verdict of :meth:`verify`."""
        report = self.verify(match_id)
        return Audit(audit_report(match_id, self.store.rows(match_id), report.findings), report.findings)

    def export(self, match_id: str) -> tuple[bytes, int]:
        """The match's log as portable JSON Lines, and how many events it holds."""
        rows = self.store.rows(match_id)
        if not rows:
            self.head(match_id)
        return export_lines(rows), len(rows)

    def import_verified(self, export: VerifiedExport) -> list[StoredEvent]:
        """Write a match exported elsewhere (verified by ``verify_export``), with the
        snapshot of its replayed state, in one transaction."""
        if self.store.has_match(export.match_id):
            raise IllegalMove(f"match {export.match_id!r} already exists in {self.location!r}; nothing imported")
        with self.store.transaction():
            self.store.append_rows(export.rows)
            if self.use_snapshots:
                body = snapshots.encode_if_possible(export.state)
                if body is not None:
                    last = export.rows[-1]
                    self.store.save_snapshot(export.match_id, last.seq, last.hash, snapshots.revision(), body)
        return export.rows

    def diff(self, match_a: str, match_b: str, other_db: str | None = None) -> Comparison:
        """Where match ``match_a`` here and ``match_b`` (in the database ``other_db``, or
        here) part: both chains verified, read models rebuilt from the first event."""
        other = self if other_db is None else Application(Store(other_db, create=False))
        sides = []
        for application, match_id in ((self, match_a), (other, match_b)):
            rows = application.store.rows(match_id)
            if not rows:
                application.head(match_id)
            chain = verify_chain(match_id, rows)
            sides.append(Side(match_id, application.location, rows, chain))
        return compare(*sides)

    # ------------------------------------------------------------------ internals

    def _events(self, match_id: str) -> list:
        self.head(match_id)
        return self.store.events(match_id)

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

    def _snapshot_due(self, match_id: str, state: MatchState) -> bool:
        if not self.use_snapshots or not snapshots.can_snapshot(state):
            return False
        return state.finished or state.last_seq - self._snapshot_seq.get(match_id, 0) >= SNAPSHOT_EVERY

    def _save_snapshot(self, state: MatchState, last: StoredEvent) -> None:
        body = snapshots.encode_if_possible(state)
        if body is not None:
            self.store.save_snapshot(last.match_id, last.seq, last.hash, snapshots.revision(), body)
            self._snapshot_seq[last.match_id] = last.seq


__all__ = ["Application", "Audit", "Comparison", "Finding", "MatchReport", "READ_MODELS", "Reading", "Rescored", "SNAPSHOT_EVERY", "utc_now"]
