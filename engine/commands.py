"""What a host asks for.  A front door builds these; ``Game.decide`` turns them into events.

Frozen msgspec Structs: cheap to define (start-up) and to build."""

from __future__ import annotations

from typing import Any

import msgspec


class CreateMatch(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    players: list[str]
    options: dict[str, str] = msgspec.field(default_factory=dict)  # raw KEY=VALUE text
    # Game-specific set-up as given on the command line, e.g. {"studio": text},
    # {"pairs": {"ann": "zed"}}, {"seed": 7} or {"deck": text}.
    setup: dict[str, Any] = msgspec.field(default_factory=dict)


class RecordContract(msgspec.Struct, frozen=True):
    participant: str
    names: list[str]


class Submit(msgspec.Struct, frozen=True):
    participant: str
    tokens: list[str]


class CloseRound(msgspec.Struct, frozen=True):
    # A host-made announcement (issue 6: hand-scored matches) instead of the computed one.
    announced: dict[str, Any] | None = None


class Amend(msgspec.Struct, frozen=True):
    option: str
    value: str  # raw text, parsed by the game's option spec
    from_round: int
    reason: str


class RecordOutcome(msgspec.Struct, frozen=True):
    """The final results the host actually announced (a hand-scored match)."""

    announced: dict[str, Any]


class Void(msgspec.Struct, frozen=True):
    seq: int
    reason: str
    # Allow voiding in the last closed round: its announcements are superseded and the
    # round must be closed again.
    reopen: bool = False


class Correct(msgspec.Struct, frozen=True):
    seq: int
    tokens: list[str]
    reason: str
    reopen: bool = False


class AddNote(msgspec.Struct, frozen=True):
    text: str


Command = CreateMatch | RecordContract | Submit | CloseRound | RecordOutcome | Amend | Void | Correct | AddNote
