"""verify's fast paths give exactly what the reference computations give.

Each fast path here replaces a slower, obviously-right computation on verify's hot path;
the slow one is kept (in the code or in this file) and these properties hold the two
equal, byte for byte, on random inputs.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings

from engine.base import HOST, PUBLIC
from engine.lca import GAME as LCA
from engine.lca import endgame
from engine.lca import views as lca_views
from ledger.codec import encode
from tests.lca.test_properties import PLAYERS, plans, run

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _objects(value, found=None) -> set[int]:
    """The ids of every list and dict inside ``value``."""
    found = set() if found is None else found
    if isinstance(value, (list, dict)):
        found.add(id(value))
        for child in value.values() if isinstance(value, dict) else value:
            _objects(child, found)
    return found


def _eager_awards(state) -> list[dict]:
    """lca awards with every contract fact computed for every player (the reference for
    the facts computed only for the players holding each contract)."""
    g = state.g
    standings = endgame.rank_players(state.players, lca_views.category_scores(state))
    facts = {
        "lit_cells": {p: len(g.lights.lit_by[p]) for p in state.players},
        "exclusive_cameras": {p: g.cameras.exclusive(p) for p in state.players},
        "best_share": {p: max((g.actions.share(c) for c in g.actions.named[p]), default=0) for p in state.players},
    }
    return endgame.awards(standings, state.contracts, facts)


@FAST
@given(plans)
def test_lca_final_outcome_is_the_host_and_public_outcome_computed_once(plan_list):
    states = []
    run(dict(zip(PLAYERS, plan_list)), lambda m: states.append(copy.deepcopy(m.state)))
    final = states[-1]
    assert final.g.complete
    assert LCA.outcome(final, HOST)["awards"] == _eager_awards(final)
    for state in (states[0], states[-2], final):
        host, public = LCA.final_outcome(state)
        assert encode(host) == encode(LCA.outcome(state, HOST))
        assert encode(public) == encode(LCA.outcome(state, PUBLIC))
        assert not _objects(host) & _objects(public)  # the public copy shares nothing
