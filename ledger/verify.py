"""Chain verification: every way a stored log can be tampered with names its first bad seq.

Checks, per match, in seq order: no gap and no reordering (seqs are 1, 2, 3 …), every
row belongs to the match, every ``prev_hash`` is the previous row's ``hash``, every
``hash`` is recomputed from the row's own fields, the ``kind`` column matches the
body's tag, and every body decodes.  A published head (seq + hash) catches truncation
and a consistently rewritten tail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from msgspec.structs import astuple

from .codec import GENESIS_HASH, decode_event, encode, envelope_hash
from .errors import CorruptLog, MalformedInput
from .store import StoredEvent


@dataclass(frozen=True)
class Finding:
    match_id: str
    seq: int
    problem: str
    field: str | None = None
    recorded: Any = None
    recomputed: Any = None

    def describe(self) -> str:
        text = f"{self.match_id} seq {self.seq}: {self.problem}"
        if self.field is not None:
            text += f" [{self.field}: recorded {self.recorded!r}, recomputed {self.recomputed!r}]"
        return text

    def to_json(self) -> dict:
        data = {"match": self.match_id, "seq": self.seq, "problem": self.problem}
        if self.field is not None:
            data.update(field=self.field, recorded=self.recorded, recomputed=self.recomputed)
        return data


def parse_head(text: str) -> tuple[int, str]:
    seq_text, sep, digest = text.partition(":")
    if not sep or not seq_text.isdigit() or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise MalformedInput(f"--head must be SEQ:HASH with a 64-digit lowercase hex hash, got {text!r}")
    return int(seq_text), digest


def verify_chain(
    match_id: str,
    rows: list[StoredEvent],
    head: tuple[int, str] | None = None,
    decoded: list | None = None,
) -> list[Finding]:
    """The first chain finding of ``rows`` (plus a head finding), or [] when intact.
    Each body is decoded on the way; pass a list as ``decoded`` to keep the (seq, event)
    pairs for a replay that follows, so nothing is decoded twice."""
    # Rows from elsewhere (an import) may name another match: the rows before the
    # first such row are checked as ever, then that row is the finding.
    spliced = next((index for index, row in enumerate(rows) if row.match_id != match_id), None)
    own = rows if spliced is None else rows[:spliced]
    found = verify_chain_rows(match_id, [astuple(row)[1:] for row in own], head if spliced is None else None, decoded)
    if found or spliced is None:
        return found
    row = rows[spliced]
    return [Finding(match_id, row.seq, f"row belongs to match {row.match_id!r}, spliced in")]


def verify_chain_rows(
    match_id: str,
    rows: Sequence[tuple],
    head: tuple[int, str] | None = None,
    decoded: list | None = None,
) -> list[Finding]:
    """``verify_chain`` for rows of ``match_id`` as ``Store.chain_rows`` reads them:
    tuples (seq, kind, body, recorded_at, actor, prev_hash, hash)."""
    events = _intact_events(match_id, rows)
    if events is None:
        return _first_break(match_id, rows, head, decoded)
    if decoded is not None:
        decoded += zip([row[0] for row in rows], events)
    return _head_finding(match_id, rows, head) if head is not None else []


def _intact_events(match_id: str, rows: Sequence[tuple]) -> list | None:
    """The rows' events if every check holds for every row, else None.  The common case
    (an intact log), checked column by column; ``_first_break`` walks the rows one by
    one to name the first break."""
    if not rows:
        return []
    try:
        seqs, kinds, bodies, _recorded_at, _actors, prev_hashes, hashes = zip(*rows)
        digests = _recomputed(match_id, rows)
        events = list(map(decode_event, bodies))
    except Exception:  # a body that does not decode, a column of an unexpected type: the walk meets it in its place
        return None
    intact = (
        seqs == tuple(range(1, len(rows) + 1))
        and prev_hashes == (GENESIS_HASH, *hashes[:-1])
        and tuple(digests) == hashes
        and tuple([type(event).__name__ for event in events]) == kinds
    )
    return events if intact else None


def _first_break(match_id: str, rows: Sequence[tuple], head: tuple[int, str] | None, decoded: list | None) -> list[Finding]:
    """The first finding, row by row, each row's checks in the order listed at the top."""
    prev_hash = GENESIS_HASH
    for index, row in enumerate(rows):
        seq, kind, body, _recorded_at, _actor, row_prev_hash, row_hash = row
        expected_seq = index + 1
        if seq != expected_seq:
            if seq > expected_seq:
                return [Finding(match_id, expected_seq, f"event {expected_seq} is missing (next stored seq is {seq})")]
            return [Finding(match_id, seq, f"seq {seq} appears out of order after seq {index}")]
        [recomputed] = _recomputed(match_id, [row])
        if row_prev_hash != prev_hash:
            # The row before was changed and re-hashed (it verifies alone), or this row
            # was moved here from elsewhere: either way the link between them is broken.
            if recomputed == row_hash and index > 0:
                return [
                    Finding(
                        match_id,
                        seq - 1,
                        f"event {seq - 1} was altered: its hash is not the one event {seq} chains to",
                        "hash",
                        row_prev_hash,
                        rows[index - 1][6],
                    )
                ]
            return [Finding(match_id, seq, "prev_hash does not link to the previous event", "prev_hash", row_prev_hash, prev_hash)]
        if recomputed != row_hash:
            return [Finding(match_id, seq, "hash does not match the event's contents", "hash", row_hash, recomputed)]
        try:
            event = decode_event(body)
        except CorruptLog as exc:
            return [Finding(match_id, seq, f"body does not decode: {exc}")]
        if type(event).__name__ != kind:
            return [Finding(match_id, seq, "kind column disagrees with the body's type", "kind", kind, type(event).__name__)]
        if decoded is not None:
            decoded.append((seq, event))
        prev_hash = row_hash
    return _head_finding(match_id, rows, head) if head is not None else []


def _recomputed(match_id: str, rows: Sequence[tuple]) -> list[str]:
    """Each row's hash as its own fields give it."""
    match_id_json = encode(match_id)
    return [
        envelope_hash(encode(actor), body.encode("utf-8"), kind, match_id_json, prev_hash, encode(recorded_at), seq)
        for seq, kind, body, recorded_at, actor, prev_hash, _hash in rows
    ]


def _head_finding(match_id: str, rows: Sequence[tuple], head: tuple[int, str]) -> list[Finding]:
    head_seq, head_hash = head
    if head_seq > len(rows):
        return [Finding(match_id, len(rows) + 1, f"log ends at seq {len(rows)} but the published head is seq {head_seq}: events were removed")]
    if rows[head_seq - 1][6] != head_hash:
        return [Finding(match_id, head_seq, "hash differs from the published head: the log was rewritten", "hash", rows[head_seq - 1][6], head_hash)]
    return []
