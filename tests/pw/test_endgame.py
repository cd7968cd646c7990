"""Endgame: pair ranking, ToLs, bonus shards, ECs (W9), contracts; outcome shapes."""

import random

import pytest

from matchledger.engine.commands import RecordContract, Submit
from matchledger.engine.pw import GAME
from matchledger.engine.pw.endgame import ecs, endgame, ranking
from matchledger.engine.pw.model import PWState, RoundResult
from matchledger.engine.pw.sample import plan
from matchledger.engine.state import HOST, PUBLIC, MatchState, as_participant

from .test_resolution import full_match
from .util import play

P7 = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
G7 = ["zed", "yul", "xio", "wim", "vik", "ura", "tof"]


def pw_state(players, guests):
    pairs = dict(zip(players, guests))
    partner = {**pairs, **{gst: p for p, gst in pairs.items()}}
    role = {**dict.fromkeys(players, "player"), **dict.fromkeys(guests, "guest")}
    return PWState(players=list(players), guest_of=pairs, partner=partner, role=role)


def totals_of(players, guests, pts):
    return dict(zip(players + guests, pts))


def fake_finished(players, guests, pts, contracts=None):
    """A MatchState whose Round 3 is stored with the given totals (for award logic only)."""
    g = pw_state(players, guests)
    totals = totals_of(players, guests, pts)
    g.rounds[3] = RoundResult(
        round=3,
        actions={p: [] for p in totals},
        effective={},
        swapped=[],
        type_counts={},
        round_points={},
        end_points={},
        totals=totals,
        learn={},
        watch={},
    )
    state = MatchState(
        match_id="f",
        game="pw",
        players=list(players),
        participants=players + guests,
        options={},
        setup={"pairs": dict(zip(players, guests))},
        contracts=contracts or {},
    )
    state.g = g
    return state


def test_full_match_outcome_host_and_public():
    m = full_match()
    out = GAME.outcome(m.state, HOST)
    # Totals ann 7, bob 2, cat 0, zed -1, yul 3, xio 6 (test_resolution).  Pairs: ann 7-1=6,
    # bob 2+3=5, cat 0+6=6.  ann and cat tie on 6: player points 7 > 0 -> ann first.
    assert out["standings"] == [
        {"participant": "ann", "guest": "zed", "rank": 1, "total": 6, "scores": {"player": 7, "guest": -1}},
        {"participant": "cat", "guest": "xio", "rank": 2, "total": 6, "scores": {"player": 0, "guest": 6}},
        {"participant": "bob", "guest": "yul", "rank": 3, "total": 5, "scores": {"player": 2, "guest": 3}},
    ]
    assert out["awards"] == [
        {"participant": "ann", "kind": "tol", "shards": 2, "reason": "best pair"},
        {"participant": "cat", "kind": "tol", "shards": 0, "reason": "second pair"},
        # highest player ann (7) holds a ToL; highest guest xio (6) -> partner cat's ToL.
        {"participant": "ann", "kind": "tol_shard", "shards": 1, "reason": "highest player"},
        {"participant": "cat", "kind": "tol_shard", "shards": 1, "reason": "highest guest"},
        # W9: only pair bob-yul lacks a ToL; both ECs name bob and nobody is left -> one EC.
        {"participant": "bob", "kind": "ec", "reason": "lowest player and lowest guest (only EC)"},
        # bob and yul each used six different types -> diversity met; ann repeated unique -> failed.
        {"participant": "bob", "kind": "shards", "shards": 1, "reason": "contract: diversity"},
        # cat generosity: xio 6 >= cat 0 + 2.  cat's pact on ann (failed diversity) is met;
        # ann's pact on bob and bob's pact on cat fail (both met their contracts).
        {"participant": "cat", "kind": "shards", "shards": 1, "reason": "contract: generosity"},
        {"participant": "cat", "kind": "shards", "shards": 1, "reason": "sabotage pact"},
    ]
    public = GAME.outcome(m.state, PUBLIC)
    # Public at the end: which players receive ToLs and bonus shards, which are ECs, and
    # the contract results, "and nothing else": a reason names the award, never the score
    # behind it, and the list goes player by player as listed (the host's order would
    # tell which pair ranks better).
    assert public == {
        "match": "t1",
        "game": "pw",
        "finished": True,
        "awards": [
            {"participant": "ann", "kind": "tol", "shards": 2, "reason": "ToL"},
            {"participant": "ann", "kind": "tol_shard", "shards": 1, "reason": "bonus shard"},
            {"participant": "bob", "kind": "shards", "shards": 1, "reason": "contract: diversity"},
            {"participant": "bob", "kind": "ec", "reason": "EC"},
            {"participant": "cat", "kind": "tol", "shards": 0, "reason": "ToL"},
            {"participant": "cat", "kind": "tol_shard", "shards": 1, "reason": "bonus shard"},
            {"participant": "cat", "kind": "shards", "shards": 1, "reason": "contract: generosity"},
            {"participant": "cat", "kind": "shards", "shards": 1, "reason": "sabotage pact"},
        ],
        "contracts": CONTRACT_RESULTS,
    }
    assert out["contracts"] == CONTRACT_RESULTS
    # The OutcomeAnnounced event carries exactly these.
    assert m.state.outcome.outcome == out and m.state.outcome.public == public


#: full_match's contracts, each with its result, players by name (each one's non-pact
#: contract, then their Sabotage Pact and the player it names).
CONTRACT_RESULTS = [
    # ann repeated unique: diversity failed; her pact on bob fails, for bob's diversity is met
    {"participant": "ann", "contract": "diversity", "succeeded": False},
    {"participant": "ann", "contract": "sabotage", "target": "bob", "succeeded": False},
    {"participant": "bob", "contract": "diversity", "succeeded": True},
    # bob's pact on cat fails: xio 6 >= cat 0 + 2 meets cat's generosity
    {"participant": "bob", "contract": "sabotage", "target": "cat", "succeeded": False},
    {"participant": "cat", "contract": "generosity", "succeeded": True},
    # cat's pact pays exactly on ann's failed diversity
    {"participant": "cat", "contract": "sabotage", "target": "ann", "succeeded": True},
]


def test_a_sabotage_pact_paying_on_a_failed_contract_is_announced_with_that_contract():
    """Rules, Endgame: contract results are public at the end; a Sabotage Pact pays
    exactly when the player it names fails, so both results are named, in every view."""
    m = full_match()
    failed = {"participant": "ann", "contract": "diversity", "succeeded": False}
    sabotage = {"participant": "cat", "contract": "sabotage", "target": "ann", "succeeded": True}
    assert {"participant": "cat", "kind": "shards", "shards": 1, "reason": "sabotage pact"} in GAME.outcome(
        m.state, HOST
    )["awards"]
    assert [
        a for a in GAME.outcome(m.state, HOST)["awards"] if a["participant"] == "ann" and a["kind"] == "shards"
    ] == []
    views = [HOST, PUBLIC, *(as_participant(p) for p in m.state.participants)]
    for view in views:
        results = GAME.outcome(m.state, view)["contracts"]
        assert failed in results and sabotage in results
        assert results == CONTRACT_RESULTS
        assert GAME.reveals(m.state, view)["outcome"]["contracts"] == CONTRACT_RESULTS
    for name in m.state.participants:
        assert GAME.knowledge(m.state, name)["contracts"] == CONTRACT_RESULTS
    # what the log records: the host's outcome and the public one
    assert m.state.outcome.outcome["contracts"] == m.state.outcome.public["contracts"] == CONTRACT_RESULTS


def test_outcome_before_the_end():
    from .util import new_match

    m = new_match()
    assert GAME.outcome(m.state, PUBLIC) == {
        "match": "t1",
        "game": "pw",
        "finished": False,
        "awards": [],
        "contracts": [],
    }
    assert GAME.outcome(m.state, HOST)["finished"] is False


def test_ranking_tie_breaks():
    g = pw_state(P7[:4], G7[:4])
    # Pairs: ann 3+2=5, bob 4+1=5, cat 2+3=5, dan 5+0=5: all 5.  Player points: dan 5, bob 4, ann 3, cat 2.
    t = totals_of(P7[:4], G7[:4], [3, 4, 2, 5, 2, 1, 3, 0])
    assert ranking(g, t) == ["dan", "bob", "ann", "cat"]
    # Same pair score and player points -> previous-MM (listed) order.
    t = totals_of(P7[:4], G7[:4], [1, 1, 1, 1, 1, 1, 1, 1])
    assert ranking(g, t) == ["ann", "bob", "cat", "dan"]


@pytest.mark.ruling("W9")
def test_w9_collision_second_ec_is_next_lowest():
    g = pw_state(P7, G7)
    #        ann bob cat dan eve fay gus | zed yul xio wim vik ura tof
    pts = [5, 4, 3, 3, 0, 2, 1, 5, 4, 3, 2, -2, 2, 1]
    t = totals_of(P7, G7, pts)
    # Pairs: ann 10, bob 8, cat 6, dan 5, eve -2, fay 4, gus 2 -> ranked ann bob cat dan fay gus eve.
    ranked = ranking(g, t)
    assert ranked == ["ann", "bob", "cat", "dan", "fay", "gus", "eve"]
    # No ToL: cat dan fay gus eve.  Lowest player eve (0); lowest guest vik (-2) -> eve: collision.
    # Next lowest among the others: gus 1 / tof 1 (both name gus) -> gus.  gus ranks 6th, eve 7th.
    assert ecs(g, ranked, t) == [
        {"participant": "gus", "kind": "ec", "reason": "next lowest (higher EC)"},
        {"participant": "eve", "kind": "ec", "reason": "lowest player and lowest guest (lower EC)"},
    ]


@pytest.mark.ruling("W9")
def test_w9_next_lowest_tie_goes_to_the_worse_ranked_pair():
    g = pw_state(P7, G7)
    #        ann bob cat dan eve fay gus | zed yul xio wim vik ura tof
    pts = [5, 4, 3, 3, 0, 1, 2, 5, 4, 3, 2, -2, 3, 1]
    t = totals_of(P7, G7, pts)
    # Pairs: cat 6, dan 5, fay 4, gus 3, eve -2 -> fay ranks 5th, gus 6th.
    ranked = ranking(g, t)
    assert ranked[2:] == ["cat", "dan", "fay", "gus", "eve"]
    # Collision on eve; next lowest score 1: fay (player) and tof (gus's guest) -> worse-ranked gus.
    assert [a["participant"] for a in ecs(g, ranked, t)] == ["gus", "eve"]


@pytest.mark.ruling("W9")
def test_w9_distinct_ecs_with_ties():
    g = pw_state(P7[:5], G7[:5])
    #        ann bob cat dan eve | zed yul xio wim vik
    pts = [9, 9, 1, 1, 4, 0, 0, 5, 0, 0]
    t = totals_of(P7[:5], G7[:5], pts)
    # Pairs: ann 9, bob 9, cat 6, dan 1, eve 4 -> ranked ann bob cat eve dan.
    ranked = ranking(g, t)
    assert ranked == ["ann", "bob", "cat", "eve", "dan"]
    # Lowest player: cat 1 and dan 1 tie -> worse-ranked dan.  Lowest guest: wim 0 and vik 0
    # (xio 5) -> wim (dan, 5th) is worse than vik (eve, 4th) -> dan again: collision!
    # Next lowest excluding dan: vik 0 -> eve.  eve ranks 4th > dan 5th: eve is the higher EC.
    assert ecs(g, ranked, t) == [
        {"participant": "eve", "kind": "ec", "reason": "next lowest (higher EC)"},
        {"participant": "dan", "kind": "ec", "reason": "lowest player and lowest guest (lower EC)"},
    ]
    pts = [9, 9, 1, 2, 4, 0, 0, 5, 3, 0]
    t = totals_of(P7[:5], G7[:5], pts)
    ranked = ranking(g, t)  # ann 9, bob 9, cat 6, dan 5, eve 4
    # Lowest player cat (1); lowest guest vik (0) -> eve.  cat ranks 3rd: higher EC.
    assert ecs(g, ranked, t) == [
        {"participant": "cat", "kind": "ec", "reason": "lowest player (higher EC)"},
        {"participant": "eve", "kind": "ec", "reason": "lowest guest (lower EC)"},
    ]


@pytest.mark.ruling("W9")
def test_w9_two_pairs_no_ec():
    g = pw_state(P7[:2], G7[:2])
    t = totals_of(P7[:2], G7[:2], [0, 1, 0, 1])
    assert ecs(g, ranking(g, t), t) == []


def test_bonus_shards_only_onto_a_tol_from_this_match():
    players, guests = P7[:4], G7[:4]
    #       ann bob cat dan | zed yul xio wim
    pts = [2, 6, 7, 0, 9, 1, 0, 9]
    state = fake_finished(players, guests, pts)
    awards = endgame(state).awards
    # Pairs: ann 11, bob 7, cat 7, dan 9 -> ann, dan ToLs.  Highest player cat (7) holds none: lost,
    # not listed.  Highest guests zed and wim tie (9): both partners (ann, dan) hold ToLs.
    assert [a for a in awards if a["kind"] in ("tol", "tol_shard")] == [
        {"participant": "ann", "kind": "tol", "shards": 2, "reason": "best pair"},
        {"participant": "dan", "kind": "tol", "shards": 0, "reason": "second pair"},
        {"participant": "ann", "kind": "tol_shard", "shards": 1, "reason": "highest guest"},
        {"participant": "dan", "kind": "tol_shard", "shards": 1, "reason": "highest guest"},
    ]


def test_sabotage_on_a_player_without_a_contract_is_met():
    state = fake_finished(P7[:3], G7[:3], [0] * 6, contracts={"ann": ["generosity", "sabotage:bob"]})
    # ann: guest 0 >= 0 + 2 fails; bob holds no contract -> ann's pact is met.
    assert [a for a in endgame(state).awards if a["kind"] == "shards"] == [
        {"participant": "ann", "kind": "shards", "shards": 1, "reason": "sabotage pact"}
    ]


@pytest.mark.parametrize("guest, met", [(3, True), (2, False)])
def test_generosity_is_met_at_guest_points_exactly_player_points_plus_2_not_plus_1(guest, met):
    # ann 1 point, her guest zed 3 (= 1 + 2: met) or 2 (= 1 + 1: failed); bob, cat and
    # their guests 0.
    state = fake_finished(P7[:3], G7[:3], [1, 0, 0, guest, 0, 0], contracts={"ann": ["generosity"]})
    contract = {"participant": "ann", "kind": "shards", "shards": 1, "reason": "contract: generosity"}
    assert (contract in endgame(state).awards) is met


def _espionage_match(guesses: list[tuple[str, bool]], seed: int):
    """A random legal 6-pair match where ann (espionage) adds the given Round-3 guesses."""
    create, cmds = plan(random.Random(seed), n=6, contracts=False, guesses=False)
    pairs = create.setup["pairs"]
    last = max(i for i, c in enumerate(cmds) if isinstance(c, Submit) and c.participant == "ann")
    extra = [f"guess:{who}={pairs[who] if right else pairs['bob']}" for who, right in guesses]
    cmds[last] = Submit("ann", cmds[last].tokens + extra)
    return play(create, [RecordContract("ann", ["espionage"])] + cmds)


def test_espionage_needs_four_right_and_none_wrong():
    # ann's Round-3 guesses: bob, cat, dan, eve all right -> 2 shards.
    m = _espionage_match([("bob", True), ("cat", True), ("dan", True), ("eve", True)], seed=5)
    assert m.state.g.rounds[3].guess_record["ann"] == {"correct": 4, "wrong": 0}
    assert {"participant": "ann", "kind": "shards", "shards": 2, "reason": "contract: espionage"} in GAME.outcome(
        m.state, HOST
    )["awards"]
    # Four right and one wrong (fay named as bob's guest's partner) -> failed.
    m = _espionage_match([("bob", True), ("cat", True), ("dan", True), ("eve", True), ("fay", False)], seed=5)
    assert m.state.g.rounds[3].guess_record["ann"] == {"correct": 4, "wrong": 1}
    assert not [a for a in GAME.outcome(m.state, HOST)["awards"] if a["reason"] == "contract: espionage"]
    # Three right -> failed.
    m = _espionage_match([("bob", True), ("cat", True), ("dan", True)], seed=5)
    assert not [a for a in GAME.outcome(m.state, HOST)["awards"] if a["reason"] == "contract: espionage"]
    assert GAME.outcome(m.state, as_participant("ann"))["finished"] is True
