"""The rules themselves (U3, U6, U11), decided in the engine: resolving a round and
ranking the totals, and what a submission may be."""

from __future__ import annotations

import pytest
from matchledger_lowest_unique.model import ranked, resolve

from matchledger import engine
from matchledger.engine.commands import CreateMatch, Submit
from matchledger.ledger.errors import IllegalMove, MalformedInput
from matchledger.projections.fold import InMemoryMatch


def test_u6_the_lowest_number_chosen_once_wins():
    result = resolve({"ann": 2, "bob": 2, "cat": 5, "dan": 9}, 1)
    assert (result.lowest_unique, result.winner) == (5, "cat")


def test_u6_nobody_wins_when_no_number_is_unique():
    result = resolve({"ann": 2, "bob": 2, "cat": 9, "dan": 9}, 1)
    assert (result.lowest_unique, result.winner) == (None, None)


def test_u6_all_the_same_number_wins_nothing():
    result = resolve(dict.fromkeys(("ann", "bob", "cat", "dan", "eve"), 4), 2)
    assert (result.lowest_unique, result.winner) == (None, None)


def test_u6_a_single_unique_number_at_the_top_wins():
    result = resolve({"ann": 1, "bob": 1, "cat": 1, "dan": 10}, 3)
    assert (result.lowest_unique, result.winner) == (10, "dan")


def test_u5_u6_a_round_with_no_number_has_no_winner():
    assert resolve({}, 1).winner is None


def test_u11_equal_totals_share_a_rank_and_the_next_rank_skips():
    players = ["ann", "bob", "cat", "dan", "eve"]
    totals = {"ann": 0, "bob": 2, "cat": 1, "dan": 2, "eve": 0}
    assert ranked(players, totals) == [("bob", 1), ("dan", 1), ("cat", 3), ("ann", 4), ("eve", 4)]


def test_u11_everyone_level_everyone_first():
    players = ["cat", "ann", "bob"]
    assert ranked(players, dict.fromkeys(players, 1)) == [("cat", 1), ("ann", 1), ("bob", 1)]


def new_match(**options) -> InMemoryMatch:
    raw = {key: str(value) for key, value in options.items()}
    return InMemoryMatch(CreateMatch("m", "lowest-unique", ["ann", "bob", "cat"], raw))


@pytest.mark.parametrize("tokens", [["0"], ["-1"], ["+3"], ["3.0"], ["three"], ["1", "2"], [], ["1000"], ["٣"]])
def test_u3_anything_but_one_number_in_range_is_refused(tokens):
    match = new_match()
    with pytest.raises((MalformedInput, IllegalMove)):
        match.game.decide(match.state, Submit("ann", tokens))


def test_u3_above_highest_is_refused_and_highest_itself_is_not():
    match = new_match(highest=5)
    with pytest.raises(IllegalMove, match="from 1 to 5"):
        match.game.decide(match.state, Submit("ann", ["6"]))
    [event] = match.game.decide(match.state, Submit("ann", ["5"]))
    assert event.tokens == ["5"]


def test_u3_leading_zeros_are_recorded_without_them():
    match = new_match()
    [event] = match.game.decide(match.state, Submit("ann", ["007"]))
    assert event.tokens == ["7"]


@pytest.mark.parametrize(
    "options", [{"rounds": 0}, {"rounds": 21}, {"highest": 1}, {"highest": 101}, {"highest": "ten"}]
)
def test_u2_options_out_of_bounds_are_refused(options):
    with pytest.raises(MalformedInput):
        new_match(**options)


def test_the_game_is_found_through_its_entry_point():
    assert "lowest-unique" in engine.names()
    spec = engine.spec("lowest-unique")
    assert spec.kind == "rounds" and spec.game().name == "lowest-unique"
    assert spec.code == ("matchledger_lowest_unique",)


def test_a_state_snapshot_decodes_back_into_an_equal_state():
    import random

    from matchledger.projections import snapshots
    from matchledger.projections.fold import play

    match = play(engine.get("lowest-unique").sample(random.Random(5), "snap", n_players=5, rounds=3))
    assert match.state.g.results, "the sampled match closed no round"
    assert snapshots.can_snapshot(match.state)
    assert snapshots.decode_state(snapshots.encode_state(match.state)) == match.state


def test_the_snapshot_revision_covers_this_games_own_code():
    from matchledger.projections import snapshots

    ours = snapshots.revision("lowest-unique")
    assert ours is not None and ours != snapshots.revision("pw")


@pytest.mark.parametrize("rounds", [1, 2, 19, 20])
def test_u11_the_outcome_is_announced_once_with_the_last_close_whatever_the_rounds(rounds):
    import random

    from matchledger.ledger.events import OutcomeAnnounced, RoundClosed
    from matchledger.projections.fold import play

    match = play(engine.get("lowest-unique").sample(random.Random(rounds), "m", n_players=3, rounds=rounds))
    kinds = [type(event) for event in match.events]
    assert kinds.count(RoundClosed) == rounds
    assert kinds.count(OutcomeAnnounced) == 1 and kinds[-1] is OutcomeAnnounced
    assert match.state.finished
