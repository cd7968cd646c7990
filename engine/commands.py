"""What a host asks for.  The CLI builds these; ``Game.decide`` turns them into events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CreateMatch:
    match_id: str
    game: str
    players: list[str]
    options: dict[str, str] = field(default_factory=dict)  # raw KEY=VALUE text
    # Game-specific set-up as given on the command line, e.g. {"studio": text},
    # {"pairs": {"ann": "zed"}}, {"seed": 7} or {"deck": text}.
    setup: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RecordContract:
    participant: str
    names: list[str]


@dataclass(frozen=True)
class Submit:
    participant: str
    tokens: list[str]


@dataclass(frozen=True)
class CloseRound:
    # A host-made announcement (issue 6: hand-scored matches) instead of the computed one.
    announced: dict[str, Any] | None = None


@dataclass(frozen=True)
class Amend:
    option: str
    value: str  # raw text, parsed by the game's option spec
    from_round: int
    reason: str


@dataclass(frozen=True)
class RecordOutcome:
    """The final results the host actually announced (a hand-scored match)."""

    announced: dict[str, Any]


@dataclass(frozen=True)
class Void:
    seq: int
    reason: str
    # Allow voiding in the last closed round: its announcements are superseded and the
    # round must be closed again.
    reopen: bool = False


@dataclass(frozen=True)
class Correct:
    seq: int
    tokens: list[str]
    reason: str
    reopen: bool = False


@dataclass(frozen=True)
class AddNote:
    text: str


Command = CreateMatch | RecordContract | Submit | CloseRound | RecordOutcome | Amend | Void | Correct | AddNote
