"""The event types: frozen, tagged msgspec Structs, one union for them all.

Schema evolution follows msgspec's rules: a new field always gets a default, an
existing field never changes type, and a change that cannot be expressed that way bumps
the event's ``v`` and adds a named upcaster in :mod:`ledger.upcasters`.

Events name what happened (past tense).  Game-specific payloads (a studio, a pairing,
a deck order, a round's announcements) are plain JSON values inside the generic events,
so the ledger needs no knowledge of any game.
"""

from __future__ import annotations

import secrets
from typing import Any, Union, get_args

import msgspec


class Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, kw_only=True):
    """Base of every event.  ``v`` is the schema version of the stored body.

    ``salt``: random hex the application draws for each event it records (never the
    engine, which is pure).  Every event's hash is public, and a hash over a secret with
    few possible values (a pairing, a wind) would let anyone confirm a guess; the salt,
    seen only by the host, makes every body unguessable.  Left unset it is not written at
    all, so a body recorded before salts existed keeps its bytes and its hash.
    """

    v: int = 1
    salt: str | msgspec.UnsetType = msgspec.UNSET


class MatchCreated(Event, frozen=True, kw_only=True):
    """A match was set up: its game, its players in listed order and its ruleset.

    ``setup`` holds what the game needs to replay deterministically (a studio map, the
    secret pairing, the whole deck order); it is host-only knowledge.
    """

    game: str
    players: list[str]
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}


class ContractRecorded(Event, frozen=True, kw_only=True):
    """A player's contract choice (a later record for the same player replaces it)."""

    participant: str
    contracts: list[str]


class SubmissionRecorded(Event, frozen=True, kw_only=True):
    """A participant's submission for a round (or a photographer turn), normalized."""

    v: int = 2
    participant: str
    round: int
    tokens: list[str]


class RoundClosed(Event, frozen=True, kw_only=True):
    """A round was closed; carries what was announced publicly and privately.

    ``source`` is ``computed`` when the engine derived the announcement and ``host``
    when the host entered the announcement they actually made (hand-scored matches).

    ``reason`` and ``missing``: set only when the host closed the round although some
    participants had not submitted (``close --force``, where the rules let a missing
    submission count as none): why, and who (in the canonical order).  Unset, they are
    not written, so an ordinary close encodes exactly as before they existed.
    """

    round: int
    public: dict[str, Any] = {}
    private: dict[str, Any] = {}
    source: str = "computed"
    reason: str | msgspec.UnsetType = msgspec.UNSET
    missing: list[str] | msgspec.UnsetType = msgspec.UNSET


class TurnResolved(Event, frozen=True, kw_only=True):
    """A turn-based game resolved a turn; carries its public and private announcements."""

    turn: int
    participant: str
    public: dict[str, Any] = {}
    private: dict[str, Any] = {}


class OutcomeAnnounced(Event, frozen=True, kw_only=True):
    """The match ended; ``outcome`` is the host's full result, ``public`` what was announced."""

    outcome: dict[str, Any]
    public: dict[str, Any] = {}
    source: str = "computed"


class RuleAmended(Event, frozen=True, kw_only=True):
    """A ruleset option changed from a given round on, for a stated reason."""

    option: str
    value: Any
    from_round: int
    reason: str


class SubmissionVoided(Event, frozen=True, kw_only=True):
    """The submission recorded at ``target_seq`` no longer counts."""

    target_seq: int
    reason: str


class SubmissionCorrected(Event, frozen=True, kw_only=True):
    """The submission at ``target_seq`` is superseded by ``tokens``."""

    target_seq: int
    tokens: list[str]
    reason: str


class RoundReopened(Event, frozen=True, kw_only=True):
    """A closed round's announcements are superseded; the round must be closed again."""

    round: int
    reason: str


class MatchAbandoned(Event, frozen=True, kw_only=True):
    """The host gave the match up (mis-created, never to be played): it takes no more
    events, and stays in the log and readable like any other."""

    reason: str


class NoteAdded(Event, frozen=True, kw_only=True):
    """A free-text note from the host; changes no state."""

    text: str


class DeadlineSet(Event, frozen=True, kw_only=True):
    """A deadline for the open ``round`` (a turn, in a game of turns), set or moved by the
    host, or scheduled when a round opened while a period was in force.

    ``now``: the time the door read when the deadline was set (UTC, as ``recorded_at``);
    ``at``: the deadline itself (UTC, ``YYYY-MM-DDTHH:MM:SSZ``), later than ``now``;
    ``each``: seconds after which every later round's deadline falls once it opens (0
    stops the schedule); ``remind``: seconds before each deadline (this one and later
    ones) at which a running `serve` posts a reminder to the hooks that ask for one.
    A field left unset is not written and changes nothing.  Both
    times are in the body so that re-deciding the event needs no envelope: the engine
    never reads a clock."""

    round: int
    now: str
    at: str | msgspec.UnsetType = msgspec.UNSET
    each: int | msgspec.UnsetType = msgspec.UNSET
    reason: str | msgspec.UnsetType = msgspec.UNSET
    remind: int | msgspec.UnsetType = msgspec.UNSET


class DeadlineCleared(Event, frozen=True, kw_only=True):
    """The open ``round`` has no deadline any more, no later round gets one, and no
    reminder is posted."""

    round: int
    reason: str | msgspec.UnsetType = msgspec.UNSET


class StateCheckpointed(Event, frozen=True, kw_only=True):
    """The state the log gives after event ``seq`` was stored as a snapshot by engine
    ``revision``; ``digest`` is the sha256 of the snapshot's bytes.  The digest, chained
    like every event, is what lets a read start from that snapshot: a cached state is
    trusted only when the log vouches for it."""

    seq: int
    revision: str
    digest: str


AnyEvent = Union[  # noqa: UP007 (one name per line reads better than a 20-term `|` chain)
    MatchCreated,
    ContractRecorded,
    SubmissionRecorded,
    RoundClosed,
    TurnResolved,
    OutcomeAnnounced,
    RuleAmended,
    SubmissionVoided,
    SubmissionCorrected,
    RoundReopened,
    NoteAdded,
    StateCheckpointed,
    MatchAbandoned,
    DeadlineSet,
    DeadlineCleared,
]

EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in get_args(AnyEvent)}

#: Events that carry announcements the engine can re-derive on replay.
ANNOUNCEMENTS = (RoundClosed, TurnResolved, OutcomeAnnounced)


def kind_of(event: Event) -> str:
    return type(event).__name__


#: Bytes of randomness in a salt: guessing it is as hard as guessing a 128-bit key.
SALT_BYTES = 16


def new_salt() -> str:
    """A fresh salt for one event (from the operating system's secure random source)."""
    return secrets.token_hex(SALT_BYTES)


def salted(event: Event, salt: str) -> Event:
    """``event`` carrying ``salt`` (unchanged when ``salt`` is empty)."""
    return msgspec.structs.replace(event, salt=salt) if salt else event


def unsalted(event: Event) -> Event:
    """``event`` as the engine decides it: without the salt it was recorded with."""
    return msgspec.structs.replace(event, salt=msgspec.UNSET) if event.salt is not msgspec.UNSET else event
