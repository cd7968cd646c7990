"""Invariants over random legal games: they end, and never lose or duplicate a card.
(That they replay and re-derive to the same result, every game checks in
tests/contracts; that no view shows a value its viewer may not know, in
tests/trust/privacy/test_photographer_indistinguishable.py.)"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.engine.photographer import GAME
from matchledger.engine.photographer.cards import all_cards, colours_for
from matchledger.engine.state import PUBLIC
from matchledger.projections.fold import play

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def every_card(g) -> list[str]:
    cards = [c for c in g.deck if c != "sunset"]
    cards += [p[0] for row in g.table for p in row if p is not None]
    for player in g.players:
        cards += g.hands[player]
        for row in g.film[player].values():
            cards += [c for c, _up in row]
    return cards


@SETTINGS
@given(
    n=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**64 - 1),
    moves=st.integers(0, 10**9),
    trigger=st.sampled_from(["deck_empty", "sunset"]),
    wind=st.booleans(),
)
def test_random_games_end_and_conserve_cards(n, seed, moves, trigger, wind):
    options = {"end_trigger": trigger, "wind_required": str(wind).lower()}
    full = sorted(all_cards(colours_for(n)))

    def conserved(match):
        # Every card in play exactly once across deck, table, hands and film rows.
        assert sorted(every_card(match.state.g)) == full
        g = match.state.g
        if g.phase == "main":
            assert all(len(h) == 5 for h in g.hands.values())

    m = play(GAME.sample(random.Random(moves), n_players=n, seed=seed, options=options), observe=conserved)
    g = m.state.g
    assert g.phase == "finished" and m.state.finished
    # P7: every player ended with 5 - 2 = 3 cards in hand.
    assert all(len(h) == 3 for h in g.hands.values())
    if trigger == "sunset":
        assert g.end_reason == "sunset" and g.set_aside == ["sunset"]
    else:
        assert g.end_reason == "deck_empty" and g.deck == []
    # P9 ranks are consistent with totals.
    standings = GAME.outcome(m.state, PUBLIC)["standings"]
    for s in standings:
        assert s["rank"] == 1 + sum(1 for o in standings if o["total"] > s["total"])
