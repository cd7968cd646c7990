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

from collections.abc import Iterable
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import PARTICIPANTS_MAX
from matchledger.ledger.validation import check_text, quoted

from .state import MatchState

Shape = TypeVar("Shape", bound=msgspec.Struct)
ScoresT = TypeVar("ScoresT")
StandingT = TypeVar("StandingT")

#: A count or a number of shards: never negative.
Count = Annotated[int, Meta(ge=0)]
#: Names of participants: no longer a list than a match has participants.
Names = Annotated[list[str], Meta(max_length=PARTICIPANTS_MAX)]


class Announced(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every announcement type: a field the game does not announce is refused.

    Each subclass says ``frozen=True`` again: msgspec inherits it, but a type checker
    reads it from each class's own line."""


class Award(Announced, kw_only=True, frozen=True):
    """One award of an outcome (lca, pw): shards with a ToL, a shard onto one, shards to
    the inventory, a mark, an EC."""

    participant: str
    kind: Literal["tol", "tol_shard", "shards", "mark", "ec"]
    shards: Count | UnsetType = UNSET
    reason: str


class OutcomeHead(Announced, kw_only=True, frozen=True):
    """What every ``outcome --json`` starts with; a host may leave it out."""

    match: str | UnsetType = UNSET
    game: str | UnsetType = UNSET
    finished: bool | UnsetType = UNSET


class Standing(Announced, Generic[ScoresT], frozen=True):
    """A line of the final table: a player, their rank, their total and the game's scores."""

    participant: str
    rank: Annotated[int, Meta(ge=1)]
    total: int
    scores: ScoresT


class ContractResult(Announced, kw_only=True, frozen=True):
    """One contract and whether it succeeded (lca, pw): ``target``, the player a pw
    Sabotage Pact names."""

    participant: str
    contract: str
    target: str | UnsetType = UNSET
    succeeded: bool


#: A player holds at most two contracts (one chosen, and a pact).
ContractResults = Annotated[list[ContractResult], Meta(max_length=2 * PARTICIPANTS_MAX)]


class Outcome(OutcomeHead, Generic[StandingT], kw_only=True, frozen=True):
    """``outcome --json``: the final table, the awards and the contract results (which
    an outcome recorded before they were announced, or entered by a host, may lack)."""

    standings: Annotated[list[StandingT], Meta(max_length=PARTICIPANTS_MAX)]
    awards: list[Award]
    contracts: ContractResults | UnsetType = UNSET


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


def check_contracts(
    state: MatchState,
    results: list[ContractResult] | UnsetType,
    kinds: Iterable[str],
    targeted: Iterable[str],
    what: str,
) -> None:
    """Contract results name players, each contract one of the game's ``kinds`` and at
    most once per player; a contract in ``targeted`` names another player, no other one does."""
    if results is UNSET:
        return
    kinds, targeted = set(kinds), set(targeted)
    members([result.participant for result in results], state.players, f"{what}, contracts", "player")
    distinct([f"{result.participant} {result.contract}" for result in results], f"{what}, contracts")
    for result in results:
        if result.contract not in kinds:
            raise MalformedInput(f"{what}, contracts: {quoted(result.contract)} is not a contract of {state.game}")
        if (result.target is not UNSET) != (result.contract in targeted):
            needs = "names" if result.contract in targeted else "names no"
            raise MalformedInput(f"{what}, contracts: a {quoted(result.contract)} contract {needs} target")
        if result.target == result.participant:
            raise MalformedInput(f"{what}, contracts: {quoted(result.participant)} names themselves in a pact")
        if result.target is not UNSET:
            members([result.target], state.players, f"{what}, contracts, target", "player")


def check_outcome(
    state: MatchState,
    outcome: Any,
    shape: type[Outcome],
    what: str,
    kinds: Iterable[str] = (),
    targeted: Iterable[str] = (),
) -> Outcome:
    """``outcome`` as ``shape`` (a game's :class:`Outcome`): this match and game, finished,
    its table naming each player at most once, its awards going to players, its contract
    results (if given) naming players and the game's contracts (``kinds``)."""
    announced = conform(outcome, shape, what)
    check_head(state, announced, what)
    ranked = [standing.participant for standing in announced.standings]
    members(ranked, state.players, f"{what}, standings", "player")
    distinct(ranked, f"{what}, standings")
    check_awards(state, announced.awards, what)
    check_contracts(state, announced.contracts, kinds, targeted, what)
    return announced


#: The field an outcome gained when every contract's result came to be announced.
CONTRACT_RESULTS = "contracts"


def in_recorded_shape(recorded: Any, outcome: dict, public: dict) -> tuple[dict, dict]:
    """The outcome and public outcome the rules give, in the shape of the ``recorded``
    outcome (an OutcomeAnnounced's ``outcome``) that re-derivation compares them with.

    Outcomes recorded before contract results were announced (every log made by an
    earlier version, and a host's ``outcome --announced`` in the older shape) hold no
    ``contracts``: theirs are re-derived without it, so those logs still verify and
    replay as before, while a log that records contract results must record the ones
    the rules give, in both parts.  An outcome's parts are free-form JSON in the event,
    so the field itself marks the shape and no event version is needed.  Read models
    show the contract results either way: they compute them from the state."""
    if not isinstance(recorded, dict) or CONTRACT_RESULTS in recorded:
        return outcome, public
    return _without_contracts(outcome), _without_contracts(public)


def _without_contracts(part: dict) -> dict:
    return {key: value for key, value in part.items() if key != CONTRACT_RESULTS} if isinstance(part, dict) else part


def check_head(state: MatchState, head: OutcomeHead, what: str) -> None:
    """An outcome's match and game, if given, are this match's; it is a finished one."""
    if head.match is not UNSET and head.match != state.match_id:
        raise MalformedInput(f"{what} is for match {quoted(head.match)}, not {quoted(state.match_id)}")
    if head.game is not UNSET and head.game != state.game:
        raise MalformedInput(f"{what} is for game {quoted(head.game)}, not {quoted(state.game)}")
    if head.finished is False:
        raise MalformedInput(f"{what} says the match is not finished; the results are entered once it is")
