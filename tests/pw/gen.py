"""A generator of random *legal* Parallel Worlds matches (respects W2–W4 by construction).

Each pair gets a type schedule: the 12 type slots (each type twice, W4) shuffled into
three rounds of four and split 2+2 between the members with disjoint types (W3).
Targets avoid the submitter, their partner (W2) and any extra forbidden names.
"""

from __future__ import annotations

import itertools
import random

from matchledger.engine.commands import CloseRound, CreateMatch, RecordContract, Submit
from matchledger.engine.pw.notation import TYPES
from matchledger.projections.fold import InMemoryMatch

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
GUESTS = ["zed", "yul", "xio", "wim", "vik", "ura", "tof"]


def type_schedule(rng: random.Random) -> list[tuple[list[str], list[str]]]:
    pool = [t for t in TYPES for _ in range(2)]
    rng.shuffle(pool)
    rounds = []
    for r in range(3):
        chunk = pool[4 * r : 4 * r + 4]
        splits = []
        for pick in itertools.combinations(range(4), 2):
            a = [chunk[i] for i in pick]
            b = [chunk[i] for i in range(4) if i not in pick]
            if not set(a) & set(b):
                splits.append((a, b))
        a, b = rng.choice(splits)
        rounds.append((a, b))
    return rounds


def make_match(
    rng: random.Random,
    n: int = 4,
    pairs: dict[str, str] | None = None,
    forbid: dict[str, set[str]] | None = None,
    twin: tuple[str, str] | None = None,
    contracts: bool = True,
    guesses: bool = True,
) -> tuple[CreateMatch, list]:
    """(create command, list of commands) for a random legal match of ``n`` pairs.

    ``twin=(p, q)``: pairs p and q get identical type schedules, so exchanging their
    guests keeps every submission legal (with ``forbid`` keeping targets legal too)."""
    players = PLAYERS[:n]
    if pairs is None:
        guests = GUESTS[:n]
        rng.shuffle(guests)
        pairs = dict(zip(players, guests))
    forbid = forbid or {}
    partner = {**pairs, **{g: p for p, g in pairs.items()}}
    everyone = players + [pairs[p] for p in players]
    schedules = {p: type_schedule(rng) for p in players}
    if twin:
        schedules[twin[1]] = schedules[twin[0]]
    commands: list = []
    if contracts:
        for p in players:
            names = [rng.choice(["diversity", "generosity", "espionage"])]
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
    create = CreateMatch(match_id="g1", game="pw", players=players, setup={"pairs": dict(pairs)})
    return create, commands


def play(create: CreateMatch, commands: list) -> InMemoryMatch:
    m = InMemoryMatch(create)
    for cmd in commands:
        m.do(cmd)
    return m
