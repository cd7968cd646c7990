"""What a host asks for.  A front door builds these; ``Game.decide`` turns them into events.

Frozen msgspec Structs: cheap to define (start-up) and to build.  Building one checks
its free text against the limits (tokens, notes and reasons: :mod:`matchledger.ledger.validation`),
so that no front door can hand the engine an unbounded or unprintable value; what a
value means (a cell, a participant) is the game's to check.
"""

from __future__ import annotations

from typing import Any

import msgspec

from matchledger.ledger.validation import check_text, check_tokens


class CreateMatch(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    players: list[str]
    options: dict[str, str] = msgspec.field(default_factory=dict)  # raw KEY=VALUE text
    # Game-specific set-up as given on the command line, e.g. {"studio": text},
    # {"pairs": {"ann": "zed"}}, {"seed": 7} or {"deck": text}.
    setup: dict[str, Any] = msgspec.field(default_factory=dict)

    def __post_init__(self):
        check_tokens([*self.options, *self.options.values()], "option")


class RecordContract(msgspec.Struct, frozen=True):
    participant: str
    names: list[str]

    def __post_init__(self):
        check_tokens(self.names, "contract")


class Submit(msgspec.Struct, frozen=True):
    participant: str
    tokens: list[str]

    def __post_init__(self):
        check_tokens(self.tokens)


class CloseRound(msgspec.Struct, frozen=True):
    # A host-made announcement (issue 6: hand-scored matches) instead of the computed one.
    announced: dict[str, Any] | None = None
    # Close although participants have not submitted, where the rules allow it (recorded
    # with the reason and who was missing).
    force: bool = False
    reason: str = ""

    def __post_init__(self):
        if self.reason:
            check_text(self.reason, "reason")


class Reopen(msgspec.Struct, frozen=True):
    """Reopen the last closed round: its announcements are superseded until it closes again."""

    reason: str

    def __post_init__(self):
        check_text(self.reason, "reason")


class Abandon(msgspec.Struct, frozen=True):
    """Give the match up: it takes no more events (nothing is deleted)."""

    reason: str

    def __post_init__(self):
        check_text(self.reason, "reason")


class Amend(msgspec.Struct, frozen=True):
    option: str
    value: str  # raw text, parsed by the game's option spec
    from_round: int
    reason: str

    def __post_init__(self):
        check_tokens([self.option, self.value], "option")
        check_text(self.reason, "reason")


class RecordOutcome(msgspec.Struct, frozen=True):
    """The final results the host actually announced (a hand-scored match)."""

    announced: dict[str, Any]


class Void(msgspec.Struct, frozen=True):
    seq: int
    reason: str
    # Allow voiding in the last closed round: its announcements are superseded and the
    # round must be closed again.
    reopen: bool = False

    def __post_init__(self):
        check_text(self.reason, "reason")


class Correct(msgspec.Struct, frozen=True):
    seq: int
    tokens: list[str]
    reason: str
    reopen: bool = False

    def __post_init__(self):
        check_tokens(self.tokens)
        check_text(self.reason, "reason")


class AddNote(msgspec.Struct, frozen=True):
    text: str

    def __post_init__(self):
        check_text(self.text, "note")


Command = (
    CreateMatch
    | RecordContract
    | Submit
    | CloseRound
    | Reopen
    | RecordOutcome
    | Amend
    | Void
    | Correct
    | AddNote
    | Abandon
)
