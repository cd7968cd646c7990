"""Chain verification: every way a stored log can be tampered with names its first bad seq.

The rows of a match are checked in seq order, each row in this order: it belongs to the
match (not spliced in from another), its seq is the next one (no gap, no reordering:
1, 2, 3 …), its ``prev_hash`` is the previous row's ``hash``, its ``hash`` is
recomputed from its own fields, its body decodes, the ``kind`` column matches the
body's tag, and the body is the canonical encoding of its event (what SQL's
``json_extract`` reads is what replay reads: ``codec.canonical_problem``).  The first failing check of the first failing row is the finding.  A
published head (seq + hash) catches truncation and a consistently rewritten tail.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, count
from operator import ne
from typing import Any

from msgspec.structs import astuple

from .codec import GENESIS_HASH, canonical_problem, decode_event, encode, envelope_hash
from .errors import CorruptLog, MalformedHead, MalformedInput
from .log_store import StoredEvent


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
            # values as JSON (what `verify --json` shows), never as Python reprs
            text += f" [{self.field}: recorded {_json(self.recorded)}, recomputed {_json(self.recomputed)}]"
        return text

    def to_json(self) -> dict:
        data = {"match": self.match_id, "seq": self.seq, "problem": self.problem}
        if self.field is not None:
            data.update(field=self.field, recorded=self.recorded, recomputed=self.recomputed)
        return data


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


#: The fewest hex digits a published hash may be cut to (as `log` abbreviates it).
#: Against a forger who can try hashes by the billion (the host, who draws each event's
#: salt, can), a prefix pins only as many bits as it has: 12 digits are 48 bits, and
#: the full 64 digits should be published where a log must be pinned against its host.
HEAD_PREFIX_MIN_DIGITS = 12


def parse_head(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` -> (seq, hash): the hash in full or a prefix of at least
    HEAD_PREFIX_MIN_DIGITS hex digits (lowercased; a trailing "…", as `log` prints an
    abbreviated hash, is dropped)."""
    seq_text, sep, digest = text.partition(":")
    digest = digest.removesuffix("…").lower()
    if (
        not sep
        or not seq_text.isascii()
        or not seq_text.isdigit()
        or not digest
        or any(c not in "0123456789abcdef" for c in digest)
    ):
        raise MalformedHead(text)
    if int(seq_text) < 1:
        raise MalformedInput(f"{text!r}: events are numbered from 1")
    if not HEAD_PREFIX_MIN_DIGITS <= len(digest) <= 64:
        raise MalformedInput(
            f"{text!r}: the hash must have {HEAD_PREFIX_MIN_DIGITS} to 64 hex digits (a prefix of at least "
            f"{HEAD_PREFIX_MIN_DIGITS} stands for the whole hash), not {len(digest)}"
        )
    return int(seq_text), digest


def verify_chain(
    match_id: str,
    rows: Sequence[StoredEvent],
    head: tuple[int, str] | None = None,
    decoded: list | None = None,
    after: tuple[int, str] = (0, GENESIS_HASH),
) -> list[Finding]:
    """The first finding in ``rows`` (the match's rows in seq order, as ``Store.rows``
    reads them), else the finding against ``head`` if one is given, else [].

    ``after``: the (seq, hash) of the event ``rows`` follow; by default the chain's
    start.  A read that starts from a state the log vouches for checks only the rows
    after it, continuing from that event's hash.

    Bodies are decoded up to the first finding; pass a list as ``decoded`` to keep the
    (seq, event) pairs of the rows before it (every row of an intact log) for a replay
    that follows, so nothing is decoded twice.
    """
    after_seq, after_hash = after
    if head is not None and after_seq:
        raise ValueError("a published head is checked against the whole chain")
    if not rows:
        return head_finding(match_id, (), head)
    match_ids, seqs, kinds, bodies, recorded_ats, actors, prev_hashes, hashes = zip(*map(astuple, rows))
    # Each check runs down its whole column at once (an intact log is the common case),
    # as far as the checks before it hold: where each row sits (match, seq), then its
    # hashes (link, own), then its body (decodes, kind).  The first failure is the
    # finding.  ``placed`` and ``hashed`` count the leading rows that pass so far.
    size = len(rows)
    placed = min(
        _first_mismatch(match_ids, (match_id,) * size),
        _first_mismatch(seqs, tuple(range(after_seq + 1, after_seq + size + 1))),
    )
    match_id_json = encode(match_id)
    stored = [body.encode("utf-8") for body in bodies[:placed]]  # hashed, then decoded and compared
    recomputed = tuple(
        [
            envelope_hash(encode(actor), body, kind, match_id_json, prev_hash, encode(recorded_at), seq)
            for seq, kind, body, recorded_at, actor, prev_hash in zip(
                seqs[:placed], kinds, stored, recorded_ats, actors, prev_hashes
            )
        ]
    )
    linked = _first_mismatch(prev_hashes[:placed], (after_hash, *hashes)[:placed])
    hashed = min(linked, _first_mismatch(recomputed, hashes[:placed]))
    events = []
    finding = None
    for seq, kind, body in zip(seqs[:hashed], kinds, stored):
        try:
            event = decode_event(body)
        except CorruptLog as exc:
            finding = Finding(match_id, seq, f"body does not decode: {exc}")
            break
        if type(event).__name__ != kind:
            finding = Finding(
                match_id, seq, "kind column disagrees with the body's type", "kind", kind, type(event).__name__
            )
            break
        if encode(event) != body:  # (an intact log never gets past this comparison)
            problem = canonical_problem(body, event)
            if problem is not None:
                finding = Finding(match_id, seq, f"body is not the canonical encoding of its event: {problem}")
                break
        events.append(event)
    if finding is None and hashed < size:
        finding = _envelope_finding(match_id, rows, hashed, recomputed, after)
    if decoded is not None:
        decoded += zip(seqs, events)
    return [finding] if finding is not None else head_finding(match_id, hashes, head)


def _envelope_finding(
    match_id: str, rows: Sequence[StoredEvent], index: int, recomputed: Sequence[str], after: tuple[int, str]
) -> Finding:
    """The finding at ``rows[index]``, the first row whose place in the chain or own hash
    fails a check (every row before it passes all of them)."""
    row = rows[index]
    expected = after[0] + index + 1
    if row.match_id != match_id:
        return Finding(match_id, row.seq, f"row belongs to match {row.match_id!r}, spliced in")
    if row.seq != expected:
        if row.seq > expected:
            return Finding(match_id, expected, f"event {expected} is missing (next stored seq is {row.seq})")
        return Finding(match_id, row.seq, f"seq {row.seq} appears out of order after seq {expected - 1}")
    prev_hash = rows[index - 1].hash if index else after[1]
    if row.prev_hash != prev_hash:
        # The row before was changed and re-hashed (it verifies alone), or this row
        # was moved here from elsewhere: either way the link between them is broken.
        if recomputed[index] == row.hash and index > 0:
            problem = f"event {row.seq - 1} was altered: its hash is not the one event {row.seq} chains to"
            return Finding(match_id, row.seq - 1, problem, "hash", row.prev_hash, prev_hash)
        return Finding(
            match_id, row.seq, "prev_hash does not link to the previous event", "prev_hash", row.prev_hash, prev_hash
        )
    # The one check left: the row's own hash.
    return Finding(match_id, row.seq, "hash does not match the event's contents", "hash", row.hash, recomputed[index])


def _first_mismatch(column: tuple, expected: tuple) -> int:
    """The first index at which ``column`` differs from ``expected`` (as long), or the
    column's length when it never does."""
    if column == expected:  # an intact log: one comparison at C speed
        return len(column)
    return next(compress(count(), map(ne, column, expected)), len(column))


def head_finding(match_id: str, hashes: Sequence[str], head: tuple[int, str] | None) -> list[Finding]:
    """[] or the one finding of a log whose hashes are ``hashes`` against a published head
    (its hash in full or a prefix, see :func:`parse_head`)."""
    if head is None:
        return []
    head_seq, head_hash = head
    if head_seq > len(hashes):
        return [
            Finding(
                match_id,
                len(hashes) + 1,
                f"log ends at seq {len(hashes)} but the published head is seq {head_seq}: events were removed",
            )
        ]
    # a prefix too short to stand for a hash pins nothing: it is no match, whatever it is
    if len(head_hash) < HEAD_PREFIX_MIN_DIGITS or not hashes[head_seq - 1].startswith(head_hash):
        return [
            Finding(
                match_id,
                head_seq,
                "hash differs from the published head: the log was rewritten",
                "hash",
                hashes[head_seq - 1],
                head_hash,
            )
        ]
    return []
