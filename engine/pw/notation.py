"""Parallel Worlds notation: action, predict and guess tokens (docs/design.md, "Command line"; ruling W1).

``TYPE:TARGET`` for gift, learn, swap, unique, watch; ``predict:TARGET=TYPE``; and in
Round 3 ``guess:PARTICIPANT=PARTNER``.  Types are case-insensitive in, lower-case out;
participant names are matched exactly, else case-insensitively when that is unambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import TOKEN_MAX_LENGTH

from ..memo import Memo

TYPES = ("gift", "learn", "predict", "swap", "unique", "watch")


@dataclass(frozen=True)
class Action:
    type: str
    target: str
    predict: str | None = None  # the predicted type of a Predict action

    def token(self) -> str:
        if self.type == "predict":
            return f"predict:{self.target}={self.predict}"
        return f"{self.type}:{self.target}"


@dataclass(frozen=True)
class Guess:
    guessed: str  # the participant whose partner is guessed
    partner: str  # the guessed partner

    def token(self) -> str:
        return f"guess:{self.guessed}={self.partner}"


def resolve_name(text: str, participants: list[str], token: str) -> str:
    if text in participants:
        return text
    folded = [p for p in participants if p.lower() == text.lower()]
    if len(folded) == 1:
        return folded[0]
    raise MalformedInput(
        f"W1: unknown participant {text!r} in token {token!r} (participants: {', '.join(sorted(participants))})"
    )


def parse_type(text: str, token: str) -> str:
    lowered = text.strip().lower()
    if lowered not in TYPES:
        raise MalformedInput(f"W1: unknown action type {text!r} in token {token!r} (types: {', '.join(TYPES)})")
    return lowered


def parse_token(token: str, participants: list[str]) -> Action | Guess:
    """One token -> an Action or a Guess (W1: unknown types/participants are rejected)."""
    normal = SPLIT[token] if len(token) <= TOKEN_MAX_LENGTH else None
    if normal is not None and _is_normal(normal, token, participants):
        return normal  # already as recorded (a replayed log's tokens): no need to read it again
    if ":" not in token:
        raise MalformedInput(
            f"W1: token {token!r} is not TYPE:TARGET, predict:TARGET=TYPE or guess:PARTICIPANT=PARTNER"
        )
    head, _, rest = token.partition(":")
    kind = head.strip().lower()
    if kind == "guess":
        guessed, eq, partner = rest.partition("=")
        if not eq or not guessed or not partner:
            raise MalformedInput(f"W1: guess token {token!r} must read guess:PARTICIPANT=PARTNER")
        return Guess(resolve_name(guessed, participants, token), resolve_name(partner, participants, token))
    action_type = parse_type(head, token)
    if action_type == "predict":
        target, eq, predicted = rest.partition("=")
        if not eq or not target or not predicted:
            raise MalformedInput(f"W1: predict token {token!r} must read predict:TARGET=TYPE")
        return Action("predict", resolve_name(target, participants, token), parse_type(predicted, token))
    if "=" in rest:
        raise MalformedInput(f"W1: only predict names a type; {token!r} should read {action_type}:TARGET")
    if not rest:
        raise MalformedInput(f"W1: token {token!r} names no target")
    return Action(action_type, resolve_name(rest, participants, token))


def _split_one(token: str) -> Action | Guess:
    head, _, rest = token.partition(":")
    if head == "guess":
        guessed, _, partner = rest.partition("=")
        return Guess(guessed, partner)
    if head == "predict":
        target, _, predicted = rest.partition("=")
        return Action("predict", target, predicted)
    return Action(head, rest)


#: _split_one() by token: a pure function of the token, and Actions and Guesses are
#: immutable, so each distinct stored token is split once
SPLIT: Memo[str, Action | Guess] = Memo(_split_one, limit=8192)


def _is_normal(item: Action | Guess, token: str, participants: list[str]) -> bool:
    """Whether ``token`` is the normalized spelling of ``item``, every name in it a participant's."""
    if isinstance(item, Guess):  # the two are final: the same as item.__class__ is Guess
        return item.guessed in participants and item.partner in participants and item.token() == token
    if item.type not in TYPES or item.type == "guess" or item.target not in participants:
        return False
    if item.type == "predict":
        return item.predict in TYPES and item.token() == token
    return item.predict is None and item.token() == token


def split_tokens(tokens: list[str]) -> tuple[list[Action], list[Guess]]:
    """Already-normalized tokens (as stored) -> actions and guesses (no validation)."""
    actions: list[Action] = []
    guesses: list[Guess] = []
    for item in map(SPLIT.__getitem__, tokens):
        if item.__class__ is Guess:
            guesses.append(item)
        else:
            actions.append(item)
    return actions, guesses
