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
import secrets
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

import msgspec

from matchledger import engine
from matchledger.engine.commands import CreateMatch
from matchledger.engine.state import HOST, PUBLIC, MatchState, View
from matchledger.ledger.capabilities import AUDITOR, PARTICIPANT, Capability, new_token, token_hash, well_formed
from matchledger.ledger.codec import decode_json
from matchledger.ledger.errors import (
    CorruptLog,
    GameNotInstalled,
    IllegalMove,
    LogConflict,
    MalformedInput,
    VerificationFailed,
)
from matchledger.ledger.events import (
    Event,
    OutcomeAnnounced,
    RoundClosed,
    StateCheckpointed,
    TurnResolved,
    new_salt,
    salted,
)
from matchledger.ledger.log_store import LogStore, StoredEvent
from matchledger.ledger.portable import export_lines
from matchledger.ledger.stores import open_store
from matchledger.ledger.validation import check_actor, check_match_id
from matchledger.ledger.verify import Finding, verify_chain

from . import snapshots
from .audit import audit_report
from .comparison import Comparison, Side, compare
from .fold import Replayer, replay
from .public_head import ViewHeads, view_heads
from .reading import Cursor, Reader
from .receipts import ReceiptCheck, check_receipt, receipt_finding, submission_fates
from .rescore import rescore
from .supersession import Fate, VoidEffect, fates, void_effect
from .verification import MatchReport, VerifiedExport, verify_stored
from .views import event_view, resolve_view

#: The read models a front door may ask for by name.
READ_MODELS = ("status", "scores", "outcome", "reveals", "knowledge")
#: How often a command that lost the race for the log is decided again before its
#: writer is told the match moved on (``LogConflict``).
DECISION_ATTEMPTS = 8


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class Reading(msgspec.Struct, frozen=True):
    """One read model of a match in one view, and the state it was read from."""

    state: MatchState
    view: View
    data: dict


class Audit(msgspec.Struct, frozen=True):
    report: dict  # JSON-ready
    findings: list[Finding]


class MatchSummary(msgspec.Struct, frozen=True):
    """One line of `list`: where a match stands, or why it cannot be read."""

    match: str
    game: str | None = None
    players: list[str] = []
    round_word: str = "round"  # what ``round`` counts: a round, or a photographer turn
    round: int | None = None  # the round or turn now open; None once play is over
    finished: bool = False
    abandoned: int | None = None  # the seq of the event that abandoned it
    head: tuple[int, str] | None = None  # (seq, hash), once the chain is checked
    problem: str | None = None  # why the match cannot be read (its chain does not verify)
    not_installed: str | None = None  # why it cannot be read here: its game is not installed

    def to_json(self) -> dict:
        return {
            "match": self.match,
            "game": self.game,
            "players": list(self.players),
            self.round_word: self.round,
            "finished": self.finished,
            "abandoned": self.abandoned is not None,
            "head": None if self.head is None else f"{self.head[0]}:{self.head[1]}",
            **({"abandoned_at": self.abandoned} if self.abandoned is not None else {}),
            **({"problem": self.problem} if self.problem is not None else {}),
            **({"not_installed": self.not_installed} if self.not_installed is not None else {}),
        }


class Checkpointed(msgspec.Struct, frozen=True):
    """A checkpoint: the seq its snapshot's state follows, and the event recorded for it
    (none when the log already vouched for that snapshot)."""

    seq: int
    rows: list[StoredEvent]


class Rescored(msgspec.Struct, frozen=True):
    overrides: dict[str, Any]
    recorded: dict
    rescored: dict


class Announced(msgspec.Struct, frozen=True):
    """What a round's close (or a turn) told everyone: the read models `messages` is
    built from, as they stood once the close was recorded (event ``seq``).  ``public``:
    `reveals --public` (None when not asked for); ``knowledge``: `knowledge --as P` of
    each participant asked for, in the canonical order (players, then guests, each
    sorted by name)."""

    match: str
    game: str
    round: int
    seq: int
    public: dict | None
    knowledge: dict[str, dict]


class Application:
    """Matches in one store, as hosts, participants, the public and auditors reach them."""

    def __init__(
        self,
        store: LogStore,
        *,
        actor: str = "host",
        clock: Callable[[], str] = utc_now,
        salts: Callable[[], str] = new_salt,
        use_snapshots: bool = True,
    ):
        self.store = store
        self.actor = actor
        self.clock = clock
        #: a salt for each event recorded (``lambda: ""`` records none: tests that pin hashes)
        self.salts = salts
        self.use_snapshots = use_snapshots
        #: how every state is read: chain checked, from a snapshot only when the log vouches for it
        self.reader = Reader(store, use_snapshots)

    # ------------------------------------------------------------------ matches

    @property
    def location(self) -> str:
        """Where the matches are kept (the database file, or a URL without its
        password), as messages name it."""
        return self.store.location

    def match_ids(self) -> list[str]:
        return self.store.match_ids()

    def list_matches(self) -> list[MatchSummary]:
        """Every match, in match order, as its checked log gives it; a match whose log
        does not verify is listed with the problem instead (it is not read further)."""
        summaries = []
        for match_id in self.store.match_ids():
            try:
                cursor = self.reader.cursor(match_id)
            except (VerificationFailed, CorruptLog) as exc:
                summaries.append(MatchSummary(match_id, problem=str(exc)))
                continue
            except GameNotInstalled as exc:  # listed, and nothing the matter with its log
                summaries.append(MatchSummary(match_id, exc.game, not_installed=str(exc)))
                continue
            state = cursor.state
            game = self.game_of(state)
            over = state.finished or game.play_is_over(state)
            summaries.append(
                MatchSummary(
                    match_id,
                    state.game,
                    list(state.players),
                    game.ROUND_WORD,
                    None if over else state.round,
                    state.finished,
                    None if state.abandoned is None else state.abandoned[0],
                    (cursor.seq, cursor.hash),
                )
            )
            self.reader.forget(match_id)  # a sweep over every match keeps none of their states
        return summaries

    def head(self, match_id: str) -> tuple[int, str]:
        """(seq, hash) of the match's last event, to publish (the chain checked: a head
        is published to pin a log, never a broken one); UnknownMatch when there is none."""
        last = self.reader.checked(match_id)[0][-1]
        return last.seq, last.hash

    def view_heads(self, match_id: str, upto: int | None = None) -> ViewHeads:
        """Which events (up to ``upto``) each non-host view may know of, from the whole
        checked log: the public head and each participant's (``public_head.py``)."""
        rows, events = self.reader.checked(match_id, upto)
        replayer = Replayer(match_id)

        def steps():
            for row, (seq, event) in zip(rows, events):
                yield row, event, replayer.state  # the state before it: folded only once it is classified
                replayer.feed(seq, event)

        return view_heads(match_id, steps())

    def public_head(self, match_id: str) -> tuple[int, str]:
        """(seq, hash) of the match's last public event: the head the service shows
        anyone without a token, which never moves with a hidden submission."""
        return self.view_heads(match_id).head(PUBLIC)

    def check_at(self, match_id: str, at: int | None) -> None:
        """``--at SEQ`` must name an event of the match."""
        head = self.store.head(match_id)
        if head is None:
            raise self.store.unknown_match(match_id)
        last = head[0]
        if at is not None and not 1 <= at <= last:
            raise MalformedInput(f"--at {at} is outside match {match_id!r} (events 1 to {last})")

    def game_of(self, state: MatchState):
        return engine.get(state.game)

    # ------------------------------------------------------------------ reading

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The match after its last event, or after event ``at``, as its log gives it
        (the chain checked: see :mod:`.reading`)."""
        return self.reader.state(match_id, at)

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

    def log(
        self, match_id: str, at: int | None = None, *, public: bool = False, participant: str | None = None
    ) -> tuple[View, list[tuple[StoredEvent, dict]]]:
        """The match's events (up to ``at``) that the view may know of, each with what it
        may see of it: every event whole for the host (its stored body)."""
        self.check_at(match_id, at)
        view = self.view(self.state(match_id), public=public, participant=participant)
        return view, [(row, shown) for row, _state, shown in self._steps(match_id, view, at)]

    def log_marks(
        self, match_id: str, view: View, at: int | None = None, shown: Iterable[StoredEvent] = ()
    ) -> dict[int, Fate]:
        """What became of each event ``view`` may see in the log up to ``at`` that no
        longer counts (seq -> superseded, voided, corrected, reopened or taken back, and
        by which seq), from the match as the fold leaves it then; ``shown``: the rows
        the view is shown (whose order tells which announcements were undone)."""
        return fates(self.state(match_id, at), view, ((row.seq, row.kind) for row in shown))

    def void_effects(self, match_id: str, rows: list[StoredEvent]) -> dict[int, VoidEffect]:
        """For each of ``rows`` (just recorded) that voided a submission: what else it
        did (the submission that counts again, the announcements it took back)."""
        voids = [row.seq for row in rows if row.kind == "SubmissionVoided"]
        if not voids:
            return {}
        state = self.reader.cursor(match_id).state
        first = min(row.seq for row in rows) - 1
        kinds = [(row.seq, row.kind) for row in self.store.rows(match_id, upto=first)] + [
            (row.seq, row.kind) for row in rows
        ]
        return {seq: effect for seq in voids if (effect := void_effect(state, seq, kinds)) is not None}

    def explain(self, match_id: str, participant: str, at: int | None = None) -> Reading:
        """``participant``'s score line by line (the host's view)."""
        state = self.state(match_id, at)
        state.require_participant(participant)
        return Reading(state, HOST, self.game_of(state).explain(state, participant))

    def view(self, state: MatchState, *, public: bool = False, participant: str | None = None) -> View:
        """The host's view, the public's or ``participant``'s (who must be one)."""
        return resolve_view(state, public=public, participant=participant)

    def history(
        self, match_id: str, *, public: bool = False, participant: str | None = None
    ) -> tuple[View, Iterator[tuple[StoredEvent, MatchState, dict]]]:
        """The view asked for (checked against the match as it stands) and every event
        that view may know of, with the state right after it and what the view may see
        of the event (one state object, folded further at each step: use it before
        asking for the next)."""
        view = self.view(self.state(match_id), public=public, participant=participant)
        return view, self._steps(match_id, view)

    def _steps(
        self, match_id: str, view: View, at: int | None = None
    ) -> Iterator[tuple[StoredEvent, MatchState, dict]]:
        rows, events = self.reader.checked(match_id, at)
        replayer = Replayer(match_id)
        for row, (seq, event) in zip(rows, events):
            shown = decode_json(row.body) if view.is_host else event_view(view, event, replayer.state)
            state = replayer.feed(seq, event)
            if shown is not None:
                yield row, state, shown

    # ------------------------------------------------------------------ what to send

    def announced(
        self,
        match_id: str,
        round_no: int | None = None,
        at: int | None = None,
        *,
        public: bool = False,
        participant: str | None = None,
    ) -> Announced:
        """The public reveals and each participant's knowledge right after round (or
        turn) ``round_no`` was closed, by default the last one closed by event ``at``:
        the host's view gives the public's and everyone's, ``public`` the public's only,
        ``participant`` theirs only."""
        state = self.state(match_id, at)
        view = resolve_view(state, public=public, participant=participant)
        closed = sorted(set(state.announcements) | {turn.turn for turn in state.turns})
        word = self.game_of(state).ROUND_WORD
        if not closed:
            raise IllegalMove(f"no {word} of {match_id!r} is closed yet: there is nothing to send")
        round_no = closed[-1] if round_no is None else round_no
        if round_no not in closed:
            raise MalformedInput(
                f"--round {round_no}: {word} {round_no} of {match_id!r} is not closed ({word}s closed: {_spans(closed)})"
            )
        seq = self._closed_at(match_id, round_no, at)
        state = self.state(match_id, seq)
        game = self.game_of(state)
        if view.is_host:
            guests = sorted(p for p in state.participants if p not in state.players)
            names = sorted(state.players) + guests
        else:
            names = [] if view.is_public else [view.participant]
        return Announced(
            match=match_id,
            game=state.game,
            round=round_no,
            seq=seq,
            public=None if view.participant is not None else game.reveals(state, PUBLIC),
            knowledge={name: game.knowledge(state, name) for name in names},
        )

    def _closed_at(self, match_id: str, round_no: int, at: int | None) -> int:
        """The seq of the last event recorded with the close of round (or turn)
        ``round_no`` still standing at ``at``: the close itself, then the outcome and
        checkpoint the same command records after it."""
        events = self.reader.checked(match_id, at)[1]
        closes = [
            index
            for index, (_seq, event) in enumerate(events)
            if (isinstance(event, RoundClosed) and event.round == round_no)
            or (isinstance(event, TurnResolved) and event.turn == round_no)
        ]
        index = closes[-1]
        while index + 1 < len(events) and isinstance(events[index + 1][1], (OutcomeAnnounced, StateCheckpointed)):
            index += 1
        return events[index][0]

    def rescore(self, match_id: str, options: dict[str, str]) -> Rescored:
        """The host's outcome as recorded and under other option values (nothing written),
        both from one replay of the checked log, never one of them from a cached state."""
        events = self.reader.checked(match_id)[1]
        state = replay(match_id, events)
        game = self.game_of(state)
        overrides = {key: game.parse_option(key, value) for key, value in options.items()}
        alternative = rescore(match_id, events, overrides)
        return Rescored(overrides, game.outcome(state, HOST), game.outcome(alternative, HOST))

    # ------------------------------------------------------------------ writing

    def create(self, cmd: CreateMatch) -> list[StoredEvent]:
        check_match_id(cmd.match_id)
        check_actor(self.actor)
        if self.store.has_match(cmd.match_id):
            raise IllegalMove(f"match {cmd.match_id!r} already exists in {self.location!r}")
        game = engine.get(cmd.game)
        key = game.seed_to_draw(dict(cmd.setup or {}))
        if key is not None:
            cmd = msgspec.structs.replace(cmd, setup={**(cmd.setup or {}), key: secrets.randbits(64)})
        events = game.create(cmd)
        return self._append(cmd.match_id, 1, events)

    def execute(self, match_id: str, cmd, *, actor: str | None = None) -> list[StoredEvent]:
        """Decide ``cmd`` against the match as its log gives it and record the events
        (recorded by ``actor``, by default the application's: the service records a
        participant's own submission as theirs); the command that finishes a match also
        records a checkpoint of its state."""
        actor = check_actor(self.actor if actor is None else actor)
        if self.store.in_transaction:  # inside another's transaction: a conflict is the outer writer's to answer
            return self._execute_once(match_id, cmd, actor)
        for attempt in range(1, DECISION_ATTEMPTS + 1):
            try:
                return self._execute_once(match_id, cmd, actor)
            except LogConflict:
                # Another writer appended between this decision and its append (a back
                # end whose transaction takes the match's lock only to append): decided
                # again against the log as it now stands, so a legal command never fails
                # for being stale (DESIGN.md, "Store"); one the rules now refuse is refused.
                if attempt == DECISION_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    def _execute_once(self, match_id: str, cmd, actor: str) -> list[StoredEvent]:
        decided = False
        try:
            # The write lock is taken before the state is read, so a command is decided
            # against every event committed before it: a host's command racing the
            # service's submissions is decided after them, never refused as stale.  (A
            # back end whose transaction takes no lock up front still refuses a stale
            # decision by the expected seq.)  The events and a checkpoint after them
            # are written together.
            with self.store.transaction():
                cursor = self.reader.cursor(match_id)
                state = cursor.state
                was_finished = state.finished
                decision = self.game_of(state).decision(state, cmd)
                decided = True
                rows = self._append(match_id, cursor.seq + 1, decision.events, actor)
                # Folded as a replay reads them (decoded from the stored bodies, dict keys
                # in the encoder's order), so the kept state is the replayed one exactly;
                # what deciding worked out (a round's resolution) comes along.
                cursor.follow(rows, decision.work)
                if cursor.state.finished and not was_finished:
                    rows += self._checkpoint(cursor, actor)
        except BaseException:
            if decided:  # the kept state may hold events that were rolled back
                self.reader.forget(match_id)
            raise
        return rows

    def supersedes(self, match_id: str, rows: list[StoredEvent]) -> dict[int, int]:
        """For each of ``rows`` (just recorded) that is a resubmission or a later contract
        record: the seq of the record it superseded."""
        replaced = self.reader.cursor(match_id).state.supersedes
        return {row.seq: replaced[row.seq] for row in rows if row.seq in replaced}

    def checkpoint(self, match_id: str) -> Checkpointed:
        """Record a checkpoint of the match as it stands, replayed from its first event
        (so that it replaces a snapshot that is stale or wrong): the snapshot, and the
        ``StateCheckpointed`` event that vouches for it; nothing new when the last event
        already vouches for the stored snapshot."""
        done = self.reader.vouched_snapshot_seq(match_id)
        if done is not None:
            return Checkpointed(done, [])
        cursor = self.reader.replayed(match_id)
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
            with self.store.transaction():
                rows = self._checkpoint(cursor)
        except BaseException:
            self.reader.forget(match_id)
            raise
        return Checkpointed(seq, rows)

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

    def checkpoint_all(self) -> dict[str, Checkpointed]:
        """:meth:`checkpoint` of every match, all in one transaction."""
        with self.store.transaction():
            return {match_id: self.checkpoint(match_id) for match_id in self.store.match_ids()}

    def forget(self, match_id: str | None = None) -> None:
        """Drop kept states (after a rolled-back transaction)."""
        self.reader.forget(match_id)

    # ------------------------------------------------------------------ auditing

    def verify(self, match_id: str, head: tuple[int, str] | None = None) -> MatchReport:
        """Chain (and a published head), re-derivation, stored snapshot."""
        if self.store.head(match_id) is None:
            raise self.store.unknown_match(match_id)
        return verify_stored(self.store, match_id, head)

    def verify_all(self, jobs: int = 1) -> Iterator[MatchReport]:
        """Every match's report, in match order; ``jobs`` > 1 verifies in that many
        processes (each with its own connection) with the same reports."""
        match_ids = self.store.match_ids()
        if jobs > 1 and len(match_ids) >= 2 * jobs:
            # imported here: process pools cost every other command start-up time
            from .parallel import verify_in_processes

            yield from verify_in_processes(self.store.address, match_ids, jobs)
            return
        for match_id in match_ids:
            yield verify_stored(self.store, match_id)

    def verify_receipts(self, match_id: str, receipts: list[tuple[int, str]]) -> list[Finding]:
        """Why each receipt (seq, hash) that is not in the verified chain is not ([]: all are)."""
        rows = self.store.rows(match_id)
        if not rows:
            raise self.store.unknown_match(match_id)
        return [finding for receipt in receipts if (finding := receipt_finding(match_id, rows, receipt))]

    def check_receipts(self, match_id: str, receipts: list[tuple[int, str]]) -> list[ReceiptCheck]:
        """Each receipt (seq, hash) checked: the event it names, why it is no receipt in
        the verified chain where it is not, and what became of the submission where it is
        (the account `log` marks)."""
        rows = self.store.rows(match_id)
        if not rows:
            raise self.store.unknown_match(match_id)
        account = submission_fates(match_id, rows)
        return [check_receipt(match_id, rows, receipt, account) for receipt in receipts]

    def audit(self, match_id: str) -> Audit:
        """Who changed what, when and why, with the verdict of :meth:`verify`: of the
        events the chain vouches for (all of them, unless a link is broken: then those
        before the first bad seq, which the verdict names)."""
        report = self.verify(match_id)
        rows = self.store.rows(match_id)
        broken = verify_chain(match_id, rows) if report.findings else []
        shown = rows[: broken[0].seq - 1] if broken else rows
        return Audit(audit_report(match_id, shown, report.findings), report.findings)

    def export(self, match_id: str) -> tuple[bytes, int]:
        """The match's log as portable JSON Lines, and how many events it holds."""
        rows = self.reader.checked(match_id)[0]
        return export_lines(rows), len(rows)

    def import_verified(self, export: VerifiedExport) -> list[StoredEvent]:
        """Write a match exported elsewhere (verified by ``verify_export``), with the
        snapshot of its replayed state, in one transaction."""
        if self.store.has_match(export.match_id):
            raise IllegalMove(f"match {export.match_id!r} already exists in {self.location!r}; nothing imported")
        with self.store.transaction():
            self.store.append_rows(export.rows)
            if self.use_snapshots:
                self._store_imported_snapshot(export)
        return export.rows

    def diff(self, match_a: str, match_b: str, other_db: str | None = None) -> Comparison:
        """Where match ``match_a`` here and ``match_b`` (in the database ``other_db``, or
        here) part: both chains verified, read models rebuilt from the first event."""
        other = self if other_db is None else Application(open_store(other_db, read_only=True))
        sides = []
        try:
            for application, match_id in ((self, match_a), (other, match_b)):
                rows = application.store.rows(match_id)
                if not rows:
                    application.head(match_id)
                chain = verify_chain(match_id, rows)
                sides.append(Side(match_id, application.location, rows, chain))
        finally:
            if other is not self:  # the other database was opened for this comparison alone
                other.store.close()
        return compare(*sides)

    # ------------------------------------------------------------------ capabilities (the service's links)

    def invite(
        self, match_id: str, *, participant: str | None = None, auditor: bool = False, can_submit: bool = False
    ) -> tuple[str, Capability]:
        """A new token for ``match_id`` and what it allows: ``participant``'s view (and,
        with ``can_submit``, their own submissions), or with ``auditor`` the whole log.
        The token is returned once; only its hash is kept."""
        if auditor == (participant is not None):
            raise MalformedInput("invite either a participant (--as NAME) or an auditor (--auditor)")
        if auditor and can_submit:
            raise MalformedInput("--submit is for a participant; an auditor reads only")
        state = self.state(match_id)
        if participant is not None:
            participant = resolve_view(state, participant=participant).participant
        token = new_token()
        capability = Capability(
            token_hash=token_hash(token),
            match_id=match_id,
            role=AUDITOR if auditor else PARTICIPANT,
            participant=participant,
            can_submit=can_submit,
            created_at=self.clock(),
        )
        self.store.save_capability(capability)
        return token, capability

    def revoke(self, token: str) -> tuple[Capability, bool]:
        """Revoke ``token``: what it allowed, and whether it was still active.  The token
        is never quoted in a message (messages reach logs)."""
        found = self.store.capability(token_hash(token)) if well_formed(token) else None
        if found is None:
            raise MalformedInput(f"no invitation in {self.location!r} was issued with this token; nothing revoked")
        if not found.active:
            return found, False
        self.store.revoke_capability(found.token_hash, self.clock())
        revoked = self.store.capability(found.token_hash)  # read back: what now stands
        if revoked is None or revoked.active:
            raise CorruptLog(
                f"the link was not revoked in {self.location!r}: read back after the write, it still opens the "
                "match (something in the database undoes the revocation)"
            )
        return revoked, True

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        """Every link issued (for ``match_id``), revoked or not, oldest first."""
        if match_id is not None and not self.store.has_match(match_id):
            raise self.store.unknown_match(match_id)  # an error, not an empty list
        return self.store.capabilities(match_id)

    def capability(self, token: str) -> Capability | None:
        """What ``token`` lets its holder do, if it was issued here and is not revoked."""
        if not well_formed(token):
            return None
        found = self.store.capability(token_hash(token))
        return found if found is not None and found.active else None

    # ------------------------------------------------------------------ internals

    def _append(
        self, match_id: str, expected_seq: int, events: list[Event], actor: str | None = None
    ) -> list[StoredEvent]:
        """Record ``events``, each with a salt of its own (see ``Event.salt``)."""
        events = [salted(event, self.salts()) for event in events]
        return self.store.append(match_id, expected_seq, events, actor=actor or self.actor, recorded_at=self.clock())

    def _checkpoint(self, cursor: Cursor, actor: str | None = None) -> list[StoredEvent]:
        """Store the snapshot of the cursor's state and append the event that vouches
        for it ([] when the state cannot be stored: the match is read from its first
        event then).  Inside the caller's transaction."""
        body = snapshots.encode_if_possible(cursor.state) if self.use_snapshots else None
        if body is None:
            return []
        seq, digest = cursor.seq, cursor.hash
        revision = snapshots.revision(cursor.state.game)
        event = StateCheckpointed(seq=seq, revision=revision, digest=snapshots.digest(body))
        rows = self._append(cursor.match_id, seq + 1, [event], actor)
        self.store.save_snapshot(cursor.match_id, seq, digest, revision, body)
        cursor.follow(rows)
        return rows

    def _store_imported_snapshot(self, export: VerifiedExport) -> None:
        """The snapshot an imported log's last checkpoint vouches for, if this engine
        encodes the replayed state to exactly those bytes (else reads replay it)."""
        checkpoints = [(row, row.event()) for row in export.rows if row.kind == "StateCheckpointed"]
        if not checkpoints:
            return
        revision = snapshots.revision(export.rows[0].event().game)  # a verified log starts with MatchCreated
        if revision is None:
            return
        row, event = checkpoints[-1]
        if event.revision != revision:
            return
        state = replay(export.match_id, [(r.seq, r.event()) for r in export.rows], upto=event.seq)
        body = snapshots.encode_if_possible(state)
        if body is not None and snapshots.digest(body) == event.digest:
            self.store.save_snapshot(export.match_id, event.seq, export.rows[event.seq - 1].hash, revision, body)


def _spans(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``1-3, 5``."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][-1] + 1:
            spans[-1].append(number)
        else:
            spans.append([number])
    return ", ".join(f"{span[0]}-{span[-1]}" if len(span) > 1 else str(span[0]) for span in spans)


__all__ = [
    "Announced",
    "Application",
    "Audit",
    "Checkpointed",
    "Comparison",
    "Finding",
    "MatchReport",
    "MatchSummary",
    "READ_MODELS",
    "Reading",
    "Rescored",
    "utc_now",
]
