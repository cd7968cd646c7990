"""Re-derivation: replay a match and recompute every recorded announcement.

The chain proves the log was not altered after the fact; this proves that what the
host announced (each round's reveal, each private notice, the final outcome) is what
the rules give for the recorded moves.  The first divergence is reported precisely.
"""

from __future__ import annotations

from typing import Any, Iterable

import msgspec

from ledger.errors import MatchledgerError
from ledger.events import ANNOUNCEMENTS, Event
from ledger.verify import Finding

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


def rederive(match_id: str, pairs: Iterable[tuple[int, Event]]) -> list[Finding]:
    """Findings for the first announcement that the engine does not reproduce."""
    replayer = Replayer(match_id)
    for seq, event in pairs:
        try:
            if replayer.state is not None and isinstance(event, ANNOUNCEMENTS):
                expected = replayer.game.rederive(replayer.state, event)
                if expected is not None:
                    diff = first_difference(msgspec.to_builtins(event), msgspec.to_builtins(expected))
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
            replayer.feed(seq, event)
        except MatchledgerError as exc:
            return [Finding(match_id, seq, f"replay stops here: {exc}")]
    return []
