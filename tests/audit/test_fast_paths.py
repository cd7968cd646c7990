"""verify's fast paths give exactly what the reference computations give.

Each fast path here replaces a slower, obviously-right computation on verify's hot path;
the slow one is kept (in the code or in this file) and these properties hold the two
equal, byte for byte, on random inputs.
"""

from __future__ import annotations

import copy
import json

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings

from matchledger.engine.lca import GAME as LCA
from matchledger.engine.lca import endgame
from matchledger.engine.lca import views as lca_views
from matchledger.engine.state import HOST, PUBLIC
from matchledger.ledger.codec import decode_event, encode
from matchledger.ledger.events import ANNOUNCEMENTS, OutcomeAnnounced
from matchledger.projections.fold import Replayer
from matchledger.projections.rederive import rederive
from tests.trust.privacy.test_lca_indistinguishable import PLAYERS, plans, run

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


# --------------------------------------------------------------------------- rederive's bodies


def _corpus_matches():
    from bench.corpus import templates

    return [(game, template) for game, chosen in templates().items() for template in chosen]


@pytest.mark.parametrize("game, template", _corpus_matches(), ids=lambda x: getattr(x, "name", x))
def test_announcements_survive_the_json_round_trip_so_a_stored_body_is_their_encoding(game, template):
    # What rederive's ``bodies`` rest on: an announcement the engine computes, once
    # stored (encoded), decodes back into an event that encodes to the same bytes.
    pairs = list(enumerate(template.events, start=1))
    replayer = Replayer(template.create.match_id)
    replayer.feed(*pairs[0])
    announcements = 0
    for seq, event in pairs[1:]:
        expected = replayer.feed_and_rederive(seq, event)
        if expected is not None:
            announcements += 1
            assert encode(decode_event(encode(expected))) == encode(expected)
    assert announcements


def _forged(pairs):
    """Each announcement changed in turn: a new value, a value of another type that
    compares equal in Python (1 vs 1.0), and the same event re-encoded otherwise."""
    for index, (_seq, event) in enumerate(pairs):
        if not isinstance(event, ANNOUNCEMENTS):
            continue
        field = "outcome" if isinstance(event, OutcomeAnnounced) else "public"
        value = getattr(event, field)
        for changed in ({**value, "forged": 1}, {**value, "finished": 1.0 if value.get("finished") else 0.0}):
            forged = msgspec.structs.replace(event, **{field: changed})
            yield index, forged, encode(forged).decode()
        # the same content stored with other whitespace and key order: not a finding
        yield index, event, json.dumps(msgspec.to_builtins(event), indent=1)


@pytest.mark.parametrize("game, template", _corpus_matches()[::3], ids=lambda x: getattr(x, "name", x))
def test_rederive_with_bodies_finds_what_it_finds_without(game, template):
    pairs = list(enumerate(template.events, start=1))
    bodies = [encode(event).decode() for _seq, event in pairs]
    assert rederive(template.create.match_id, pairs, bodies) == rederive(template.create.match_id, pairs) == []
    for index, _event, body in _forged(pairs):
        changed = pairs[:index] + [(pairs[index][0], decode_event(body))] + pairs[index + 1 :]
        changed_bodies = bodies[:index] + [body] + bodies[index + 1 :]
        assert rederive(template.create.match_id, changed, changed_bodies) == rederive(
            template.create.match_id, changed
        )
