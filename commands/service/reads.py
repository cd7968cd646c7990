"""What the service reads, through the one application, and the bytes it answers with.

Every answer is a function of a match's log up to its head and of the viewer: the
public, one participant, or an auditor.  So each is kept by (what, match, viewer) with
the head it was made at, and made again only when the head moves.  The head comes from
the application's reader, which checks the chain of every row it has not seen yet
(docs/service.md, "Reads").

Heads and tokens' grants are kept too, while the database's ``data_version`` stands
still.  It is looked at (one small query) by the first lookup in each turn of the event
loop, and the look holds until the loop's next turn: a callback queued at the look
clears it.  A request's handler runs in a task queued once the server has read the
request, so if that was before the look, the look was made after the request was read;
if not, the clearing callback, queued first, runs first, and the request looks again.
Either way a request sees every commit made before it reached the server (a revocation
by the host's CLI included), and requests answered in one turn share one look.  The
live streams look on every poll (``look``); outside a running loop every lookup looks.

The match states the reader keeps are bounded (the ``kept`` matches used last), and
each is read afresh from the log (its chain checked again, as a new read checks it)
once it is ``fresh_for`` seconds old, and whenever ``data_version`` moved since it was
read: a row edited behind the ledger's back is refused, not only a row added.  Everything runs on the event loop's thread: SQLite reads of a kept match
take microseconds, and the one connection is never shared between threads.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

import msgspec
from matchledger.engine.state import PUBLIC, View, as_participant
from matchledger.ledger.capabilities import AUDITOR, Capability, well_formed
from matchledger.ledger.events import SubmissionCorrected, SubmissionRecorded, SubmissionVoided
from matchledger.projections.application import Application
from matchledger.projections.presentation.picture import read_models

#: Matches whose folded state is kept between requests.
KEPT_MATCHES = 256
#: Seconds after which a kept state is read again from the log.
FRESH_FOR_SECONDS = 300.0
#: Answers kept (each a few kilobytes: a board picture is the largest).
KEPT_ANSWERS = 4096
#: Tokens whose grant (or its absence) is kept while nothing is written: bounded, as
#: anybody may send any number of made-up tokens (only well-formed ones are kept).
KEPT_GRANTS = 4096

_json = msgspec.json.Encoder()
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
        self._answers: OrderedDict[tuple, tuple[tuple[int, str], object]] = OrderedDict()
        self._answers_max = answers
        # Valid while the database's data_version is the one seen at the last look.
        self._version: object = None
        self._heads: dict[str, tuple[int, str]] = {}
        self._grants: dict[str, Capability | None] = {}
        self._looked = False  # in this turn of the event loop

    # ------------------------------------------------------------------ looking at the database

    def must_look(self) -> None:
        """The next lookup looks at the database first, whatever this turn looked at."""
        self._looked = False

    def look(self) -> object:
        """The database's data_version now; the heads and grants kept are forgotten if it
        moved since the last look (a failed look forgets them too)."""
        self._looked = False
        try:
            version = self.app.store.data_version()
        except BaseException:
            self._forget_lookups(None)
            raise
        if version != self._version:
            self._forget_lookups(version)
        try:
            asyncio.get_running_loop().call_soon(self.must_look)
        except RuntimeError:  # no loop: nothing marks the turn's end, so nothing is shared
            return version
        self._looked = True
        return version

    def _forget_lookups(self, version: object) -> None:
        self._version = version
        self._heads.clear()
        self._grants.clear()

    # ------------------------------------------------------------------ heads

    def head(self, match_id: str) -> tuple[int, str]:
        """(seq, hash) of the match's last event, every row up to it chain-checked."""
        if not self._looked:
            self.look()
        now = self.clock()
        first = self._read_at.get(match_id)
        if first is not None and now - first > self.fresh_for:
            self.app.forget(match_id)
            self._heads.pop(match_id, None)
            first = None
        head = self._heads.get(match_id)
        if head is None:
            # Something was committed since this match was read (heads are forgotten when
            # data_version moves), or it never was: read it afresh, as a new read does, so
            # a row edited behind the ledger's back is refused, not only rows added.
            self.app.forget(match_id)
            cursor = self.app.reader.cursor(match_id)  # UnknownMatch, VerificationFailed
            head = self._heads[match_id] = (cursor.seq, cursor.hash)
        self._read_at[match_id] = now if first is None else first
        self._read_at.move_to_end(match_id)
        while len(self._read_at) > self.kept:
            oldest, _ = self._read_at.popitem(last=False)
            self.app.forget(oldest)
            self._heads.pop(oldest, None)
        return head

    def _answer(self, key: tuple, match_id: str, make: Callable[[], object]):
        head = self.head(match_id)
        found = self._answers.get(key)
        if found is not None and found[0] == head:
            self._answers.move_to_end(key)
            return found[1]
        value = make()
        self._answers[key] = (head, value)
        self._answers.move_to_end(key)
        while len(self._answers) > self._answers_max:
            self._answers.popitem(last=False)
        return value

    # ------------------------------------------------------------------ the JSON API

    def public(self, match_id: str, at: int | None = None) -> bytes:
        """``{"status", "reveals", "outcome"}``, each the CLI's ``--public --json``."""

        def make() -> bytes:
            return to_json({model: self.app.read(match_id, model, public=True, at=at).data
                            for model in ("status", "reveals", "outcome")})

        return make() if at is not None else self._answer(("public", match_id), match_id, make)

    def me(self, capability: Capability, at: int | None = None) -> bytes:
        """``{"participant", "knowledge"}``: the CLI's ``knowledge --as NAME --json``."""
        match_id, name = capability.match_id, capability.participant

        def make() -> bytes:
            data = self.app.read(match_id, "knowledge", participant=name, at=at).data
            return to_json({"participant": name, "knowledge": data})

        return make() if at is not None else self._answer(("me", match_id, name), match_id, make)

    def export(self, capability: Capability) -> bytes:
        return self.app.export(capability.match_id)[0]

    # ------------------------------------------------------------------ pages

    def page(self, match_id: str, participant: str | None = None, at: int | None = None) -> PageModels:
        """The read models of the public's view or ``participant``'s, as the page and its
        live updates show them (as the match stood after event ``at``)."""
        if at is not None:
            return self._page(match_id, participant, at)
        return self._answer(("page", match_id, participant), match_id, lambda: self._page(match_id, participant, None))

    def _page(self, match_id: str, participant: str | None, at: int | None) -> PageModels:
        state = self.app.state(match_id, at)
        view = PUBLIC if participant is None else as_participant(participant)
        models = read_models(self.app.game_of(state), state, view)
        receipts = [] if participant is None else self._receipts(match_id, participant, at)
        return PageModels(view, models, receipts)

    def _receipts(self, match_id: str, participant: str, at: int | None) -> list[Receipt]:
        """The participant's own submissions and what became of them, each with the seq
        and hash of its event, as their log shows them."""
        _view, entries = self.app.log(match_id, at, participant=participant)
        return [
            Receipt(row.seq, row.hash, row.kind, list(shown.get("tokens", [])), shown.get("round"))
            for row, shown in entries
            if row.kind in _OWN_SUBMISSIONS
        ]

    def rendered(self, key: tuple, match_id: str, make: Callable[[], bytes]) -> bytes:
        """Bytes made from the match as it stands, kept until its head moves."""
        return self._answer(key, match_id, make)

    # ------------------------------------------------------------------ tokens

    def grant(self, token: str) -> Capability | None:
        """What ``token`` opens (None: nothing: unknown or revoked)."""
        if not well_formed(token):
            return None  # nothing kept of it: a made-up token may be of any size
        if not self._looked:
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
