"""What the service reads, through the one application, and the bytes it answers with.

Every answer is a function of the viewer's view of a match: the public's, one
participant's, or an auditor's (the whole log).  So each is kept by (what, match,
viewer) with the head *of that view* it was made at: the last event the viewer may
know of (``projections/public_head.py``), and made again only when that head moves.
An event the viewer may not see (another participant's submission) moves the match's
head but not theirs: their answer stays the very object it was, so it costs what a kept
answer costs, and nothing is made or replayed for them.  The heads come from the
application, which checks the chain of every row it has not seen yet
(docs/service.md, "Reads").

Heads and tokens' grants are kept too, while the application's change token (the
database's ``data_version``) stands still.  Every database call runs on the one reading
thread (``reading.py``), off the event loop, and a request's work is handed to it whole,
marked with when the request arrived (``since``).  A lookup looks at the change token
(one small query) unless the last look began after the request arrived: a look that
began after a commit sees it, so a request sees every commit made before it reached the
server (a revocation by the host's CLI included), and the requests that arrived before
one look began share it.  A call outside a request (``since`` None) always looks.

Where the back end pushes changes (PostgreSQL's LISTEN/NOTIFY, ``start`` subscribes),
the change token moving drops only the grants: a revocation is still seen by the very
next request that carries the token, while a commit elsewhere (to another database of
the same server, or to another match) re-reads no match, and a request that carries no
token looks at nothing.  A match's head is dropped when its own commit is pushed
(``moved``), a few milliseconds after it: another process's commit is seen once it is
announced, this process's own writes at once (the writer tells ``moved`` before it
answers).  When the listening connection is lost every head is dropped and the token
drops them again, as without push, until it listens again, and then everything kept is
forgotten once more (what was announced meanwhile was lost).  Its safety net looks at
the heads of the kept matches every few seconds if the database moved: a head that
differs is dropped, the others stay.

What is pushed arrives on the event loop while the reading thread may be reading: it is
noted (``moved``, ``listening``, ``links_changed``, under a small lock held during no
database call) and the thread takes it in before its next lookup.  The public's answers
are published back to the loop (``peek``) with the public head they were made at: while
changes are pushed, a public answer is answered on the loop itself, without the thread,
as long as the public head the thread last read for its match is that one (and its
deadline has not passed, and it is not due to be read afresh).  A move of the match
does not withdraw it: the thread reads the match again (the refresher, at once), and
only a public head that moved does.  So an event the public may not see changes nothing
the public gets, not even while the thread is held up (a stalled database), and a
public event is answered once the match was read again: a few milliseconds after its
announcement, or once a stalled database answers.

The match states the application keeps are bounded (the ``kept`` matches used last), and
each is read afresh from the log (its chain checked again, as a new read checks it)
once it is ``fresh_for`` seconds old, and whenever it moved since it was read: a row
edited behind the ledger's back is refused, not only a row added.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import msgspec

from matchledger.engine.state import PUBLIC, View, as_participant
from matchledger.ledger.capabilities import AUDITOR, Capability, well_formed
from matchledger.ledger.change_feed import FALLBACK_SECONDS, Head, Subscription
from matchledger.ledger.errors import MatchledgerError, OutsideView
from matchledger.ledger.events import SubmissionCorrected, SubmissionRecorded, SubmissionVoided
from matchledger.projections.application import Application, LogReading
from matchledger.projections.deadlines import is_past, with_passed
from matchledger.projections.public_head import ViewHeads
from matchledger.projections.read_models import ReadModel
from matchledger.projections.supersession import Fate

#: Matches whose folded state is kept between requests.
KEPT_MATCHES = 256
#: Seconds after which a kept state is read again from the log.
FRESH_FOR_SECONDS = 300.0
#: Answers kept (each a few kilobytes: a board picture is the largest).
KEPT_ANSWERS = 4096
#: Tokens whose grant (or its absence) is kept while nothing is written: bounded, as
#: anybody may send any number of made-up tokens (only well-formed ones are kept).
KEPT_GRANTS = 4096
#: Seconds between two looks at the store by the refresher, which reads the kept matches
#: again ahead of requests once something was committed (by another process: the
#: service's own writes wake it at once).
REFRESH_SECONDS = 0.05

_json = msgspec.json.Encoder()
#: What ``GET /api/v1/matches/{match}/public`` holds, in this order.
PUBLIC_MODELS = (ReadModel.STATUS, ReadModel.REVEALS, ReadModel.OUTCOME)
_OWN_SUBMISSIONS = {kind.__name__ for kind in (SubmissionRecorded, SubmissionCorrected, SubmissionVoided)}


def to_json(data) -> bytes:
    return _json.encode(data)


@dataclass(frozen=True)
class Receipt:
    """One of the viewer's own submissions, as their page lists it."""

    seq: int
    hash: str
    kind: str
    tokens: list[str]
    round: int | None
    fate: Fate | None = None  # what became of it, as the participant's log marks it
    target: int | None = None  # a void's or correction's: the seq of the submission it undid
    by_host: bool = False  # recorded by the host (from the command line), not through the link
    late: bool = False  # recorded after its round's deadline, as the participant's log marks it

    @property
    def text(self) -> str:
        return f"{self.seq}:{self.hash}"


@dataclass(frozen=True)
class PageModels:
    """What a page shows: the view's read models (as pictures draw them) and, for a
    participant, their own submissions with receipts."""

    view: View
    models: dict
    receipts: list[Receipt]


class Reads:
    def __init__(
        self,
        application: Application,
        *,
        kept: int = KEPT_MATCHES,
        fresh_for: float = FRESH_FOR_SECONDS,
        answers: int = KEPT_ANSWERS,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.app = application
        self.kept = kept
        self.fresh_for = fresh_for
        self.clock = clock
        self._read_at: OrderedDict[str, float] = OrderedDict()  # match -> when first read, least recent first
        self._answers: OrderedDict[tuple, tuple[tuple, object]] = OrderedDict()
        #: match -> (its public head, the open round's deadline then, if any)
        self._deadlines: dict[str, tuple[tuple[int, str], str | None]] = {}
        self._answers_max = answers
        # Valid while the application's change token is the one seen at the last look.
        self._version: object = None
        self._heads: dict[str, tuple[int, str]] = {}
        #: match -> which events each view may know of, as far as its kept head
        self._views: dict[str, ViewHeads] = {}
        self._grants: dict[str, Capability | None] = {}
        #: When the last look at the change token began (``time.monotonic_ns``).
        self._looked_at = -1
        #: When the request being answered on the reading thread arrived (None: no request).
        self.since: int | None = None
        # What was pushed and not yet taken in by the reading thread, and each match's
        # generation (moved on every push for it) and everything's (on every listening
        # change): a small lock, never held during a database call.
        self._noted = threading.Lock()
        self._moved: set[str] = set()
        self._forget_all = False
        self._links_moved = False
        self._generations: dict[str, int] = {}
        self._epoch = 0
        #: key -> (match, epoch, public head, fresh until, deadline, passed then, bytes): for ``peek``
        self._published: OrderedDict[tuple, tuple] = OrderedDict()
        #: match -> its public head as the reading thread last read it (the loop reads it)
        self._public_heads: dict[str, tuple[int, str]] = {}
        #: The reading thread's runner (``reading.py``), for the refresher's reads.
        self._run: Callable[..., Awaitable] | None = None
        self._refreshed: object = None  # the change token the refresher last read every kept match at
        self._poked = asyncio.Event()
        self._refresher: asyncio.Task | None = None
        #: Whether the back end pushes changes now (the listener says so).
        self.pushed = False
        self._subscription: Subscription | None = None
        self._watched: tuple[str, ...] = ()  # the kept matches, as the listener's thread reads them
        #: Told (on the loop) whenever a match moved or everything kept was forgotten: the live streams.
        self.woken: list[Callable[[], None]] = []
        #: Matches read afresh from the log since the start (what a move costs).
        self.reads_afresh = 0

    # ------------------------------------------------------------------ reading ahead of requests

    def start(
        self,
        run: Callable[..., Awaitable] | None = None,
        every: float = REFRESH_SECONDS,
        fallback: float = FALLBACK_SECONDS,
    ) -> None:
        """Read the kept matches again ahead of requests whenever the store moves (in
        the running loop, until :meth:`stop`, each read handed to ``run``: the reading
        thread), and listen for pushed changes where the back end pushes them."""
        loop = asyncio.get_running_loop()
        self._run = run
        self._poked = asyncio.Event()
        self._refresher = loop.create_task(self._refreshing(every, fallback))
        self._subscription = self.app.subscribe_changes(_Pushed(self, loop), fallback=fallback)

    async def stop(self) -> None:
        if self._subscription is not None:
            subscription, self._subscription = self._subscription, None
            # On the loop: it is stopping, and the thread stops within half a second
            # (a worker thread's result would come back to a loop uvicorn no longer runs).
            subscription.close()
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresher
            self._refresher = None

    def poke(self) -> None:
        """Something was just written here: refresh now rather than at the next tick."""
        self._poked.set()

    async def _refreshing(self, every: float, fallback: float) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                # pushed: a move pokes at once, and the token alone moves no head
                await asyncio.wait_for(self._poked.wait(), fallback if self.pushed else every)
            poked = self._poked.is_set()
            self._poked.clear()
            await self.refresh(poked)

    async def refresh(self, poked: bool = False) -> int:
        """If anything was committed since the last refresh (or ``poked``: a match
        moved), read every kept match whose head was dropped again (one a turn of the
        loop, so requests are answered in between), as the next request for it would:
        so a request after an event it may not see finds its match read and its answer
        kept, and costs what a kept answer costs.  How many matches were read again."""
        try:
            version = await self._call(self.look)
        except MatchledgerError:
            return 0
        if version == self._refreshed and not poked:
            return 0
        self._refreshed = version
        done = 0
        for match_id in list(self._read_at):
            if match_id in self._heads and not self._moved:  # a request (or the live poller) read it since
                continue
            with contextlib.suppress(MatchledgerError):  # a request is refused by itself, as it must be
                if await self._call(self._read_if_dropped, match_id):
                    done += 1
            await asyncio.sleep(0)
        return done

    async def _call(self, call: Callable, *args):
        """``call`` on the reading thread (in place, where there is none: a test's)."""
        if self._run is None:
            return call(*args)
        return await self._run(call, *args)

    def _read_if_dropped(self, match_id: str) -> bool:
        """Whether ``match_id``'s head had been dropped, reading it again if so."""
        self._take_in()
        if match_id in self._heads or match_id not in self._read_at:
            return False
        self.head(match_id)
        return True

    # ------------------------------------------------------------------ looking at the database

    def _looked_since(self) -> bool:
        """Whether the last look began after the request being answered arrived."""
        return self.since is not None and self._looked_at >= self.since

    def look(self) -> object:
        """The application's change token now; the heads and grants kept are forgotten if
        it moved since the last look (a failed look forgets them too)."""
        self._take_in()
        self._looked_at = -1
        began = time.monotonic_ns()
        try:
            version = self.app.change_token()
        except BaseException:
            self._forget_lookups(None)
            raise
        if version != self._version:
            self._version = version
            self._grants.clear()  # a revocation is seen by the very next request, pushed or not
            if not self.pushed:
                self._heads.clear()
        self._looked_at = began
        return version

    def _forget_lookups(self, version: object) -> None:
        self._version = version
        self._heads.clear()
        self._grants.clear()

    # ------------------------------------------------------------------ pushed changes (on the loop)

    def moved(self, match_id: str) -> None:
        """Events of ``match_id`` were committed (pushed, or written here): its head is
        read again by the next lookup, and the live streams look."""
        with self._noted:
            self._moved.add(match_id)
            self._generations[match_id] = self._generations.get(match_id, 0) + 1
        self._wake()

    def links_changed(self) -> None:
        """A link was given or revoked: every grant is looked up again."""
        with self._noted:
            self._links_moved = True

    def listening(self, pushed: bool) -> None:
        """Changes are pushed from now on (``pushed``), or no longer: either way what
        was kept may have missed a commit, and is forgotten."""
        with self._noted:
            self.pushed = pushed
            self._forget_all = True
            self._epoch += 1
        self._wake()

    def heads_seen(self, heads: dict[str, Head]) -> None:
        """The safety net's heads: a kept head that differs moved."""
        for match_id, head in heads.items():
            kept = self._heads.get(match_id)
            if kept is not None and kept != head:
                self.moved(match_id)

    def _take_in(self) -> None:
        """What was pushed since the last lookup, taken in (on the reading thread)."""
        if not (self._moved or self._forget_all or self._links_moved):
            return
        with self._noted:
            moved, self._moved = self._moved, set()
            forget_all, self._forget_all = self._forget_all, False
            links, self._links_moved = self._links_moved, False
        for match_id in moved:
            self._heads.pop(match_id, None)
        if forget_all:
            self._forget_lookups(None)
        elif links:
            self._grants.clear()

    def generation(self, match_id: str) -> tuple[int, int]:
        """Moves whenever ``match_id`` moved, or everything kept was forgotten."""
        return self._epoch, self._generations.get(match_id, 0)

    # ------------------------------------------------------------------ answered on the loop

    def peek(self, key: tuple) -> object | None:
        """The public's answer ``key`` as it was last made, if it still stands: changes
        are pushed, its match has not moved since, its deadline has not passed since,
        and it is not due to be read afresh.  Reads nothing (None: ask the thread)."""
        if not self.pushed:
            return None
        found = self._published.get(key)
        if found is None:
            return None
        match_id, epoch, public_head, fresh_until, deadline, passed, value = found
        if epoch != self._epoch or public_head != self._public_heads.get(match_id) or self.clock() > fresh_until:
            return None
        if deadline is not None and is_past(deadline, self.app.clock()) != passed:
            return None
        return value

    def _publish(self, key: tuple, match_id: str, epoch: int, public_head: tuple[int, str], value: object) -> None:
        """Offer the public's answer ``key``, made at ``public_head``, to :meth:`peek`,
        unless everything was forgotten (``epoch``) while it was being made."""
        first = self._read_at.get(match_id)
        kept = self._deadlines.get(match_id)
        if first is None or kept is None or self._public_heads.get(match_id) != public_head:
            return
        deadline = kept[1]
        passed = deadline is not None and is_past(deadline, self.app.clock())
        with self._noted:
            if epoch != self._epoch or self._forget_all:
                return
            self._published[key] = (match_id, epoch, public_head, first + self.fresh_for, deadline, passed, value)
            self._published.move_to_end(key)
            while len(self._published) > self._answers_max:
                self._published.popitem(last=False)

    def _wake(self) -> None:
        self.poke()
        for wake in self.woken:
            wake()

    # ------------------------------------------------------------------ heads

    def head(self, match_id: str) -> tuple[int, str]:
        """(seq, hash) of the match's last event, every row up to it chain-checked."""
        self._take_in()
        if not self.pushed and not self._looked_since():
            self.look()
        now = self.clock()
        first = self._read_at.get(match_id)
        if first is not None and now - first > self.fresh_for:
            self.app.forget(match_id)
            self._heads.pop(match_id, None)
            self._views.pop(match_id, None)  # checked again from the first event, as a new read
            first = None
        head = self._heads.get(match_id)
        if head is None:
            # Something was committed since this match was read (heads are forgotten when
            # the change token moves), or it never was: read it afresh, as a new read does, so
            # a row edited behind the ledger's back is refused, not only rows added.
            head = self._heads[match_id] = self._read_afresh(match_id)
            self._public_heads[match_id] = self._views[match_id].head(PUBLIC)  # what ``peek`` answers by
        self._read_at[match_id] = now if first is None else first
        self._read_at.move_to_end(match_id)
        while len(self._read_at) > self.kept:
            oldest, _ = self._read_at.popitem(last=False)
            self.app.forget(oldest)
            self._heads.pop(oldest, None)
            self._views.pop(oldest, None)
            self._public_heads.pop(oldest, None)
        if first is None:
            self._watched = tuple(self._read_at)  # the listener's thread reads it whole
        return head

    def _read_afresh(self, match_id: str) -> tuple[int, str]:
        """The match read again from the log (UnknownMatch, VerificationFailed), and which
        of its events each view may know of: the new events classified one by one from
        the state the last read left (no replay), or from the first event."""
        carried = self._views.pop(match_id, None)
        self.reads_afresh += 1
        heads = self._views[match_id] = self.app.view_heads(match_id, carried)
        return heads.seq, heads.hash

    def view_head(self, match_id: str, view: View) -> tuple[int, str]:
        """(seq, hash) of the last event ``view`` may know of: for the public, the last
        public event (a close, a resolved turn, ...), never a hidden submission."""
        self.head(match_id)
        return self._views[match_id].head(view)

    def check_at(self, match_id: str, view: View, at: int) -> None:
        """``?at`` must be the seq of an event ``view`` may know of; the refusal is the
        same whatever ``at`` is otherwise (hidden, or past the head), and names no head."""
        self.head(match_id)
        if not self._views[match_id].knows(view, at):
            whose = (
                "the public" if view.is_public else (view.participant if view.participant is not None else "this view")
            )
            raise OutsideView(match_id, at, whose)

    def _answer(self, key: tuple, match_id: str, view: View, make: Callable[[], object]):
        # Kept until the view's head moves, or the open round's deadline passes: an
        # answer says whether it has ("passed", as `status --json` does), and no event
        # marks the moment.  The deadline is public, so the stamp tells no view more.
        self._take_in()
        epoch = self._epoch
        stamp = (self.view_head(match_id, view), self._deadline_passed(match_id))
        found = self._answers.get(key)
        if found is not None and found[0] == stamp:
            self._answers.move_to_end(key)
            value = found[1]
        else:
            value = make()
            self._answers[key] = (stamp, value)
            self._answers.move_to_end(key)
            while len(self._answers) > self._answers_max:
                self._answers.popitem(last=False)
        if view.is_public:
            self._publish(key, match_id, epoch, stamp[0], value)
        return value

    def _deadline_passed(self, match_id: str) -> bool:
        """Whether the open round's deadline has passed by the application's clock.  The
        deadline is read from the public status, kept until the public head moves (a
        deadline set or cleared, a close: public events), so a hidden event makes no
        read here."""
        head = self.view_head(match_id, PUBLIC)
        kept = self._deadlines.get(match_id)
        if kept is None or kept[0] != head:
            status = self.app.query(match_id, (ReadModel.STATUS,), public=True)[ReadModel.STATUS]
            deadline = status.get("deadline")
            at = deadline.get("at") if isinstance(deadline, dict) else None
            kept = self._deadlines[match_id] = (head, at if isinstance(at, str) else None)
            while len(self._deadlines) > self.kept:
                self._deadlines.pop(next(iter(self._deadlines)))
        return kept[1] is not None and is_past(kept[1], self.app.clock())

    # ------------------------------------------------------------------ the JSON API

    def public(self, match_id: str, at: int | None = None) -> bytes:
        """``{"status", "reveals", "outcome"}``, each the CLI's ``--public --json``, all
        read from one state."""

        def make() -> bytes:
            readings = self.app.query(match_id, PUBLIC_MODELS, public=True, at=at)
            shown = {model.value: readings[model] for model in PUBLIC_MODELS}
            shown["status"] = with_passed(shown["status"], self.app.clock())  # as `status --json` says it
            return to_json(shown)

        if at is not None:
            self.check_at(match_id, PUBLIC, at)
            return make()
        return self._answer(("public", match_id), match_id, PUBLIC, make)

    def me(self, capability: Capability, at: int | None = None) -> bytes:
        """``{"participant", "knowledge"}``: the CLI's ``knowledge --as NAME --json``."""
        match_id, name = capability.match_id, capability.participant
        assert name is not None  # the door hands over a participant's capability only

        def make() -> bytes:
            data = self.app.query(match_id, (ReadModel.KNOWLEDGE,), participant=name, at=at)[ReadModel.KNOWLEDGE]
            return to_json({"participant": name, "knowledge": data})

        view = as_participant(name)
        if at is not None:
            self.check_at(match_id, view, at)
            return make()
        return self._answer(("me", match_id, name), match_id, view, make)

    def public_head(self, match_id: str) -> bytes:
        """``{"seq", "hash"}`` of the public head (``/head`` without a token)."""

        def make() -> bytes:
            seq, digest = self.view_head(match_id, PUBLIC)
            return to_json({"seq": seq, "hash": digest})

        return self._answer(("public-head", match_id), match_id, PUBLIC, make)

    def export(self, capability: Capability) -> bytes:
        return self.app.export(capability.match_id)[0]

    # ------------------------------------------------------------------ pages

    def page(self, match_id: str, participant: str | None = None, at: int | None = None) -> PageModels:
        """The read models of the public's view or ``participant``'s, as the page and its
        live updates show them (as the match stood after event ``at``)."""
        view = PUBLIC if participant is None else as_participant(participant)
        if at is not None:
            self.check_at(match_id, view, at)
            return self._page(match_id, participant, at)
        return self._answer(
            ("page", match_id, participant), match_id, view, lambda: self._page(match_id, participant, None)
        )

    def _page(self, match_id: str, participant: str | None, at: int | None) -> PageModels:
        """The page's read models, and a participant's receipts, from one fold."""
        if participant is None:
            readings = self.app.query(match_id, public=True, at=at)
            return PageModels(readings.view, self._passed_now(readings.as_dict()), [])
        log = self.app.log(match_id, at, participant=participant, models=None)
        return PageModels(log.view, self._passed_now(log.readings.as_dict()), _receipts(log))

    def _passed_now(self, models: dict) -> dict:
        """The page's models, its status saying whether the deadline has passed."""
        status = models.get(ReadModel.STATUS.value)
        if isinstance(status, dict):
            models = {**models, ReadModel.STATUS.value: with_passed(status, self.app.clock())}
        return models

    def rendered(self, key: tuple, match_id: str, make: Callable[[], bytes], participant: str | None = None) -> bytes:
        """Bytes made from the public's view of the match as it stands (or
        ``participant``'s), kept until that view's head moves."""
        return self._answer(key, match_id, PUBLIC if participant is None else as_participant(participant), make)

    # ------------------------------------------------------------------ tokens

    def grant(self, token: str) -> Capability | None:
        """What ``token`` opens (None: nothing: unknown or revoked)."""
        if not well_formed(token):
            return None  # nothing kept of it: a made-up token may be of any size
        self._take_in()
        if not self._looked_since():
            self.look()
        if token in self._grants:
            return self._grants[token]
        capability = self.app.capability(token)
        if len(self._grants) >= KEPT_GRANTS:
            self._grants = {}
        self._grants[token] = capability
        return capability

    @staticmethod
    def is_auditor(capability: Capability) -> bool:
        return capability.role == AUDITOR


class _Pushed:
    """What the back end pushes, handed over from its listening thread to the loop
    (ledger/change_feed.py, ``Listener``)."""

    def __init__(self, reads: Reads, loop: asyncio.AbstractEventLoop):
        self.reads, self.loop = reads, loop

    def _call(self, callback: Callable, *args) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: the service is stopping
            self.loop.call_soon_threadsafe(callback, *args)

    def listening(self) -> None:
        self._call(self.reads.listening, True)

    def lost(self) -> None:
        self._call(self.reads.listening, False)

    def match_moved(self, match_id: str) -> None:
        self._call(self.reads.moved, match_id)

    def links_changed(self, match_id: str) -> None:
        self._call(self.reads.links_changed)

    def heads_seen(self, heads) -> None:
        self._call(self.reads.heads_seen, dict(heads))

    def watched(self) -> tuple[str, ...]:
        return self.reads._watched


def _receipts(log: LogReading) -> list[Receipt]:
    """The participant's own submissions and what became of them, each with the seq and
    hash of its event, as their log shows them."""
    return [
        Receipt(
            row.seq,
            row.hash,
            row.kind,
            list(shown.get("tokens", [])),
            shown.get("round"),
            log.marks.get(row.seq),
            target=shown.get("target_seq"),
            by_host=row.actor != log.view.participant,
            late=row.seq in log.late,
        )
        for row, shown in log.entries
        if row.kind in _OWN_SUBMISSIONS
    ]
