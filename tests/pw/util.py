"""Small helpers for the Parallel Worlds tests."""

from __future__ import annotations

import json

from matchledger.engine.commands import CloseRound, CreateMatch, Submit
from matchledger.projections.fold import InMemoryMatch

PAIRS3 = {"ann": "zed", "bob": "yul", "cat": "xio"}


def new_match(pairs=None, match_id="t1", players=None) -> InMemoryMatch:
    pairs = dict(pairs or PAIRS3)
    players = players or list(pairs)
    return InMemoryMatch(CreateMatch(match_id=match_id, game="pw", players=players, setup={"pairs": pairs}))


def play(create: CreateMatch, commands) -> InMemoryMatch:
    """Play ``commands`` in memory (a plan of ``engine.pw.sample``, perhaps altered)."""
    m = InMemoryMatch(create)
    for cmd in commands:
        m.do(cmd)
    return m


def play_round(m: InMemoryMatch, subs: dict[str, str], close: bool = True) -> None:
    for who, line in subs.items():
        m.do(Submit(who, line.split()))
    if close:
        m.do(CloseRound())


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True)
