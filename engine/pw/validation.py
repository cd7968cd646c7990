"""Set-up, contract and submission checks (rules W1–W5).  Pure; raise, never mutate."""

from __future__ import annotations

from collections import Counter
from typing import Any

from matchledger.engine.state import MatchState
from matchledger.ledger.errors import (
    IllegalMove,
    IncompleteSetup,
    InvalidParameter,
    MalformedInput,
    MissingSetup,
    UnexpectedSetup,
)
from matchledger.ledger.validation import check_name

from .model import PWState
from .notation import TYPES, Action, Guess, parse_token, split_tokens

#: The game these rules are (its name, as its errors and declaration give it).
NAME = "pw"

MAIN_CONTRACTS = ("diversity", "generosity", "espionage")


# --------------------------------------------------------------------------- set-up


def check_setup(players: list[str], setup: dict[str, Any]) -> dict[str, Any]:
    """Exactly {"pairs": {player: guest}}: one guest per player, distinct, no guest a player."""
    extra = sorted(set(setup) - {"pairs"})
    if extra:
        raise UnexpectedSetup(NAME, extra, ["pairs"])
    pairs = setup.get("pairs")
    if not pairs:
        raise MissingSetup(NAME, "pairs", "for every player")
    if not isinstance(pairs, dict):
        raise MalformedInput(f"pw pairs must map player to guest, got {pairs!r}")
    for player, guest in pairs.items():
        if player not in players:
            problem = f"{player!r} is not a listed player ({', '.join(players)})"
            raise InvalidParameter("pairs", f"{player}={guest}", problem, game=NAME)
        check_name(guest, "guest name")
        if guest in players:
            raise InvalidParameter("pairs", f"{player}={guest}", f"guest {guest!r} is also a player", game=NAME)
    for player in players:
        if player not in pairs:
            raise IncompleteSetup(NAME, "pairs", f"player {player!r} has no guest", f"{player}=GUEST")
    seen: dict[str, str] = {}
    for player, guest in pairs.items():
        if guest in seen:
            raise MalformedInput(f"guest {guest!r} is paired with both {seen[guest]!r} and {player!r}")
        seen[guest] = player
    return {"pairs": {player: pairs[player] for player in pairs}}


# --------------------------------------------------------------------------- contracts


def parse_contract(state: MatchState, participant: str, names: list[str]) -> list[str]:
    """Exactly one of diversity/generosity/espionage, optionally ``sabotage:PLAYER``."""
    main: list[str] = []
    sabotage: list[str] = []
    for raw in names:
        text = raw.strip()
        lowered = text.lower()
        if lowered in MAIN_CONTRACTS:
            main.append(lowered)
        elif lowered.startswith("sabotage:"):
            target = text.partition(":")[2]
            if target not in state.players:
                folded = [p for p in state.players if p.lower() == target.lower()]
                if len(folded) != 1:
                    raise MalformedInput(
                        f"sabotage pact {raw!r}: {target!r} is not a player ({', '.join(state.players)})"
                    )
                target = folded[0]
            if target == participant:
                raise IllegalMove(f"sabotage pact {raw!r}: {participant!r} cannot name themselves")
            sabotage.append(target)
        else:
            raise MalformedInput(
                f"unknown pw contract {raw!r} (one of {', '.join(MAIN_CONTRACTS)}, optionally sabotage:PLAYER)"
            )
    if len(main) != 1:
        raise IllegalMove(
            f"a player signs exactly one of {', '.join(MAIN_CONTRACTS)}; got {len(main)} "
            f"({', '.join(repr(n) for n in main) or 'none'})"
        )
    if len(sabotage) > 1:
        raise IllegalMove(f"at most one sabotage pact; got {', '.join(repr('sabotage:' + s) for s in sabotage)}")
    return main + [f"sabotage:{s}" for s in sabotage]


# --------------------------------------------------------------------------- submissions


def check_submission(
    state: MatchState,
    participant: str,
    round_no: int,
    tokens: list[str],
    replacing: int | None = None,
) -> list[str]:
    """Validate one submission against W1–W4 and return it normalized.

    The participant's own earlier submission for this round (and the one at
    ``replacing``) never counts: a resubmission replaces it (W5)."""
    g: PWState = state.g
    actions: list[Action] = []
    guesses: list[Guess] = []
    for token in tokens:
        item = parse_token(token, state.participants)
        if isinstance(item, Guess):
            guesses.append(item)
        else:
            actions.append(item)

    # W1: exactly two actions.
    if len(actions) != 2:
        listed = " ".join(a.token() for a in actions) or "none"
        raise MalformedInput(f"W1: a submission has exactly 2 actions; got {len(actions)} ({listed})")

    # W2: never the submitter or their partner; two different targets.
    partner = g.partner[participant]
    for action in actions:
        if action.target == participant:
            raise IllegalMove(f"W2: {participant!r} cannot target themselves ({action.token()!r})")
        if action.target == partner:
            raise IllegalMove(f"W2: {participant!r} cannot target their partner ({action.token()!r})")
    if actions[0].target == actions[1].target:
        raise IllegalMove(
            f"W2: both actions name the same target {actions[0].target!r} "
            f"({actions[0].token()!r}, {actions[1].token()!r})"
        )

    _check_guesses(state, participant, round_no, guesses)

    # W3: a pair may not share a type within a round (against the partner's current submission).
    partner_sub = state.current_submission(round_no, partner)
    partner_now: list[str] = []  # the types of the partner's counting submission this round
    if partner_sub is not None and partner_sub.seq != replacing:
        partner_now = [a.type for a in split_tokens(partner_sub.tokens)[0]]
    partner_types = set(partner_now)
    for action in actions:
        if action.type in partner_types:
            raise IllegalMove(
                f"W3: {action.type!r} ({action.token()!r}) was already submitted this round by "
                f"{participant!r}'s partner {partner!r}; a pair may not share a type within a round"
            )

    # W4: at most twice per type per pair over the match.
    used = partner_now + [a.type for a in actions]  # counted once, in one pass
    for earlier in range(1, round_no):
        for member in (participant, partner):
            sub = state.current_submission(earlier, member)
            if sub is not None:
                used += [a.type for a in split_tokens(sub.tokens)[0]]
    after: Counter[str] = Counter(used)
    over = [t for t in TYPES if after[t] > 2]
    if over:
        kind = over[0]
        detail = f"W4: the pair of {participant!r} would use {kind!r} {after[kind]} times over the match (at most 2)"
        if round_no == 3 and partner_sub is not None and partner_sub.seq != replacing:
            # W4 reachability: with the partner's Round-3 actions known, this submission must
            # bring every type to exactly 2.
            short = [t for t in TYPES if after[t] < 2]
            detail += f"; to reach exactly 2 of each type this submission needs {', '.join(short)}"
        raise IllegalMove(detail)
    return [a.token() for a in actions] + [x.token() for x in _ordered_guesses(state, guesses)]


def partner_types_list(state: MatchState, round_no: int, partner: str, replacing: int | None) -> list[str]:
    sub = state.current_submission(round_no, partner)
    if sub is None or sub.seq == replacing:
        return []
    return [a.type for a in split_tokens(sub.tokens)[0]]


def _ordered_guesses(state: MatchState, guesses: list[Guess]) -> list[Guess]:
    # Stored in players-as-listed then guests-by-name order (never the host-only participant order).
    if not guesses:
        return guesses
    order = {name: i for i, name in enumerate(state.players + sorted(state.g.guest_of.values()))}
    return sorted(guesses, key=lambda x: order[x.guessed])


def _check_guesses(state: MatchState, participant: str, round_no: int, guesses: list[Guess]) -> None:
    """Round-3 guesses: a player names another player and a guest, a guest names another
    guest and a player; at most one guess per guessed participant (Addendum)."""
    if not guesses:
        return
    g: PWState = state.g
    if round_no != 3:
        raise IllegalMove(
            f"guesses are made with Round-3 actions only; this is round {round_no} ({guesses[0].token()!r})"
        )
    role = g.role[participant]
    other = "guest" if role == "player" else "player"
    seen: set[str] = set()
    for guess in guesses:
        token = guess.token()
        if guess.guessed == participant:
            raise IllegalMove(f"{participant!r} cannot guess their own partner ({token!r})")
        if g.role[guess.guessed] != role:
            raise IllegalMove(
                f"a {role} guesses the partners of other {role}s; {guess.guessed!r} is not a {role} ({token!r})"
            )
        if g.role[guess.partner] != other:
            raise IllegalMove(f"the partner of a {role} is a {other}; {guess.partner!r} is not a {other} ({token!r})")
        if guess.guessed in seen:
            raise IllegalMove(
                f"Addendum: at most one guess per participant; {guess.guessed!r} is guessed twice ({token!r})"
            )
        seen.add(guess.guessed)
