"""Shared helpers for the photographer tests: explicit decks and hand-played matches
(random ones come from the engine's sampler, ``engine.photographer.sample``)."""

from __future__ import annotations

from matchledger.engine.commands import CreateMatch, Submit
from matchledger.engine.photographer.cards import all_cards, colours_for
from matchledger.engine.photographer.sample import PLAYERS as SEATS
from matchledger.projections.fold import InMemoryMatch

PLAYERS = {n: SEATS[:n] for n in (2, 3, 4)}  # the sampler's players, by count


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
        CreateMatch(
            match_id=match_id, game="photographer", players=PLAYERS[n_players], options=options or {}, setup=setup
        )
    )


def play(m: InMemoryMatch, who: str, text: str):
    return m.do(Submit(who, text.split()))
