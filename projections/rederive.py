"""Re-derivation: replay a match and recompute every recorded announcement.

The chain proves the log was not altered after the fact; this proves that what the
host announced (each round's reveal, each private notice, the final outcome) is what
the rules give for the recorded moves.  The first divergence is reported precisely.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import msgspec
from matchledger.ledger.codec import encode
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.events import Event, OutcomeAnnounced, StateCheckpointed, salted
from matchledger.ledger.verify import Finding

from . import snapshots
from .fold import Replayer

_IGNORED_FIELDS = {"source", "v", "type"}


def first_difference(recorded: Any, recomputed: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first path at which two JSON values differ, in a stable order."""
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        for key in sorted(set(recorded) | set(recomputed), key=str):
            if not path and key in _IGNORED_FIELDS:
                continue
            child = f"{path}.{key}" if path else str(key)
            if key not in recorded:
                return child, None, recomputed[key]
            if key not in recomputed:
                return child, recorded[key], None
            found = first_difference(recorded[key], recomputed[key], child)
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(recomputed, list):
        for index, (a, b) in enumerate(zip(recorded, recomputed)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(recorded) != len(recomputed):
            return f"{path}.length", len(recorded), len(recomputed)
        return None
    if recorded != recomputed or type(recorded) is not type(recomputed) and not (
        isinstance(recorded, (int, float)) and isinstance(recomputed, (int, float))
    ):
        return path, recorded, recomputed
    return None


def rederive(
    match_id: str,
    pairs: Iterable[tuple[int, Event]],
    bodies: Sequence[str] | None = None,
    snapshot: tuple[int, bytes] | None = None,
) -> list[Finding]:
    """Findings for the first announcement that the engine does not reproduce.

    ``bodies``: the stored bodies the events were decoded from, one per pair, if known.
    An announcement whose stored body already is the recomputed encoding is not encoded
    again: engine output decoded and re-encoded gives back the same bytes
    (tests/audit/test_fast_paths.py), so the comparison's answer is the same.

    ``snapshot``: (seq, body) of the state snapshot stored for the match, which reads
    would start from; it is compared with the state this replay reaches at that seq.
    """
    replayer = Replayer(match_id)
    snapshot_seq, snapshot_body = snapshot if snapshot is not None else (None, b"")
    for index, (seq, event) in enumerate(pairs):
        try:
            if replayer.state is None:
                replayer.feed(seq, event)
                if seq == snapshot_seq and snapshots.holds_another_state(snapshot_body, replayer.state):
                    return [_snapshot_finding(match_id, seq)]
                continue
            if isinstance(event, StateCheckpointed):
                found = _checkpoint_finding(match_id, seq, event, snapshot_seq, snapshot_body)
                if found is not None:
                    return [found]
            expected = replayer.feed_and_rederive(seq, event)
            if expected is not None and event.salt:
                expected = salted(expected, event.salt)  # the salt is the recorder's, not a rule's
            if seq == snapshot_seq and snapshots.holds_another_state(snapshot_body, replayer.state):
                return [_snapshot_finding(match_id, seq)]
            if expected is not None and _differs(event, encode(expected), None if bodies is None else bodies[index]):
                recorded, recomputed = msgspec.to_builtins(event), msgspec.to_builtins(expected)
                if isinstance(event, OutcomeAnnounced) and event.source == "host":
                    # A host enters only the results; the public subset is not theirs to state.
                    recorded.pop("public", None)
                    recomputed.pop("public", None)
                diff = first_difference(recorded, recomputed)
                if diff is not None:
                    field, recorded, recomputed = diff
                    return [
                        Finding(
                            match_id,
                            seq,
                            f"{type(event).__name__} differs from what the rules give",
                            field,
                            recorded,
                            recomputed,
                        )
                    ]
        except MatchledgerError as exc:
            return [Finding(match_id, seq, f"replay stops here: {exc}")]
    return []


def _checkpoint_finding(
    match_id: str, seq: int, event: StateCheckpointed, snapshot_seq: int | None, snapshot_body: bytes
) -> Finding | None:
    """A checkpoint records the state right before it; and the stored snapshot of that
    state, by this engine, must be the very bytes it vouches for (reads trust nothing else)."""
    misplaced = checkpoint_out_of_place(match_id, seq, event)
    if misplaced is not None:
        return misplaced
    if snapshot_seq == event.seq and event.revision == snapshots.revision() and snapshots.digest(snapshot_body) != event.digest:
        return Finding(
            match_id,
            seq,
            f"the stored snapshot after event {event.seq} is not the one this checkpoint vouches for (reads "
            "ignore it; `matchledger checkpoint` replaces it)",
            "digest",
            snapshots.digest(snapshot_body),
            event.digest,
        )
    return None


def checkpoint_out_of_place(match_id: str, seq: int, event: StateCheckpointed) -> Finding | None:
    """A checkpoint records the state right before it: the log contradicts itself when
    one at ``seq`` says otherwise (events were inserted or removed before it, and the
    chain re-hashed).  Reads refuse such a log too (`reading.py`)."""
    if event.seq != seq - 1:
        return Finding(match_id, seq, f"the checkpoint records the state after event {event.seq}, not the event before it")
    return None


def _snapshot_finding(match_id: str, seq: int) -> Finding:
    return Finding(
        match_id,
        seq,
        "the stored snapshot after this event holds another state than the log gives, and reads start "
        "from it (run `matchledger checkpoint` to replace it)",
    )


def _differs(event: Event, expected: bytes, body: str | None) -> bool:
    """Whether ``event`` encodes to other bytes than ``expected`` (an encoding); ``body``
    is the stored text ``event`` was decoded from, if known."""
    if body is not None and body.encode("utf-8") == expected:
        return False
    return encode(event) != expected
