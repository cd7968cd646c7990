"""Receipts: a participant who submits through the service is handed ``SEQ:HASH``, the
seq and hash of the event that recorded their move.  A receipt is proven when the
log's chain holds from the first event up to that seq and the event there carries that
hash: the hash covers the event's body and, through ``prev_hash``, everything before it,
so nobody can have dropped, edited or moved the submission without the receipt failing.
"""

from __future__ import annotations

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.store import StoredEvent
from matchledger.ledger.verify import Finding, parse_head, verify_chain


def parse_receipt(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` as the service prints it."""
    try:
        seq, digest = parse_head(text)
    except MalformedInput:
        seq, digest = 0, ""
    if len(digest) != 64:  # a receipt is the whole hash, never a prefix of it
        raise MalformedInput(f"--receipt must be SEQ:HASH with a 64-digit hex hash, got {text!r}")
    return seq, digest


def receipt_finding(match_id: str, rows: list[StoredEvent], receipt: tuple[int, str]) -> Finding | None:
    """None when the event the receipt names is in the verified chain; else why not."""
    seq, digest = receipt
    shown = f"receipt {seq}:{digest[:16]}…"
    chain = verify_chain(match_id, rows[:seq])
    if chain:
        return Finding(match_id, chain[0].seq, f"{shown} cannot be proven: the chain does not hold up to it ({chain[0].problem})")
    if seq > len(rows):
        return Finding(match_id, seq, f"{shown} names an event the log does not hold (it ends at seq {len(rows)}): events were removed")
    if rows[seq - 1].hash != digest:
        return Finding(match_id, seq, f"{shown}: the event at seq {seq} has another hash: the log was rewritten", "hash", rows[seq - 1].hash, digest)
    return None
