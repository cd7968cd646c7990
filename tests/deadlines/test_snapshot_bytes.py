"""A snapshot holds a match's deadlines, and the state of a match that never had one
encodes to the very bytes it did before deadlines existed (so its checkpoint's digest,
which the log records, stays as it was)."""

from __future__ import annotations

import random

import pytest

from matchledger import engine
from matchledger.engine.commands import SetDeadline
from matchledger.projections import snapshots
from matchledger.projections.fold import InMemoryMatch, play
from tests.helpers import games


@pytest.mark.parametrize("game", [g for g in games() if engine.get(g).STATE_TYPE is not None])
def test_a_state_without_deadlines_encodes_without_their_fields_and_one_with_them_round_trips(game):
    played = play(engine.get(game).sample(random.Random(5), "s1"))
    body = snapshots.encode_state(played.state)
    assert b"deadline" not in body
    fresh = InMemoryMatch(engine.get(game).sample(random.Random(5), "s1").create)
    fresh.do(SetDeadline("2026-12-01T10:00:00Z", "2026-12-03T10:00:00Z", each=3600))
    state = fresh.state
    assert snapshots.decode_state(snapshots.encode_state(state)) == state
    assert snapshots.decode_state(snapshots.encode_state(state)).deadlines == {1: "2026-12-03T10:00:00Z"}
