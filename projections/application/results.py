"""What the application answers with: small frozen values a door renders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import msgspec

from matchledger.engine.state import MatchState, View
from matchledger.ledger.log_store import StoredEvent
from matchledger.ledger.verify import Finding

from ..read_models import Readings
from ..supersession import Fate, VoidEffect


@dataclass(frozen=True)
class Recorded(Sequence[StoredEvent]):
    """What a write recorded: its rows, in seq order (the value iterates, indexes and
    counts them), and what they did to what was recorded before: ``supersedes`` maps a
    resubmission's (or a later contract record's) seq to the seq it superseded;
    ``voids`` a void's seq to what else it did (what counts again, what it took back)."""

    rows: tuple[StoredEvent, ...] = ()
    supersedes: Mapping[int, int] = field(default_factory=dict)
    voids: Mapping[int, VoidEffect] = field(default_factory=dict)

    @overload
    def __getitem__(self, index: int) -> StoredEvent: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[StoredEvent]: ...

    def __getitem__(self, index):
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)


class Reading(msgspec.Struct, frozen=True):
    """One account of a match in one view, and the state it was read from."""

    state: MatchState
    view: View
    data: dict


class LogReading(msgspec.Struct, frozen=True):
    """The events of a match one view may know of, each with what it may see of it, and
    what became of each that no longer counts (seq -> its fate, as `log` marks it);
    ``readings``: the read models asked for, of the state the same fold reached."""

    view: View
    entries: list[tuple[StoredEvent, dict]]
    marks: dict[int, Fate]
    readings: Readings
    #: the seqs of the shown submissions recorded after their round's deadline
    late: frozenset[int] = frozenset()


class Audit(msgspec.Struct, frozen=True):
    report: dict  # JSON-ready
    findings: list[Finding]


class MatchSummary(msgspec.Struct, frozen=True):
    """One line of `list`: where a match stands, or why it cannot be read."""

    match: str
    game: str | None = None
    players: list[str] = []
    round_word: str = "round"  # what ``round`` counts: a round, or a photographer turn
    round: int | None = None  # the round or turn now open; None once play is over
    finished: bool = False
    abandoned: int | None = None  # the seq of the event that abandoned it
    head: tuple[int, str] | None = None  # (seq, hash), once the chain is checked
    problem: str | None = None  # why the match cannot be read (its chain does not verify)
    error: Any = None  # the error that says so, for a front door to word (never in to_json)
    not_installed: str | None = None  # why it cannot be read here: its game is not installed

    def to_json(self) -> dict:
        return {
            "match": self.match,
            "game": self.game,
            "players": list(self.players),
            self.round_word: self.round,
            "finished": self.finished,
            "abandoned": self.abandoned is not None,
            "head": None if self.head is None else f"{self.head[0]}:{self.head[1]}",
            **({"abandoned_at": self.abandoned} if self.abandoned is not None else {}),
            **({"problem": self.problem} if self.problem is not None else {}),
            **({"not_installed": self.not_installed} if self.not_installed is not None else {}),
        }


class Due(msgspec.Struct, frozen=True):
    """A match whose open round (or turn) is past its deadline, and what closing it would
    mean: ``missing``, who has not submitted (the host's to know); ``closable``, whether
    the rules let the round close now (everyone in, or a missing submission counting as
    none, as `close --force` does); False for a turn, which no close ends."""

    match: str
    round_word: str
    round: int
    deadline: str
    missing: list[str]
    closable: bool


class Checkpointed(msgspec.Struct, frozen=True):
    """A checkpoint: the seq its snapshot's state follows, and the event recorded for it
    (none when the log already vouched for that snapshot)."""

    seq: int
    rows: list[StoredEvent]


class Rescored(msgspec.Struct, frozen=True):
    overrides: dict[str, Any]
    recorded: dict
    rescored: dict


class Announced(msgspec.Struct, frozen=True):
    """What a round's close (or a turn) told everyone: the read models `messages` is
    built from, as they stood once the close was recorded (event ``seq``).  ``public``:
    `reveals --public` (None when not asked for); ``knowledge``: `knowledge --as P` of
    each participant asked for, in the canonical order (players, then guests, each
    sorted by name)."""

    match: str
    game: str
    round: int
    seq: int
    public: dict | None
    knowledge: dict[str, dict]
    #: the deadline of the round (or turn) the close opened, set with it (`status`'s
    #: ``deadline``; None: none); deadlines are public
    deadline: dict | None = None
    #: A round closed again after a reopening (or a turn played again): the seq of the
    #: close it replaces and `reveals --public` as that close left it (None: the first
    #: close, or the public post not asked for).
    earlier_seq: int | None = None
    earlier_public: dict | None = None

    @property
    def earlier(self) -> tuple[int, dict] | None:
        """The close this one replaces, as its seq and `reveals --public` then (None: none)."""
        if self.earlier_seq is None or self.earlier_public is None:
            return None
        return self.earlier_seq, self.earlier_public
