"""Random legal Фотограф matches: a random turn for whoever is to play, until the end.

Turns are chosen from public facts only (row sizes, hand sizes, the ruleset in force)
and the random source: the same stream gives the same tokens whatever the hidden card
values are, so two matches that differ only in a secret get the same moves for as long
as their public facts agree.
"""

from __future__ import annotations

import random
from typing import Any

from matchledger.engine.commands import CreateMatch, Submit
from matchledger.engine.sample import SCALES, Sample, longest_names
from matchledger.engine.state import MatchState

PLAYERS = ["ann", "bob", "cat", "dan"]  # seat order
#: A house rulebook's film-row table, to score some samples under another ``row_points``.
STEEP_ROW_POINTS = "1:1,2:2,3:4,4:7,5:11,6:16,7:22"
#: ``scale`` 1 to 4: the players of the benchmark's corpus matches (as the fixtures').
SCALE_PLAYERS = {1: 2, 2: 3, 3: 4, 4: 2}


def sample(
    rng: random.Random,
    match_id: str = "m1",
    n_players: int | None = None,
    seed: int | None = None,
    deck: str | None = None,
    options: dict[str, str] | None = None,
    scale: int | str | None = None,
) -> Sample:
    """A random legal match of ``n_players`` (2–4) dealt from ``deck`` (a deck file's
    text) or from ``seed``, under ``options`` (raw KEY=VALUE text).  What is not given is
    drawn from ``rng`` first (a seed when there is no deck); with everything given, the
    turns take ``rng``'s draws from the first one on.

    ``scale`` (:mod:`matchledger.engine.sample`), each under the default rules: 1 to 4,
    2, 3, 4 and 2 players dealt from the seed ``scale``; ``"small"``, 2 players, and
    ``"largest"``, 4 with the longest names, dealt from the seed 11."""
    players = PLAYERS
    if scale in SCALE_PLAYERS:
        n_players, seed, options = SCALE_PLAYERS[scale], scale, {}
    elif scale == "small":
        n_players, seed, options = 2, 11, {}
    elif scale == "largest":
        players = longest_names(len(PLAYERS), "p")
        n_players, seed, options = len(players), 11, {}
    elif scale is not None:
        raise ValueError(f"scale {scale!r} is not one of {SCALES}")
    if n_players is None:
        n_players = rng.randint(2, 4)
    if options is None:
        options = _random_options(rng)
    if deck is not None:
        setup: dict[str, Any] = {"deck": deck}
    else:
        setup = {"seed": rng.randrange(1 << 32) if seed is None else seed}
    create = CreateMatch(
        match_id=match_id, game="photographer", players=players[:n_players], options=options, setup=setup
    )
    return Sample(create, lambda state: random_turn(state, rng))


def _random_options(rng: random.Random) -> dict[str, str]:
    """Sometimes winding optional, the Sunset ending or another row table."""
    options = {}
    if rng.random() < 0.3:
        options["wind_required"] = "false"
    if rng.random() < 0.3:
        options["end_trigger"] = "sunset"
    if rng.random() < 0.15:
        options["row_points"] = STEEP_ROW_POINTS
    return options


def random_turn(state: MatchState, rng: random.Random) -> Submit | None:
    """A random legal turn for the player to act; None once play is over."""
    g = state.g
    if g.phase == "finished":
        return None
    wind_required = state.options_for(state.round)["wind_required"]
    if g.phase == "main":
        rows = [r for r in range(g.n_rows) if any(p is not None for p in g.table[r])]
        row = rng.choice(rows)
        in_row = sum(1 for p in g.table[row] if p is not None)
        count = rng.randint(1, min(3, in_row))
        size = len(g.hands[g.current]) + count
        tokens = ["take", str(row + 1), rng.choice(["left", "right"]), str(count)]
    else:
        size = len(g.hands[g.current])
        tokens = []
    if wind_required or rng.random() < 0.7:
        frm = rng.randint(1, size - 1)
        to = rng.randint(frm + 1, size)
        tokens += ["wind", f"{frm}:{to}"]
    return Submit(g.current, tokens)
