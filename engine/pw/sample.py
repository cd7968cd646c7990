"""Random *legal* Parallel Worlds matches (W2–W4 respected by construction).

Each pair gets a type schedule: the 12 type slots (each type twice, W4) shuffled into
three rounds of four and split 2+2 between the members with disjoint types (W3).
Targets avoid the submitter, their partner (W2) and any extra forbidden names.

The whole match is drawn up front (:func:`plan`): tests that perturb one command of a
match need the list, and a seed keeps giving the same list.
"""

from __future__ import annotations

import itertools
import random

from matchledger.engine.commands import CloseRound, Command, CreateMatch, RecordContract, Submit
from matchledger.engine.sample import SCALES, Sample, longest_names
from matchledger.engine.state import MatchState

from .notation import TYPES

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
GUESTS = ["zed", "yul", "xio", "wim", "vik", "ura", "tof"]
CONTRACTS = ["diversity", "generosity", "espionage"]


def _type_schedule(rng: random.Random) -> list[tuple[list[str], list[str]]]:
    """For each round, the player's two types and the guest's two: each type twice over
    the match (W4), the 12 slots shuffled into rounds of four."""
    slots = [t for t in TYPES for _ in range(2)]
    rng.shuffle(slots)
    return [rng.choice(_disjoint_halves(slots[4 * r : 4 * r + 4])) for r in range(3)]


def _disjoint_halves(four: list[str]) -> list[tuple[list[str], list[str]]]:
    """Every way to hand two of ``four`` types to one member of a pair and the other two
    to the partner, so that the pair shares no type within the round (W3)."""
    halves = []
    for mine in itertools.combinations(range(4), 2):
        first = [four[i] for i in mine]
        second = [four[i] for i in range(4) if i not in mine]
        if not set(first) & set(second):
            halves.append((first, second))
    return halves


def plan(
    rng: random.Random,
    match_id: str = "m1",
    n: int = 4,
    pairs: dict[str, str] | None = None,
    forbid: dict[str, set[str]] | None = None,
    twin: tuple[str, str] | None = None,
    contracts: bool = True,
    guesses: bool = True,
    players: list[str] | None = None,
    guests: list[str] | None = None,
) -> tuple[CreateMatch, list[Command]]:
    """(create command, every command in playing order) of a random legal match of ``n``
    pairs: contracts (with ``contracts``), then each round's submissions in a shuffled
    order (Round 3 with guesses, with ``guesses``) and its close.

    ``pairs``: the pairing (else drawn); ``forbid``: participant -> names they must not
    target; ``twin=(p, q)``: pairs p and q get identical type schedules, so exchanging
    their guests keeps every submission legal (with ``forbid`` keeping targets legal too).
    ``players``, ``guests``: the names to seat (else the first ``n`` of PLAYERS, GUESTS)."""
    players = (players or PLAYERS)[:n]
    if pairs is None:
        guests = list((guests or GUESTS)[:n])
        rng.shuffle(guests)
        pairs = dict(zip(players, guests))
    forbid = forbid or {}
    partner = {**pairs, **{g: p for p, g in pairs.items()}}
    everyone = players + [pairs[p] for p in players]
    schedules = {p: _type_schedule(rng) for p in players}
    if twin:
        schedules[twin[1]] = schedules[twin[0]]
    commands: list[Command] = []
    if contracts:
        for p in players:
            names = [rng.choice(CONTRACTS)]
            if rng.random() < 0.5:
                names.append("sabotage:" + rng.choice([q for q in players if q != p]))
            commands.append(RecordContract(p, names))
    for r in range(3):
        subs = []
        for p in players:
            for member, types in ((p, schedules[p][r][0]), (pairs[p], schedules[p][r][1])):
                banned = {member, partner[member]} | forbid.get(member, set())
                targets = rng.sample([x for x in everyone if x not in banned], 2)
                tokens = []
                for t, target in zip(types, targets):
                    tokens.append(f"predict:{target}={rng.choice(TYPES)}" if t == "predict" else f"{t}:{target}")
                if r == 2 and guesses:
                    same = players if member in players else [pairs[q] for q in players]
                    other = [pairs[q] for q in players] if member in players else players
                    for guessed in same:
                        if guessed != member and rng.random() < 0.5:
                            tokens.append(f"guess:{guessed}={rng.choice(other)}")
                subs.append(Submit(member, tokens))
        rng.shuffle(subs)
        commands.extend(subs)
        commands.append(CloseRound())
    create = CreateMatch(match_id=match_id, game="pw", players=players, setup={"pairs": dict(pairs)})
    return create, commands


def sample(rng: random.Random, match_id: str = "m1", scale: int | str | None = None, **knobs) -> Sample:
    """A random legal match (the knobs are :func:`plan`'s), played in :func:`plan`'s order.

    ``scale`` (:mod:`matchledger.engine.sample`): 1 to 4, 4 to 7 pairs; ``"small"``, 3
    pairs; ``"largest"``, the most participants, in pairs, with the longest names."""
    if scale in (1, 2, 3, 4):
        knobs["n"] = 3 + scale
    elif scale == "small":
        knobs["n"] = 3
    elif scale == "largest":
        from matchledger.ledger.limits import PARTICIPANTS_MAX

        n = PARTICIPANTS_MAX // 2
        knobs.update(n=n, players=longest_names(n, "p"), guests=longest_names(n, "g"))
    elif scale is not None:
        raise ValueError(f"scale {scale!r} is not one of {SCALES}")
    create, commands = plan(rng, match_id, **knobs)
    return Sample(create, _following(commands))


def _following(commands: list[Command]):
    """A chooser that finds its place in ``commands`` from the state: the first planned
    contract not yet recorded, else the first planned submission of the open round from a
    participant who has none yet, else that round's close."""
    contracts = [c for c in commands if isinstance(c, RecordContract)]
    rounds: list[list[Submit]] = [[]]
    for cmd in commands:
        if isinstance(cmd, Submit):
            rounds[-1].append(cmd)
        elif isinstance(cmd, CloseRound):
            rounds.append([])

    def choose(state: MatchState) -> Command | None:
        if state.finished:
            return None
        if state.round == 1:
            for contract in contracts:
                if contract.participant not in state.contracts:
                    return contract
        submitted = state.submissions.get(state.round, {})
        for submission in rounds[state.round - 1]:
            if submission.participant not in submitted:
                return submission
        return CloseRound()

    return choose
