"""What a host asks for.  A front door builds these; ``Game.decide`` turns them into events.

Frozen msgspec Structs: cheap to define (start-up) and to build.  Building one checks
its free text against the limits (tokens, notes and reasons: :mod:`matchledger.ledger.validation`),
so that no front door can hand the engine an unbounded or unprintable value; what a
value means (a cell, a participant) is the game's to check.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec.structs import force_setattr

from matchledger.ledger.validation import check_text, check_tokens

#: What separates two tokens besides whitespace.  People write lists with commas
#: (``A1, B1, D1``, ``A1,B1``), and no game's token may hold one: a token is a cell
#: name, a number, a word, ``FROM:TO`` or ``TYPE:NAME``, and names are letters, digits,
#: ``-``, ``_`` and ``.`` (``tests/engine/test_token_separators.py`` holds every game to it).
SEPARATOR = ","
#: The commas a phone's Chinese or Japanese keyboard types where others type ",": the
#: full-width one (U+FF0C) and the ideographic one (U+3001); they separate as "," does.
OTHER_COMMAS = {ord("\uff0c"): SEPARATOR, ord("\u3001"): SEPARATOR}


def split_typed(words: Iterable[str]) -> list[str]:
    """The tokens ``words`` hold, as a participant or host typed them: each word split
    at whitespace and commas, the empty pieces left out."""
    return [
        token for word in words for piece in word.translate(OTHER_COMMAS).split(SEPARATOR) for token in piece.split()
    ]


def _typed_tokens(command: Any) -> None:
    """Split a command's tokens as typed, then check them (bounded and printable, naming
    the bad one): every door (the command line, ``script``, the service's form and JSON
    API) builds its command here, so each reads ``A1, B1`` alike."""
    tokens = command.tokens
    if any(
        token.__class__ is not str
        or SEPARATOR in token
        or " " in token
        or not token
        or token != token.translate(OTHER_COMMAS)
        for token in tokens
    ) and all(token.__class__ is str and token.isprintable() for token in tokens):
        # Only printable text is split (its one whitespace is the space): a control
        # character is refused as given, never split away.
        force_setattr(command, "tokens", split_typed(tokens))
    check_tokens(command.tokens)


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
    tokens: list[str]  # split as typed: "A1, B1" and "A1,B1" are ["A1", "B1"]

    def __post_init__(self):
        _typed_tokens(self)


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
        _typed_tokens(self)
        check_text(self.reason, "reason")


class AddNote(msgspec.Struct, frozen=True):
    text: str

    def __post_init__(self):
        check_text(self.text, "note")


class SetDeadline(msgspec.Struct, frozen=True):
    """Set or move the open round's (or turn's) deadline, and/or give every later one a
    deadline ``each`` seconds after it opens (0: no more), and/or have a reminder posted
    ``remind`` seconds before each deadline.  ``now``: the time the door read, recorded
    with the deadline; ``at`` is later than it (both UTC)."""

    now: str
    at: str | None = None
    each: int | None = None
    reason: str = ""
    remind: int | None = None

    def __post_init__(self):
        if self.reason:
            check_text(self.reason, "reason")


class ClearDeadline(msgspec.Struct, frozen=True):
    """The open round has no deadline any more, and later rounds get none."""

    reason: str = ""

    def __post_init__(self):
        if self.reason:
            check_text(self.reason, "reason")


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
    | SetDeadline
    | ClearDeadline
)
