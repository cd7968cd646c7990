"""Which of a match's events each viewer may know of, and so the head each is shown.

A viewer who is not the host may learn of an event exactly when their log lists it:
``views.event_view`` is the one allow-list (`log --public`, `log --as NAME`, the pages
and now the heads all read it).  For the public that is the creation, every close with
its reveals, a resolved turn, a reopening, an outcome, an amendment (the rules announce
every amendment: `log --public` shows it whole), a turn taken back and an abandonment;
never a submission, a resubmission, a void or correction of a round's submission, a
note or a checkpoint.  A participant also knows of their own submissions and contract
and of what became of them.

So the *public head* is the (seq, hash) of the last public event: it moves with a close,
never with a hidden submission (docs/design.md, "Service").  A participant's head is the
last event of their own view.  The seqs a view may know of are the ones its ``?at``
accepts.  What a seq still tells (the count of events before it) is stated in
docs/guarantees.md (``service.receipt-seqs``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from matchledger.engine.state import PUBLIC, MatchState, View, as_participant
from matchledger.ledger.events import Event
from matchledger.ledger.log_store import StoredEvent

from .views import event_view


def knows_of(view: View, event: Event, before: MatchState | None) -> bool:
    """Whether ``view`` may know that ``event`` happened (``before``: the match just
    before it)."""
    return view.is_host or event_view(view, event, before) is not None


class ViewHeads:
    """The seqs of one match's events each non-host view may know of, as far as event
    ``seq`` (whose hash is ``hash``); fed one event at a time with the state before it."""

    __slots__ = ("match_id", "seq", "hash", "public", "own", "hashes")

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.seq = 0
        self.hash = ""
        self.public: list[int] = []  # ascending
        self.own: dict[str, list[int]] = {}  # participant -> the non-public seqs they know of, ascending
        self.hashes: dict[int, str] = {}  # seq -> hash, of every event some non-host view knows of

    def feed(self, row: StoredEvent, event: Event, before: MatchState | None) -> None:
        if knows_of(PUBLIC, event, before):
            self.public.append(row.seq)
            self.hashes[row.seq] = row.hash
        elif before is not None:
            for name in before.participants:
                if knows_of(as_participant(name), event, before):
                    self.own.setdefault(name, []).append(row.seq)
                    self.hashes[row.seq] = row.hash
        self.seq, self.hash = row.seq, row.hash

    def head(self, view: View) -> tuple[int, str]:
        """(seq, hash) of the last event ``view`` may know of (the host: the last event)."""
        if view.is_host:
            return self.seq, self.hash
        last = self.public[-1] if self.public else 0
        mine = self.own.get(view.participant) if view.participant is not None else None
        if mine:
            last = max(last, mine[-1])
        return (last, self.hashes[last]) if last else (0, "")

    def knows(self, view: View, seq: int) -> bool:
        """Whether event ``seq`` is one ``view`` may know of (its ``?at`` accepts it)."""
        if view.is_host:
            return 1 <= seq <= self.seq
        if _holds(self.public, seq):
            return True
        return view.participant is not None and _holds(self.own.get(view.participant, []), seq)


def _holds(ascending: list[int], seq: int) -> bool:
    at = bisect_right(ascending, seq)
    return at > 0 and ascending[at - 1] == seq


def view_heads(match_id: str, steps: Iterable[tuple[StoredEvent, Event, MatchState | None]]) -> ViewHeads:
    """The heads of a match fed (row, event, state before it) in seq order."""
    heads = ViewHeads(match_id)
    for row, event, before in steps:
        heads.feed(row, event, before)
    return heads
