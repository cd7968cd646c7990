"""The application: the one way in for every front door (the command line, the HTTP
service).  A door parses what it is given, calls one method of :class:`Application` and
renders what comes back; it never sees the store or the reader beneath.

The facade wires one store, the reader and the engines together and hands each call to
the part that owns it, each a short module with one concern:

- :mod:`.queries`: where matches stand, read models in one view (several from one fold),
  the log as a view sees it, histories, what a close announced;
- :mod:`.writes`: creating matches, deciding and recording commands, checkpoints, imports;
- :mod:`.audits`: verification (one implementation, :mod:`..verification`), receipts,
  audits, comparisons, rescoring, exports;
- :mod:`.access`: links (capability tokens), and the policy every submission made through
  one is recorded under, whichever door it came in by.

``docs/architecture.md`` ("The application") lists every method, and a test holds the
table and this class to each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager

from matchledger.engine.commands import Command, CreateMatch
from matchledger.engine.state import MatchState, View
from matchledger.ledger.capabilities import Capability
from matchledger.ledger.change_feed import FALLBACK_SECONDS, Listener, Subscription
from matchledger.ledger.events import new_salt
from matchledger.ledger.hooks import Delivery, Hook
from matchledger.ledger.limits import LOCK_TIMEOUT_SECONDS
from matchledger.ledger.log_store import LogStore, StoredEvent
from matchledger.ledger.service_addresses import ServiceAddress
from matchledger.ledger.stores import open_store
from matchledger.ledger.verify import Finding

from ..comparison import Comparison
from ..public_head import ViewHeads
from ..read_models import Readings, ReadModel
from ..reading import Reader
from ..receipts import ReceiptCheck
from ..verification import MatchReport, VerifiedExport
from .access import Access, LinkClosed, LinkSubmission, PastDeadline, TooManySubmissions
from .audits import Audits
from .hooks import DuePost, Hooks, HookStanding
from .ontime import Notice, OnTime, Upcoming
from .queries import Queries
from .results import Announced, Audit, Checkpointed, Due, LogReading, MatchSummary, Reading, Recorded, Rescored
from .wiring import utc_now
from .writes import DECISION_ATTEMPTS, Writes


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
        # The wiring every part reads when it acts (``wiring.Wiring``).  Tests reach
        # beneath the application through ``store`` and ``reader``; a door never does
        # (tests/architecture/test_front_doors.py).
        self.store = store
        self.actor = actor
        self.clock = clock
        #: a salt for each event recorded (``lambda: ""`` records none: tests that pin hashes)
        self.salts = salts
        self.use_snapshots = use_snapshots
        #: how every state is read: chain checked, from a snapshot only when the log vouches for it
        self.reader = Reader(store, use_snapshots)
        self._queries = Queries(self)
        self._writes = Writes(self)
        self._audits = Audits(self)
        self._access = Access(self, self._queries, self._writes)
        self._hooks = Hooks(self)
        self._ontime = OnTime(self, self._writes)

    @classmethod
    def open(
        cls,
        db: str,
        *,
        create: bool = False,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_SECONDS,
        actor: str = "host",
    ) -> Application:
        """The application on the database ``db`` (a file, or a ``postgresql://`` URL):
        the one way a door opens one.  ``read_only`` never changes the database; only
        ``create`` may make it (a file, or a database's tables)."""
        return cls(open_store(db, create=create, read_only=read_only, lock_timeout=lock_timeout), actor=actor)

    # ------------------------------------------------------------------ the database

    @property
    def location(self) -> str:
        """Where the matches are kept (the database file, or a URL without its
        password), as messages name it."""
        return self.store.location

    def change_token(self) -> object:
        """A value (compared with ``==``) that moves whenever another connection has
        committed to the database since this one last read it, and stays put while
        nothing is written: a long-running door keeps what it read while it stands still."""
        return self._queries.change_token()

    def subscribe_changes(self, listener: Listener, *, fallback: float = FALLBACK_SECONDS) -> Subscription | None:
        """Have what other connections commit pushed to ``listener`` (which match moved,
        which match's links changed), on a connection and thread of their own, where the
        back end pushes changes (PostgreSQL); None where it does not (poll
        :meth:`change_token`).  See ledger/change_feed.py."""
        return self.store.changes.subscribe(listener, fallback=fallback)

    def command_ended(self) -> None:
        """The command-line command that opened the application is done: its connection
        is let go now (a server's must not wait for the garbage collector)."""
        self.store.command_ended()

    def close(self) -> None:
        """Close the connection to the database (the application is not used again)."""
        self.store.close()

    # ------------------------------------------------------------------ matches

    def match_ids(self) -> list[str]:
        """Every match's id, in match order."""
        return self._queries.match_ids()

    def list_matches(self) -> list[MatchSummary]:
        """Every match, in match order, as its checked log gives it; a match whose log
        does not verify is listed with the problem instead (it is not read further)."""
        return self._queries.list_matches()

    def due(self, now: str) -> list[Due]:
        """Every match whose open round (or turn) has a deadline earlier than ``now`` (UTC,
        read by the door), with who is missing and whether the rules let it close: what
        a door with a clock asks before closing rounds on time."""
        return self._queries.due(now)

    def head(self, match_id: str) -> tuple[int, str]:
        """(seq, hash) of the match's last event, to publish (the chain checked: a head
        is published to pin a log, never a broken one); UnknownMatch when there is none."""
        return self._queries.head(match_id)

    def view_heads(self, match_id: str, carried: ViewHeads | None = None) -> ViewHeads:
        """The match read afresh from its log (every row checked again, as a new read
        checks it: a row edited behind the ledger's back is refused, not only rows
        added), and which of its events each non-host view may know of: ``carried`` (what
        this returned before) carried on through the new events when the log still
        continues from it, else every event classified from the first."""
        return self._queries.view_heads(match_id, carried)

    # ------------------------------------------------------------------ reading

    def state(self, match_id: str, at: int | None = None) -> MatchState:
        """The match after its last event, or after event ``at``, as its log gives it
        (the chain checked: see :mod:`..reading`)."""
        return self._queries.state(match_id, at)

    def query(
        self,
        match_id: str,
        models: Iterable[ReadModel] | None = None,
        *,
        public: bool = False,
        participant: str | None = None,
        at: int | None = None,
    ) -> Readings:
        """Read models ``models`` (by default every one the view has) in the view asked
        for: the host's by default, the public's, or one participant's (``knowledge``
        needs one); all from one state, after event ``at`` or the last."""
        return self._queries.query(match_id, models, public=public, participant=participant, at=at)

    def log(
        self,
        match_id: str,
        at: int | None = None,
        *,
        public: bool = False,
        participant: str | None = None,
        models: Iterable[ReadModel] | None = (),
    ) -> LogReading:
        """The match's events (up to ``at``) that the view may know of, each with what it
        may see of it (every event whole for the host: its stored body), what became of
        each that no longer counts, and the read models ``models`` (None: every one the
        view has) of the state reached: all from one fold of the checked log."""
        return self._queries.log(match_id, at, public=public, participant=participant, models=models)

    def history(
        self, match_id: str, *, public: bool = False, participant: str | None = None
    ) -> tuple[View, Iterator[tuple[StoredEvent, MatchState, dict]]]:
        """The view asked for (checked against the match as it stands) and every event
        that view may know of, with the state right after it and what the view may see
        of the event (one state object, folded further at each step: use it before
        asking for the next)."""
        return self._queries.history(match_id, public=public, participant=participant)

    def explain(self, match_id: str, participant: str, at: int | None = None) -> Reading:
        """``participant``'s score line by line (the host's view)."""
        return self._queries.explain(match_id, participant, at)

    def choices(self, match_id: str, participant: str, at: int | None = None) -> dict | None:
        """What ``participant`` may submit now (or as the match stood after event ``at``),
        as the game describes it from what they may know (None: the game describes
        nothing; only its typed notation can be submitted)."""
        return self._queries.choices(match_id, participant, at)

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
        ``participant`` theirs only (the match's rows read once)."""
        return self._queries.announced(match_id, round_no, at, public=public, participant=participant)

    # ------------------------------------------------------------------ writing

    def create(self, cmd: CreateMatch) -> Recorded:
        """Create the match ``cmd`` describes (its id new in this database)."""
        return self._writes.create(cmd)

    def execute(self, match_id: str, cmd: Command, *, actor: str | None = None) -> Recorded:
        """Decide ``cmd`` against the match as its log gives it and record the events
        (recorded by ``actor``, by default the application's); the command that finishes
        a match also records a checkpoint of its state.  What it recorded, and what that
        superseded; decided again if another writer got there first."""
        return self._writes.execute(match_id, cmd, actor=actor)

    def checkpoint(self, match_id: str) -> Checkpointed:
        """Record a checkpoint of the match as it stands, replayed from its first event
        (so that it replaces a snapshot that is stale or wrong): the snapshot, and the
        ``StateCheckpointed`` event that vouches for it; nothing new when the last event
        already vouches for the stored snapshot."""
        return self._writes.checkpoint(match_id)

    def checkpoint_all(self) -> dict[str, Checkpointed]:
        """:meth:`checkpoint` of every match, all in one transaction."""
        return self._writes.checkpoint_all()

    def atomic(self) -> AbstractContextManager[None]:
        """Every command executed inside is written together, or none is (the kept
        states are dropped when they are rolled back)."""
        return self._writes.atomic()

    def forget(self, match_id: str | None = None) -> None:
        """Drop the kept state of ``match_id`` (or of every match): the next read reads
        it from the log again."""
        self.reader.forget(match_id)

    def import_verified(self, export: VerifiedExport) -> list[StoredEvent]:
        """Write a match exported elsewhere (verified by ``verify_export``), with the
        snapshot of its replayed state, in one transaction."""
        return self._writes.import_verified(export)

    # ------------------------------------------------------------------ closing on time

    def close_when_due(self, match_id: str, now: str, *, round: int, deadline: str) -> Recorded | None:
        """Close round ``round`` of the match at ``deadline``, which the door saw passed
        at ``now`` (read by the door, recorded as the close's time; actor ``deadline``),
        where the rules let it close: as ``close --force`` does, naming who was missing,
        reason ``deadline``.  Decided under the match's write lock against the log as it
        then stands: None, and nothing written, unless that round is still open with that
        deadline in force, set since it last opened, and the rules let it close."""
        return self._ontime.close_when_due(match_id, now, round, deadline)

    def reminders_due(self, now: str) -> list[Upcoming]:
        """Every match whose open round's reminder time (``deadline --remind``) has come
        at ``now`` (read by the door) and whose deadline has not passed: read from each
        match's kept state, cheap enough to ask every few seconds."""
        return self._ontime.reminders_due(now)

    def deadline_notice(self, match_id: str, kind: str, *, round: int, deadline: str) -> Notice | None:
        """What the host is told (``kind``: ``deadline``, passed and the round stays open;
        ``reminder``, before it) of the deadline of round ``round``, while that round is
        open with that deadline in force, set since it last opened (else None): the seq
        that set it, by which a post of it is claimed once."""
        return self._ontime.deadline_notice(match_id, kind, round, deadline)

    # ------------------------------------------------------------------ auditing

    def verify(self, match_id: str, head: tuple[int, str] | None = None) -> MatchReport:
        """Chain (and a published head), re-derivation, stored snapshot."""
        return self._audits.verify(match_id, head)

    def verify_all(self, jobs: int = 1) -> Iterator[MatchReport]:
        """Every match's report, in match order; ``jobs`` > 1 verifies in that many
        processes (each with its own connection) with the same reports."""
        return self._audits.verify_all(jobs)

    def check_receipts(self, match_id: str, receipts: list[tuple[int, str]]) -> list[ReceiptCheck]:
        """Each receipt (seq, hash) checked: the event it names, why it is no receipt in
        the verified chain where it is not, and what became of the submission where it is
        (the account `log` marks)."""
        return self._audits.check_receipts(match_id, receipts)

    def audit(self, match_id: str) -> Audit:
        """Who changed what, when and why, with the verdict of :meth:`verify`: of the
        events the chain vouches for (all of them, unless a link is broken: then those
        before the first bad seq, which the verdict names)."""
        return self._audits.audit(match_id)

    def diff(self, match_a: str, match_b: str, other_db: str | None = None) -> Comparison:
        """Where match ``match_a`` here and ``match_b`` (in the database ``other_db``, or
        here) part: both chains verified, read models rebuilt from the first event."""
        return self._audits.diff(match_a, match_b, other_db)

    def rescore(self, match_id: str, options: dict[str, str]) -> Rescored:
        """The host's outcome as recorded and under other option values (nothing written),
        both from one replay of the checked log, never one of them from a cached state."""
        return self._audits.rescore(match_id, options)

    def export(self, match_id: str) -> tuple[bytes, int]:
        """The match's log as portable JSON Lines (its chain checked), and how many
        events it holds."""
        return self._audits.export(match_id)

    # ------------------------------------------------------------------ access (links)

    def invite(
        self, match_id: str, *, participant: str | None = None, auditor: bool = False, can_submit: bool = False
    ) -> tuple[str, Capability]:
        """A new token for ``match_id`` and what it allows: ``participant``'s view (and,
        with ``can_submit``, their own submissions), or with ``auditor`` the whole log.
        The token is returned once; only its hash is kept."""
        return self._access.invite(match_id, participant=participant, auditor=auditor, can_submit=can_submit)

    def revoke(self, token: str) -> tuple[Capability, bool]:
        """Revoke ``token``: what it allowed, and whether it was still active.  The token
        is never quoted in a message (messages reach logs)."""
        return self._access.revoke(token)

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        """Every link issued (for ``match_id``), revoked or not, oldest first."""
        return self._access.capabilities(match_id)

    def capability(self, token: str) -> Capability | None:
        """What ``token`` lets its holder do, if it was issued here and is not revoked."""
        return self._access.capability(token)

    def record_service_address(self, url: str, *, given: bool = False) -> ServiceAddress:
        """Keep ``url`` as where the service is reached, for the links: the address a
        host gave it (``given``), or the one it listens on.  Beside the log, never in it."""
        return self._access.record_service_address(url, given=given)

    def service_address(self) -> ServiceAddress | None:
        """Where links lead: the latest address given, else the latest listened on (None:
        none recorded); CorruptLog for one that is no http(s) address."""
        return self._access.service_address()

    def submit_through_links(self, submissions: Sequence[LinkSubmission]) -> list[Recorded | Exception]:
        """Record participants' own submissions, each made through a link, together
        where they can be, under the one policy of :mod:`.access` (the link checked again
        as it is written, a bound per round, decided again when the log moved, a half
        write never kept): for each, what it recorded or why it was not (``LinkClosed``,
        ``TooManySubmissions``, ``PastDeadline``, what the rules or the log said)."""
        return self._access.submit_through_links(submissions)

    # ------------------------------------------------------------------ hooks (posts to the channel)

    def add_hook(self, match_id: str, url: str, kinds: list[str], format: str) -> Hook:
        """A new hook on ``match_id``: ``serve`` posts the public post of each later close
        of the ``kinds`` asked for to ``url`` in ``format``, signed with the hook's new
        secret (returned in the hook, to be shown once).  Beside the log, never in it."""
        return self._hooks.add_hook(match_id, url, kinds, format)

    def hooks(self, match_id: str | None = None) -> list[HookStanding]:
        """Every hook (of ``match_id``), removed or not, oldest first, each with its
        deliveries and their attempts."""
        return self._hooks.hooks(match_id)

    def remove_hook(self, hook_id: str) -> tuple[Hook, bool]:
        """Stop the hook ``hook_id`` posting: the hook, and whether it was still active
        (MalformedInput naming an id no hook has)."""
        return self._hooks.remove_hook(hook_id)

    def due_posts(self, hook_id: str) -> list[DuePost]:
        """The public posts the hook is owed and nobody claimed yet (or whose claim
        lapsed: the `serve` holding it stopped), oldest first."""
        return self._hooks.due_posts(hook_id)

    def claim_delivery(self, hook_id: str, post: DuePost) -> Delivery | None:
        """Claim the delivery of ``post`` to the hook (None: another process claimed it
        first; of two, exactly one gets it).  A pending delivery whose claim lapsed
        (``DELIVERY_LEASE_SECONDS``: its `serve` stopped) is taken over, attempts kept."""
        return self._hooks.claim_delivery(hook_id, post)

    def renew_claim(self, delivery: Delivery) -> Delivery | None:
        """Renew the claim on ``delivery`` before an attempt at it (its lease runs from
        now): the delivery as it now stands, or None where another `serve` took it over
        after the lease lapsed (or it is no longer pending): then it is not sent."""
        return self._hooks.renew_claim(delivery)

    def record_delivery_attempt(
        self, delivery: Delivery, *, status: int | None = None, error: str | None = None, last: bool = False
    ) -> Delivery:
        """Keep one attempt's outcome (the receiver's status, or an error) on a claimed
        delivery: delivered on a 2xx, failed when ``last``, else still pending."""
        return self._hooks.record_attempt(delivery, status=status, error=error, last=last)


__all__ = [
    "DECISION_ATTEMPTS",
    "Announced",
    "DuePost",
    "HookStanding",
    "Application",
    "Audit",
    "Checkpointed",
    "Comparison",
    "Due",
    "Finding",
    "LinkClosed",
    "LinkSubmission",
    "LogReading",
    "MatchReport",
    "MatchSummary",
    "Notice",
    "PastDeadline",
    "ReadModel",
    "Reading",
    "Readings",
    "Recorded",
    "Rescored",
    "ServiceAddress",
    "StoredEvent",
    "TooManySubmissions",
    "Upcoming",
    "utc_now",
]
