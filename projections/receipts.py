"""Receipts: a participant who submits through the service is handed ``SEQ:HASH``, the
seq and hash of the event that recorded their move.  A receipt is proven when the
log's chain holds from the first event up to that seq and the event there carries that
hash: the hash covers the event's body and, through ``prev_hash``, everything before it,
so nobody can have dropped, edited or moved the submission without the receipt failing.

Only a submission is a receipt: the service hands out the seq and hash of the
``SubmissionRecorded`` it wrote (commands/service/writes.py; a photographer turn's
``TurnResolved`` after it is the rules' doing, not the participant's).  Any other event
of the chain carries a seq and hash too, and is refused as a finding that says what it
is: otherwise a close's or the creation's hash would "prove" a submission nobody made.

A proven receipt proves that the submission was recorded, not that it still counts:
beside it stands what became of it (superseded by a later one, voided, corrected, or
it counts), from the one account `log` marks and `audit` lists
(projections.supersession), read from the events the chain vouches for.
"""

from __future__ import annotations

from typing import NamedTuple

from matchledger import engine
from matchledger.engine.state import HOST
from matchledger.ledger.errors import CorruptLog, MalformedInput, MalformedReceipt, MatchledgerError
from matchledger.ledger.events import MatchCreated
from matchledger.ledger.store import StoredEvent
from matchledger.ledger.verify import Finding, parse_head, verify_chain

from .fold import Replayer
from .supersession import Fate, fates


def parse_receipt(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` as the service prints it."""
    try:
        seq, digest = parse_head(text)
    except MalformedInput:
        seq, digest = 0, ""
    if len(digest) != 64:  # a receipt is the whole hash, never a prefix of it
        raise MalformedReceipt(text)
    return seq, digest


#: The one kind of event a receipt may name.
RECEIPT_KIND = "SubmissionRecorded"


class ReceiptCheck(NamedTuple):
    """One receipt checked: the event it names (its kind, whose submission for which
    round, where the log holds such an event), what is wrong with it (None: it is a
    submission in the verified chain), and what became of that submission (None: it
    counts, or the receipt is not proven)."""

    seq: int
    hash: str
    kind: str | None
    participant: str | None
    round: int | None
    finding: Finding | None
    round_word: str = "round"  # what ``round`` counts in the match's game: a round or a turn
    fate: Fate | None = None

    @property
    def ok(self) -> bool:
        return self.finding is None

    def to_json(self) -> dict:
        return {
            "seq": self.seq,
            "hash": self.hash,
            "kind": self.kind,
            "participant": self.participant,
            "round": self.round,
            "ok": self.ok,
            # the key `log --json` marks the submission with: {"voided_by": 5}
            "fate": None if self.fate is None else {self.fate.key: self.fate.by},
        }

    def describe(self) -> str:
        """What the receipt proves, for a receipt that is ok, and what became of the
        submission since."""
        fate = "counts" if self.fate is None else self.fate.describe()
        return (
            f"receipt {self.seq}: {self.participant}'s {self.kind} for {self.round_word} {self.round}, "
            f"in the verified chain; {fate}"
        )


def check_receipt(
    match_id: str, rows: list[StoredEvent], receipt: tuple[int, str], account: dict[int, Fate] | None = None
) -> ReceiptCheck:
    """The receipt checked against ``rows`` (a match's whole log); ``account``: what
    became of each event (:func:`submission_fates`, computed once for many receipts)."""
    seq, digest = receipt
    row = rows[seq - 1] if 1 <= seq <= len(rows) else None
    participant, round_no = _whose(row)
    finding = receipt_finding(match_id, rows, receipt)
    fate = None
    if finding is None:
        fate = (submission_fates(match_id, rows) if account is None else account).get(seq)
    return ReceiptCheck(
        seq, digest, None if row is None else row.kind, participant, round_no, finding, _round_word(rows), fate
    )


def submission_fates(match_id: str, rows: list[StoredEvent]) -> dict[int, Fate]:
    """What became of each submission that no longer counts (seq -> Fate), as `log`
    marks it for the host: from the match as the events the chain vouches for leave it
    (those before the first broken link; the fold stops before an event it refuses, as
    the audit's account does), so no event a finding names decides a fate."""
    broken = verify_chain(match_id, rows)
    replayer = Replayer(match_id)
    for row in rows[: broken[0].seq - 1] if broken else rows:
        try:
            replayer.feed(row.seq, row.event())
        except MatchledgerError:
            break
    return {} if replayer.state is None else fates(replayer.state, HOST)


def receipt_finding(match_id: str, rows: list[StoredEvent], receipt: tuple[int, str]) -> Finding | None:
    """None when the event the receipt names is a submission in the verified chain;
    else why not."""
    seq, digest = receipt
    shown = f"receipt {seq}:{digest[:16]}…"
    chain = verify_chain(match_id, rows[:seq])
    if chain:
        return Finding(
            match_id, chain[0].seq, f"{shown} cannot be proven: the chain does not hold up to it ({chain[0].problem})"
        )
    # The chain holds up to here, so the log alone cannot say which is wrong: the receipt
    # (copied with a digit off, or not the one issued) or the log (rewritten, or cut short,
    # since the receipt was given).  Both are said, and the hashes to compare side by side.
    if seq > len(rows):
        return Finding(
            match_id,
            seq,
            f"{shown} does not match the log: it names seq {seq}, and the log ends at seq {len(rows)} "
            "(a receipt copied wrong, or events removed since it was given)",
        )
    row = rows[seq - 1]
    if row.hash != digest:
        return Finding(
            match_id,
            seq,
            f"{shown} does not match the log: the log's event at seq {seq} has the hash {row.hash}, the receipt "
            f"{digest} (a receipt copied wrong, or a log rewritten since it was given; the chain itself holds)",
        )
    if row.kind != RECEIPT_KIND:
        return Finding(
            match_id, seq, f"{shown} is no receipt: seq {seq} is {_what(row)}, not a participant's submission"
        )
    participant, _round = _whose(row)
    if participant is None:
        return Finding(match_id, seq, f"{shown} is no receipt: the {row.kind} at seq {seq} cannot be read")
    return None


def _round_word(rows: list[StoredEvent]) -> str:
    try:
        created = rows[0].event()
        return engine.get(created.game).ROUND_WORD if isinstance(created, MatchCreated) else "round"
    except (MatchledgerError, AttributeError, IndexError, KeyError):
        return "round"


def _whose(row: StoredEvent | None) -> tuple[str | None, int | None]:
    """The participant and round (or turn) an event names, where it names them."""
    if row is None:
        return None, None
    try:
        event = row.event()
    except CorruptLog:
        return None, None
    participant = getattr(event, "participant", None)
    round_no = getattr(event, "round", getattr(event, "turn", None))
    return (participant if isinstance(participant, str) else None), (round_no if isinstance(round_no, int) else None)


def _what(row: StoredEvent) -> str:
    """An event, as a refused receipt names it: "a RoundClosed (round 2)", "bob's
    TurnResolved (turn 3)", "a MatchCreated"."""
    participant, round_no = _whose(row)
    word = "turn" if row.kind == "TurnResolved" else "round"
    where = f" ({word} {round_no})" if round_no is not None else ""
    return (f"{participant}'s {row.kind}" if participant else f"a {row.kind}") + where
