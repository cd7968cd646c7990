"""The feed for bots: a match's events as server-sent events, one viewer's view of them
(docs/service.md, "The event feed").

Each event the viewer's log lists (``log --public --json``, or ``log --as NAME --json``
for a participant's token) is sent once, in order, as ``id: SEQ`` and one ``data:`` line
holding that log entry: what the view may see of the event comes from the application's
one allow-list (``Application.log``), never from here.  An entry's mark (``voided_by``
…) is left out: it is what became of the event later, and the later event comes down the
feed itself.

The ids are the log's own seqs, as ``log``, ``/head`` and ``?at`` number events, so a
gap between two ids counts the events between them that the viewer may not know of:
the one thing about them the project's guarantees leave public ("Not covered" under
docs/guarantees.md, "Through every output of the command line").  Which events are
sent, and when, is decided only from the viewer's view: the entries are kept by the
head of that view (``Reads.view_head``), so an event the viewer may not see moves
nothing the feed sends, and the stream machinery of the live pages (``live.py``) wakes
and beats on the same schedule whatever it was.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from matchledger.engine.state import PUBLIC, View, as_participant
from matchledger.ledger.errors import OutsideView
from matchledger.projections.presentation.printable import printable

from .problems import Refused
from .reads import Reads, to_json

#: Views whose entries are kept (each a match's events as one viewer may see them).
KEPT_FEEDS = 256
#: The request header a reconnecting client names the last event it received by, and
#: the query parameter for a client that cannot set headers.
LAST_EVENT_ID = "last-event-id"
AFTER = "after"
#: Digits a seq may have (as ``?at`` takes it): more is no seq of any log.
SEQ_DIGITS = 18


@dataclass(frozen=True)
class Entries:
    """One view's events: their seqs in order, and each one's server-sent message."""

    seqs: tuple[int, ...]
    messages: tuple[bytes, ...]

    def after(self, seq: int) -> tuple[int, bytes]:
        """The last seq and the messages of the events after ``seq`` (``seq`` again and
        nothing when there are none)."""
        start = bisect_right(self.seqs, seq)
        if start == len(self.seqs):
            return seq, b""
        return self.seqs[-1], b"".join(self.messages[start:])


def message(entry: dict) -> bytes:
    """One event as a server-sent event: its seq as the id, its log entry as one line."""
    return b"id: %d\ndata: " % entry["seq"] + to_json(entry) + b"\n\n"


class Feeds:
    """Every open feed's events, kept per view of a match until that view's head moves."""

    def __init__(self, reads: Reads, *, kept: int = KEPT_FEEDS):
        self.reads = reads
        self.kept = kept
        self._kept: OrderedDict[tuple[str, str | None], tuple[tuple[int, str], Entries]] = OrderedDict()

    def entries(self, match_id: str, participant: str | None) -> Entries:
        """The events the public (``participant`` None) or ``participant`` may know of,
        up to the head of that view."""
        head = self.reads.view_head(match_id, _view(participant))
        key = (match_id, participant)
        found = self._kept.get(key)
        if found is not None and found[0] == head:
            self._kept.move_to_end(key)
            return found[1]
        # Up to the view's head, not the log's: the entries are those of the head they
        # are kept by, whatever was committed since the look.
        log = self.reads.app.log(match_id, head[0], public=participant is None, participant=participant, models=())
        rows = [(row, shown) for row, shown in log.entries]
        entries = Entries(
            tuple(row.seq for row, _shown in rows),
            tuple(
                message(
                    {
                        "seq": row.seq,
                        "kind": row.kind,
                        "recorded_at": row.recorded_at,
                        "actor": row.actor,
                        "event": shown,
                        "prev_hash": row.prev_hash,
                        "hash": row.hash,
                    }
                )
                for row, shown in rows
            ),
        )
        self._kept[key] = (head, entries)
        self._kept.move_to_end(key)
        while len(self._kept) > self.kept:
            self._kept.popitem(last=False)
        return entries

    def resumed_after(self, match_id: str, participant: str | None, sent: str | None, name: str) -> int:
        """The seq a feed resumes after: ``sent`` (a ``Last-Event-ID`` or ``?after``,
        called ``name``) read as 0 or the seq of an event the viewer may know of; any
        other value is a 400 problem naming it (the same one for a seq hidden from the
        viewer and one past their head, which names no head)."""
        if sent is None or sent == "":
            return 0
        if not (sent.isascii() and sent.isdigit() and len(sent) <= SEQ_DIGITS):
            raise Refused(
                400,
                f"{name} must be 0 or the id of an event this feed sent (a whole number), got {printable(sent[:40])!r}",
                kind="malformed-input",
                members={"match": match_id, "parameter": name},
            )
        seq = int(sent)
        if seq == 0:
            return 0
        try:
            self.reads.check_at(match_id, _view(participant), seq)
        except OutsideView as exc:
            raise Refused(
                400,
                f"{name} {seq} is not the id of an event {exc.viewer} may know of in match {match_id!r}: "
                "resume after an id this feed sent, or 0 for every event",
                kind="outside-view",
                members={"match": match_id, "parameter": name},
            ) from None
        return seq

    def render(self, match_id: str, participant: str | None, after: int) -> Callable[[], bytes]:
        """What a stream sends each time it is woken: the viewer's events after the last
        one it sent (``after`` at first), or nothing."""
        cursor = after

        def render() -> bytes:
            nonlocal cursor
            cursor, messages = self.entries(match_id, participant).after(cursor)
            return messages

        return render


def _view(participant: str | None) -> View:
    return PUBLIC if participant is None else as_participant(participant)
