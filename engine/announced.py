"""What every game's announcement types share, and how an announcement is checked.

A host enters an announcement by hand (``close --announced``: a round's ``{"public",
"private"}``, as its entry in ``reveals --json``; ``outcome --announced``: the results,
as ``outcome --json``).  Each game defines the shape of what it announces once, as
msgspec Structs in its ``announcements`` module, with ``check_round(state, round_no,
announcement)``, ``check_outcome(state, outcome)`` and ``check_public_outcome(state,
outcome)``.  A check converts the JSON to the game's types (which bound every list the
rules bound, and so its depth) and then checks what types cannot: names that are
participants, cells inside the studio.  The engine's own announcements pass the same
checks; the fold applies them to what a log records, so that no read meets an
announcement of another shape.  Before any of this, ``decide`` bounds what a host hands
over (JSON_MAX_DEPTH, ANNOUNCED_FILE_MAX_BYTES).
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Iterable, Literal, TypeVar

import msgspec
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import PARTICIPANTS_MAX
from matchledger.ledger.validation import check_text, quoted
from msgspec import UNSET, Meta, UnsetType

from .state import MatchState

Shape = TypeVar("Shape", bound=msgspec.Struct)
ScoresT = TypeVar("ScoresT")
StandingT = TypeVar("StandingT")

#: A count or a number of shards: never negative.
Count = Annotated[int, Meta(ge=0)]
#: Names of participants: no longer a list than a match has participants.
Names = Annotated[list[str], Meta(max_length=PARTICIPANTS_MAX)]


class Announced(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every announcement type: a field the game does not announce is refused."""


class Award(Announced, kw_only=True):
    """One award of an outcome (lca, pw): shards with a ToL, a shard onto one, shards to
    the inventory, a mark, an EC."""

    participant: str
    kind: Literal["tol", "tol_shard", "shards", "mark", "ec"]
    shards: Count | UnsetType = UNSET
    reason: str


class OutcomeHead(Announced, kw_only=True):
    """What every ``outcome --json`` starts with; a host may leave it out."""

    match: str | UnsetType = UNSET
    game: str | UnsetType = UNSET
    finished: bool | UnsetType = UNSET


class Standing(Announced, Generic[ScoresT]):
    """A line of the final table: a player, their rank, their total and the game's scores."""

    participant: str
    rank: Annotated[int, Meta(ge=1)]
    total: int
    scores: ScoresT


class Outcome(OutcomeHead, Generic[StandingT], kw_only=True):
    """``outcome --json``: the final table and the awards."""

    standings: Annotated[list[StandingT], Meta(max_length=PARTICIPANTS_MAX)]
    awards: list[Award]


def conform(value: Any, shape: type[Shape], what: str) -> Shape:
    """``value`` (decoded JSON) as ``shape``, or MalformedInput naming where it differs."""
    try:
        return msgspec.convert(value, shape)
    except msgspec.ValidationError as exc:
        raise MalformedInput(f"{what} is not in the shape the game announces: {exc}") from None


def members(names: Iterable[str], allowed: Iterable[str], what: str, noun: str = "participant") -> None:
    """Refuse a name in ``names`` that is not among ``allowed``."""
    allowed = set(allowed)
    for name in names:
        if name not in allowed:
            raise MalformedInput(f"{what}: {quoted(name)} is not a {noun} of this match")


def distinct(names: list[str], what: str) -> None:
    """Refuse a name listed twice."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise MalformedInput(f"{what}: {quoted(name)} is listed twice")
        seen.add(name)


def check_round_number(given: int | UnsetType, round_no: int, what: str) -> None:
    """A round's announcement may say its round (as `reveals --json` shows it): the
    round being closed."""
    if given is not UNSET and given != round_no:
        raise MalformedInput(f"{what} is for round {quoted(given)}, but round {round_no} is the one closing")


def check_awards(state: MatchState, awards: list[Award], what: str) -> None:
    """Awards go to players, each for a reason that is printable text."""
    members([award.participant for award in awards], state.players, f"{what}, awards", "player")
    for award in awards:
        check_text(award.reason, f"{what}: the reason of an award")


def check_outcome(state: MatchState, outcome: Any, shape: type[Outcome], what: str) -> Outcome:
    """``outcome`` as ``shape`` (a game's :class:`Outcome`): this match and game, finished,
    its table naming each player at most once, its awards going to players."""
    announced = conform(outcome, shape, what)
    check_head(state, announced, what)
    ranked = [standing.participant for standing in announced.standings]
    members(ranked, state.players, f"{what}, standings", "player")
    distinct(ranked, f"{what}, standings")
    check_awards(state, announced.awards, what)
    return announced


def check_head(state: MatchState, head: OutcomeHead, what: str) -> None:
    """An outcome's match and game, if given, are this match's; it is a finished one."""
    if head.match is not UNSET and head.match != state.match_id:
        raise MalformedInput(f"{what} is for match {quoted(head.match)}, not {quoted(state.match_id)}")
    if head.game is not UNSET and head.game != state.game:
        raise MalformedInput(f"{what} is for game {quoted(head.game)}, not {quoted(state.game)}")
    if head.finished is False:
        raise MalformedInput(f"{what} says the match is not finished; the results are entered once it is")
