"""`rescore`: a match replayed under another ruling.  Nothing is written."""

from __future__ import annotations

from typing import Any

import msgspec

from matchledger.engine.state import MatchState
from matchledger.ledger.events import Event, MatchCreated, NoteAdded, RuleAmended

from .fold import replay


def rescore(match_id: str, pairs: list[tuple[int, Event]], overrides: dict[str, Any]) -> MatchState:
    """Replay ``pairs`` with ``overrides`` in force from the start (amendments of the
    same options are set aside); returns the state."""
    changed: list[tuple[int, Event]] = []
    for seq, event in pairs:
        if isinstance(event, MatchCreated):
            event = msgspec.structs.replace(event, options={**event.options, **overrides})
        elif isinstance(event, RuleAmended) and event.option in overrides:
            event = NoteAdded(text=f"(rescore: amendment of {event.option} set aside)")
        changed.append((seq, event))
    return replay(match_id, changed)
