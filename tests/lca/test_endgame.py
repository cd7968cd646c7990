"""Endgame: ranking and tie-breaks (L1), ToLs, bonus shards and their cap (L6), the
filming ToL, ECs and contracts."""

import pytest

from matchledger.engine.lca.endgame import awards, rank_players
from matchledger.engine.state import HOST

from .util import new_match, open_floor, play


def table(**rows):
    """name=(lights, camera, action, filming)"""
    return {p: dict(zip(("lights", "camera", "action", "filming"), v)) for p, v in rows.items()}


def facts(players, lit=0, exclusive=0, share=0, **over):
    f = {
        "lit_cells": dict.fromkeys(players, lit),
        "exclusive_cameras": dict.fromkeys(players, exclusive),
        "best_share": dict.fromkeys(players, share),
    }
    for key, value in over.items():
        f[key].update(value)
    return f


@pytest.mark.ruling("L1")
def test_L1_total_then_filming_then_listed_order():
    scores = table(
        ann=(10, 10, 10, 5),  # total 35, filming 5
        bob=(10, 10, 5, 10),  # total 35, filming 10 -> ahead of ann on filming
        cat=(20, 10, 0, 5),  # total 35, filming 5 -> same as ann: listed order, ann first
        dan=(40, 0, 0, 0),  # total 40 -> first
    )
    order = [(s.participant, s.rank, s.total) for s in rank_players(["ann", "bob", "cat", "dan"], scores)]
    assert order == [("dan", 1, 40), ("bob", 2, 35), ("ann", 3, 35), ("cat", 4, 35)]


@pytest.mark.ruling("L6")
def test_tols_bonus_shards_L6_cap_filming_tol_and_ecs():
    players = ["p1", "p2", "p3", "p4", "p5", "p6"]
    scores = table(
        p1=(50, 50, 50, 0),  # 150 rank 1: 3 shards + lights + camera bonus -> 4, action bonus lost (L6)
        p2=(10, 50, 40, 40),  # 140 rank 2: 2 + camera (tied highest) = 3
        p3=(30, 20, 50, 30),  # 130 rank 3: 1 + action (tied) = 2
        p4=(50, 10, 10, 40),  # 110 rank 4: highest lights but no ranking ToL -> lost;
        # filming 40 tied with p2, p2 ranks better -> p2 gets the 4/4
        p5=(20, 20, 20, 10),  # 70 rank 5 -> EC
        p6=(20, 20, 10, 5),  # 55 rank 6 -> EC
    )
    standings = rank_players(players, scores)
    assert [s.participant for s in standings] == players
    result = awards(standings, {}, facts(players))
    assert result == [
        {"participant": "p1", "kind": "tol", "shards": 3, "reason": "rank 1"},
        {"participant": "p1", "kind": "tol_shard", "shards": 1, "reason": "highest lights"},
        {"participant": "p2", "kind": "tol", "shards": 2, "reason": "rank 2"},
        {"participant": "p2", "kind": "tol_shard", "shards": 1, "reason": "highest camera"},
        {"participant": "p3", "kind": "tol", "shards": 1, "reason": "rank 3"},
        {"participant": "p3", "kind": "tol_shard", "shards": 1, "reason": "highest action"},
        {"participant": "p2", "kind": "tol", "shards": 4, "reason": "highest filming"},
        {"participant": "p6", "kind": "ec", "reason": "rank 6"},
        {"participant": "p5", "kind": "ec", "reason": "rank 5"},
        # third EC: no ToL and not EC -> only p4 is left
        {"participant": "p4", "kind": "ec", "reason": "lowest filming"},
    ]


def test_bonus_with_highest_zero_and_third_ec_ties_go_to_lowest_ranked():
    players = ["a", "b", "c", "d", "e", "f", "g"]
    scores = table(
        a=(9, 0, 0, 9),  # 18 rank 1: ToL 3 + lights + camera 0 (tied highest) -> 4 (cap), action lost
        b=(5, 0, 0, 8),  # 13 rank 2: 2 + camera + action = 4
        c=(4, 0, 0, 8),  # 12 rank 3: 1 + camera + action = 3
        d=(3, 0, 0, 2),  # 5 rank 4
        e=(2, 0, 0, 2),  # 4 rank 5: filming 2 ties d; lowest-ranked e is the third EC
        f=(0, 0, 0, 3),  # 3 rank 6 EC
        g=(0, 0, 0, 1),  # 1 rank 7 EC
    )
    result = awards(rank_players(players, scores), {}, facts(players))
    shards = {}
    for a in result:
        if a["kind"] in ("tol", "tol_shard") and a["reason"] != "highest filming":
            shards[a["participant"]] = shards.get(a["participant"], 0) + a["shards"]
    assert shards == {"a": 4, "b": 4, "c": 3}
    assert [a for a in result if a["kind"] == "ec"] == [
        {"participant": "g", "kind": "ec", "reason": "rank 7"},
        {"participant": "f", "kind": "ec", "reason": "rank 6"},
        {"participant": "e", "kind": "ec", "reason": "lowest filming"},
    ]
    # the filming ToL goes to a (9); it counts as a ToL from this match for the EC pick
    assert {"participant": "a", "kind": "tol", "shards": 4, "reason": "highest filming"} in result


def test_third_ec_skips_a_filming_tol_holder():
    players = ["a", "b", "c", "d", "e", "f"]
    scores = table(a=(9, 9, 9, 1), b=(8, 8, 8, 1), c=(7, 7, 7, 1), d=(0, 0, 0, 9), e=(1, 1, 1, 0), f=(0, 0, 0, 2))
    # ranks: a 28, b 25, c 22, d 9, e 3, f 2 -> ECs f (rank 6), e (rank 5);
    # d holds the filming ToL, so no one is left for the third EC
    result = awards(rank_players(players, scores), {}, facts(players))
    assert [a["participant"] for a in result if a["kind"] == "ec"] == ["f", "e"]


def test_contracts_each_outcome():
    players = ["a", "b", "c", "d", "e", "f"]
    scores = table(a=(6, 0, 0, 0), b=(5, 0, 0, 0), c=(4, 0, 0, 0), d=(3, 0, 0, 0), e=(2, 0, 0, 0), f=(1, 0, 0, 0))
    contracts = {
        "a": ["lights"],  # 50 cells -> met, 1 shard
        "b": ["lights", "supremacy"],  # 49 cells -> failed; best-ranked pact acceptor -> 3 shards
        "c": ["camera", "supremacy"],  # 2 exclusive cameras -> met; other acceptor -> mark
        "d": ["camera"],  # 1 exclusive -> failed
        "e": ["action", "supremacy"],  # share 50 -> met, 2 shards; mark
        "f": ["action"],  # share 49.99.. -> failed
    }
    from fractions import Fraction

    f = facts(
        players,
        lit_cells={"a": 50, "b": 49},
        exclusive_cameras={"c": 2, "d": 1},
        best_share={"e": Fraction(50), "f": Fraction(149, 3)},
    )
    result = [a for a in awards(rank_players(players, scores), contracts, f) if a["kind"] in ("shards", "mark")]
    assert result == [
        {"participant": "a", "kind": "shards", "shards": 1, "reason": "contract: lights"},
        {"participant": "b", "kind": "shards", "shards": 3, "reason": "supremacy pact"},
        {"participant": "c", "kind": "shards", "shards": 1, "reason": "contract: camera"},
        {"participant": "c", "kind": "mark", "reason": "supremacy pact"},
        {"participant": "e", "kind": "shards", "shards": 2, "reason": "contract: action"},
        {"participant": "e", "kind": "mark", "reason": "supremacy pact"},
    ]


def test_contracts_from_a_played_match():
    # 20x20 open floor.  Lights: ann D4 Q4 D17 (three lights 13 steps apart, 24 cells
    # each -> 72 distinct cells >= 50: met); dan Q17 K10, his Q4 D4 D17 are occupied ->
    # 2 lights, 48 cells < 50 (no contract on that, see below).
    # Cameras: ann B2 B6 B10, bob B10 S19 S15 -> bob's S19 and S15 touch no other
    # player's camera: 2 exclusive, camera contract met.
    # Actions: cat T1 alone, 10+ steps from every other action -> 0 + 0 + 50 = 50, share
    # 50 >= 50: action contract met.  dan's best action is K20: 9 steps from T20 -> 45,
    # line 0 -> 45 < 50: failed.  dan's lights contract (48 cells) failed.
    m = new_match(open_floor(20, 20), ["ann", "bob", "cat", "dan"])
    play(
        m,
        [
            {"ann": "D4 Q4 D17 A1 A2", "dan": "Q17 K10 Q4 D4 D17"},
            {"ann": "B2 B6 B10", "bob": "B10 S19 S15"},
            {"cat": "T1 T20 A20", "dan": "A20 K20 A14"},
        ],
        contracts={"ann": ["lights"], "bob": ["camera", "supremacy"], "cat": ["action"], "dan": ["lights"]},
    )
    g = m.state.g
    assert len(g.lights.lit_by["ann"]) == 72 and len(g.lights.lit_by["dan"]) == 48
    assert g.cameras.exclusive("bob") == 2 and g.cameras.exclusive("ann") == 2
    from matchledger.engine.state import HOST

    out = m.game.outcome(m.state, HOST)
    assert [a for a in out["awards"] if a["kind"] in ("shards", "mark")] == sorted(
        [
            {"participant": "ann", "kind": "shards", "shards": 1, "reason": "contract: lights"},
            {"participant": "bob", "kind": "shards", "shards": 1, "reason": "contract: camera"},
            {"participant": "bob", "kind": "shards", "shards": 3, "reason": "supremacy pact"},
            {"participant": "cat", "kind": "shards", "shards": 2, "reason": "contract: action"},
        ],
        key=lambda a: [s["participant"] for s in out["standings"]].index(a["participant"]),
    )


@pytest.mark.parametrize("bob_first, exclusive, met", [("D2", 1, False), ("E2", 2, True)])
def test_camera_contract_blocks_whose_centres_are_2_apart_share_a_cell_3_apart_do_not(bob_first, exclusive, met):
    # 6x17 open floor; ann holds the camera contract, her cameras on B2, B8, B14.
    # bob's first camera is 2 (D2) or 3 (E2) columns right of B2: D2's block C1-E3 shares
    # column C with B2's A1-C3, E2's D1-F3 shares nothing.  bob's B11 (A10-C12) is 3 rows below
    # B8 (A7-C9): no shared cell.  bob's B16 (A15-C17) is 2 rows below B14 (A13-C15):
    # they share row 15.  So ann has `exclusive` cameras sharing no cell with bob's, and
    # needs 2 for the contract.
    m = new_match(open_floor(6, 17), ["ann", "bob"])
    play(m, [{}, {"ann": "B2 B8 B14", "bob": f"{bob_first} B11 B16"}, {}], contracts={"ann": ["camera"]})
    assert m.state.g.cameras.exclusive("ann") == exclusive
    awards = m.game.outcome(m.state, HOST)["awards"]
    assert ({"participant": "ann", "kind": "shards", "shards": 1, "reason": "contract: camera"} in awards) is met
