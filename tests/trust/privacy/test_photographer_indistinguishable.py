"""Photographer privacy over random legal games, in memory: no view shows a player (or
the public) a card value they may not know, and two cards hidden from a player
exchanged leave their knowledge unchanged.  (That the games end and conserve cards:
tests/photographer/test_properties.py.)"""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.engine.photographer import GAME
from matchledger.engine.photographer.cards import COLOURS, colours_for
from matchledger.engine.state import HOST, PUBLIC, as_participant
from matchledger.projections.fold import play
from tests.photographer.support import PLAYERS, new_match

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# A value mention: ``red-7`` (face up) or ``red-[7]`` (face down, value known); the
# backs ``red-[1-6]`` / ``red-[7-12]`` carry no value.
VALUE = re.compile(r"\b(" + "|".join(COLOURS) + r")-(?:(\d+)(?![\d\]-])|\[(\d+)\])")


def mentioned(data) -> set[str]:
    text = json.dumps(data)
    return {f"{m.group(1)}-{m.group(2) or m.group(3)}" for m in VALUE.finditer(text)}


def test_value_regex_reads_faces_and_ignores_backs():
    assert mentioned(["red-7", "blue-[4]", "red-[1-6]", "grey-[7-12]", "blue-12"]) == {"red-7", "blue-4", "blue-12"}


def allowed_update(allowed: dict, g) -> None:
    """Accumulate, from the host state, what each player (and the public) may know:
    face-up table cards, face-up film cards (everyone); own hand and own film rows."""
    public = allowed["public"]
    public |= {p[0] for row in g.table for p in row if p is not None and p[1]}
    for player in g.players:
        public |= {c for c, up in (x for row in g.film[player].values() for x in row) if up}
    for player in g.players:
        allowed[player] |= public | set(g.hands[player])
        allowed[player] |= {c for row in g.film[player].values() for c, _up in row}


@SETTINGS
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), moves=st.integers(0, 10**9))
def test_no_view_shows_a_value_its_viewer_may_not_know(n, seed, moves):
    options = {"end_trigger": "sunset"} if seed % 2 else {}
    players = PLAYERS[n]
    allowed = {"public": set(), **{p: set() for p in players}}

    def check(match):
        state = match.state
        allowed_update(allowed, state.g)
        for view, data in [
            ("public", GAME.status(state, PUBLIC)),
            ("public", GAME.reveals(state, PUBLIC)),
            ("public", GAME.outcome(state, PUBLIC)),
        ]:
            assert mentioned(data) <= allowed[view]
        for p in players:
            for data in (
                GAME.knowledge(state, p),
                GAME.status(state, as_participant(p)),
                GAME.reveals(state, as_participant(p)),
            ):
                leak = mentioned(data) - allowed[p]
                assert not leak, f"{p} is shown {leak}"
        # The host sees the deck order; no one else does.
        assert "deck_order" in GAME.status(state, HOST)

    play(GAME.sample(random.Random(moves), n_players=n, seed=seed, options=options), observe=check)


def hidden_pairs(allowed_p: set[str], colours) -> list[tuple[str, str]]:
    """Pairs of cards with the same back (colour and range) that player P never saw."""
    pairs = []
    for colour in colours:
        for low, high in ((1, 6), (7, 12)):
            hidden = [f"{colour}-{v}" for v in range(low, high + 1) if f"{colour}-{v}" not in allowed_p]
            pairs += [(hidden[i], hidden[i + 1]) for i in range(0, len(hidden) - 1, 2)]
    return pairs


def run_collect(n, deck_list, moves_seed, viewer):
    options = {"end_trigger": "sunset"} if "sunset" in deck_list else {}
    views = []
    allowed = {"public": set(), **{p: set() for p in PLAYERS[n]}}

    def collect(match):
        allowed_update(allowed, match.state.g)
        views.append(GAME.knowledge(match.state, viewer))

    play(
        GAME.sample(random.Random(moves_seed), n_players=n, deck="\n".join(deck_list), options=options), observe=collect
    )
    return views, allowed[viewer]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), moves=st.integers(0, 10**9), pick=st.integers(0, 10**6)
)
def test_swapping_cards_hidden_from_a_player_leaves_their_knowledge_unchanged(n, seed, moves, pick):
    # Two decks that differ only in two cards with the same back that P never sees give
    # P the same knowledge at every step.
    viewer = PLAYERS[n][pick % n]
    deck = new_match(n, seed=seed).events[0].setup["deck"]
    views1, allowed1 = run_collect(n, deck, moves, viewer)
    pairs = hidden_pairs(allowed1, colours_for(n))
    tried = 0
    for a, b in pairs[pick % max(len(pairs), 1) :] + pairs[: pick % max(len(pairs), 1)]:
        swapped = [b if c == a else a if c == b else c for c in deck]
        views2, allowed2 = run_collect(n, swapped, moves, viewer)
        if allowed2 != allowed1 or len(views2) != len(views1):
            continue  # the swap changed what P gets to see (e.g. a blurred shot now continues)
        assert views2 == views1
        tried += 1
        if tried == 3:
            break
