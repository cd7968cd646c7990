"""Shared helpers for the photographer tests: explicit decks and driving matches."""

from __future__ import annotations

import random

from matchledger.engine.commands import CreateMatch, Submit
from matchledger.engine.photographer.cards import all_cards, colours_for
from matchledger.projections.fold import InMemoryMatch

PLAYERS = {2: ["ann", "bob"], 3: ["ann", "bob", "cat"], 4: ["ann", "bob", "cat", "dan"]}


def deck_text(n_players: int, top: list[str], sunset_at: int | None = None) -> str:
    """A deck file: ``top`` first (table row by row, then hands seat by seat, then the
    deck), the other cards in play after them in canonical order; ``sunset`` inserted at
    0-based position ``sunset_at`` when given."""
    rest = [c for c in all_cards(colours_for(n_players)) if c not in top]
    cards = list(top) + rest
    assert len(cards) == len(set(cards)) == 12 * len(colours_for(n_players))
    if sunset_at is not None:
        cards.insert(sunset_at, "sunset")
    return "\n".join(cards) + "\n"


def new_match(n_players=2, *, seed=None, deck=None, options=None, match_id="m1") -> InMemoryMatch:
    setup = {"seed": seed} if seed is not None else {"deck": deck}
    return InMemoryMatch(
        CreateMatch(match_id=match_id, game="photographer", players=PLAYERS[n_players], options=options or {}, setup=setup)
    )


def play(m: InMemoryMatch, who: str, text: str):
    return m.do(Submit(who, text.split()))


def random_move(g, rng: random.Random, wind_required: bool = True) -> list[str]:
    """A random legal move for the player to act, chosen from public facts only (row
    sizes, hand size) and ``rng``: the same rng stream gives the same tokens whatever
    the hidden card values are."""
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
    return tokens


def play_random(m: InMemoryMatch, rng: random.Random, wind_required: bool = True, on_step=None, limit=500):
    steps = 0
    while m.state.g.phase != "finished":
        g = m.state.g
        m.do(Submit(g.current, random_move(g, rng, wind_required)))
        steps += 1
        if on_step is not None:
            on_step(m)
        assert steps < limit, "game did not end"
    return steps
