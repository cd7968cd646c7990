"""Round resolution: W6 swaps, Gift, Learn (W7), Predict, Watch, type counts, notices;
Unique (W8) and guesses at Round 3.  Every number is worked out by hand in comments.

Pairs: ann-zed, bob-yul, cat-xio.  Public order for lists shown to participants:
players as listed (ann, bob, cat), then guests by name (xio, yul, zed)."""

import pytest

from matchledger.engine.commands import RecordContract
from matchledger.engine.pw import GAME
from matchledger.engine.state import HOST

from .util import new_match, play_round

ROUND_SWAP = {
    "ann": "gift:bob predict:cat=swap",
    "zed": "swap:bob learn:xio",
    "bob": "gift:cat watch:ann",
    "yul": "unique:zed predict:ann=learn",
    "cat": "learn:yul watch:bob",
    "xio": "swap:yul gift:zed",
}


@pytest.mark.ruling("W6")
def test_w6_swap_through_both_members_redirects_and_scores():
    m = new_match()
    play_round(m, ROUND_SWAP)
    res = m.state.g.rounds[1]
    # W6: zed swap:bob and xio swap:yul both hit pair bob-yul (one per member) -> swapped.
    assert res.swapped == ["bob"]
    # Effective targets: bob<->yul redirected, everything else unchanged.
    assert res.effective["ann"] == ["yul", "cat"]
    assert res.effective["zed"] == ["yul", "xio"]  # the Swap action itself is redirected too
    assert res.effective["cat"] == ["bob", "yul"]
    assert res.effective["xio"] == ["bob", "zed"]
    # Points: ann gift E=yul -> partner(yul)=bob +1; ann predict E=cat, xio used swap -> ann +2, xio -1;
    # bob gift E=cat -> xio +1; yul predict E=ann, zed used learn -> yul +2, zed -1;
    # xio gift E=zed -> ann +1.
    # ann 2+1=3, bob 1, cat 0, zed -1, yul 2, xio -1+1=0.
    assert res.totals == {"ann": 3, "bob": 1, "cat": 0, "zed": -1, "yul": 2, "xio": 0}
    # Public: gift ann,bob,xio=3; learn zed,cat=2; predict ann,yul=2; swap zed,xio=2; unique yul=1; watch bob,cat=2.
    closed = m.state.announcements[1]
    assert closed.public == {"type_counts": {"gift": 3, "learn": 2, "predict": 2, "swap": 2, "unique": 1, "watch": 2}}
    # W7: cat learn:yul is redirected to E=bob, so cat learns partner(bob)=yul's own actions
    # (type, submitted target, predicted type) and is never told who partner(E) is.
    assert closed.private["cat"] == {
        "own_points": 0,
        "partner_points": 0,
        "learn": [
            {
                "target": "yul",
                "actions": [
                    {"type": "unique", "target": "zed"},
                    {"type": "predict", "target": "ann", "predict": "learn"},
                ],
            }
        ],
        # Watch E=yul (redirected from bob): ann gift, zed swap (Clarification: Swaps count with the
        # swapped target) and cat's own watch.
        "watch": [{"target": "bob", "seen": ["ann", "cat", "zed"]}],
    }
    # zed learn:xio, not redirected: partner(xio)=cat's actions.
    assert closed.private["zed"]["learn"] == [
        {"target": "xio", "actions": [{"type": "learn", "target": "yul"}, {"type": "watch", "target": "bob"}]}
    ]
    assert closed.private["zed"]["own_points"] == -1 and closed.private["zed"]["partner_points"] == 3
    # bob watch:ann: effective target ann was hit by bob's watch and yul's predict.
    assert closed.private["bob"]["watch"] == [{"target": "ann", "seen": ["bob", "yul"]}]
    assert closed.private["bob"]["own_points"] == 1 and closed.private["bob"]["partner_points"] == 2


@pytest.mark.ruling("W6")
def test_w6_one_swap_is_not_enough_and_three_do_not_stack():
    m = new_match()
    play_round(
        m,
        {
            "ann": "swap:bob gift:cat",
            "zed": "learn:bob watch:cat",
            "bob": "gift:ann learn:cat",
            "yul": "predict:ann=gift watch:cat",
            "cat": "gift:ann learn:bob",
            "xio": "predict:ann=gift watch:bob",
        },
    )
    res = m.state.g.rounds[1]
    assert res.swapped == []  # a single Swap on pair bob-yul
    assert res.effective["zed"] == ["bob", "cat"]
    m2 = new_match()
    play_round(
        m2,
        {
            "ann": "swap:bob swap:yul",
            "zed": "learn:bob watch:cat",
            "bob": "gift:ann learn:cat",
            "yul": "predict:ann=gift watch:cat",
            "cat": "swap:yul learn:bob",
            "xio": "predict:ann=gift watch:bob",
        },
    )
    res2 = m2.state.g.rounds[1]
    # Three Swaps on pair bob-yul: redirected exactly once (bob->yul, yul->bob), not back again.
    assert res2.swapped == ["bob"]
    assert res2.effective["ann"] == ["yul", "bob"]
    assert res2.effective["zed"] == ["yul", "cat"]
    assert res2.effective["xio"] == ["ann", "yul"]
    # xio watch:bob -> E=yul: ann swap:bob->yul, zed learn:bob->yul, cat learn:bob->yul, xio itself.
    assert m2.state.announcements[1].private["xio"]["watch"] == [
        {"target": "bob", "seen": ["ann", "cat", "xio", "zed"]}
    ]


@pytest.mark.ruling("W7")
def test_w7_learn_shows_partner_e_actions_by_type_submitted_target_and_predicted_type_never_partner_e():
    m = new_match()
    play_round(
        m,
        {
            "ann": "learn:bob gift:cat",
            "zed": "watch:bob unique:xio",
            "bob": "gift:zed watch:xio",
            "yul": "predict:cat=gift unique:ann",
            "cat": "learn:zed watch:yul",
            "xio": "gift:ann predict:bob=watch",
        },
    )
    # No Swap: ann learn:bob has E=bob, partner(E)=yul, whose two actions ann learns as
    # submitted (type, target, and the predicted type of the Predict) -- and not that
    # they are yul's: the entry names only the target ann submitted.
    [learned] = m.state.announcements[1].private["ann"]["learn"]
    assert learned == {
        "target": "bob",
        "actions": [{"type": "predict", "target": "cat", "predict": "gift"}, {"type": "unique", "target": "ann"}],
    }
    assert "yul" not in str(m.state.announcements[1].private["ann"])


def test_several_predict_hits_all_apply():
    m = new_match()
    play_round(
        m,
        {
            "ann": "gift:bob learn:cat",
            "zed": "watch:bob swap:cat",
            "bob": "predict:zed=gift watch:cat",
            "yul": "learn:ann swap:cat",
            "cat": "predict:zed=gift learn:bob",
            "xio": "gift:ann watch:bob",
        },
    )
    # bob and cat both predict that partner(E=zed)=ann used gift; ann did -> each +2, ann -1 twice.
    # ann gift:bob -> yul +1; xio gift:ann -> zed +1.
    # Totals: ann -2, bob 2, cat 2, zed 1, yul 1, xio 0.
    assert m.state.g.rounds[1].totals == {"ann": -2, "bob": 2, "cat": 2, "zed": 1, "yul": 1, "xio": 0}
    # Pair cat-xio swapped (zed and yul Swap cat); bob watch:cat -> E=xio, hit by
    # ann learn:cat, zed swap:cat, yul swap:cat (all redirected) and bob himself.
    assert m.state.announcements[1].private["bob"]["watch"] == [{"target": "cat", "seen": ["ann", "bob", "yul", "zed"]}]
    # ann learn:cat -> E=xio -> learns partner(xio)=cat's actions.
    assert m.state.announcements[1].private["ann"]["learn"] == [
        {
            "target": "cat",
            "actions": [{"type": "predict", "target": "zed", "predict": "gift"}, {"type": "learn", "target": "bob"}],
        }
    ]


def test_predict_against_a_partner_who_used_the_type_twice_is_one_hit_not_two():
    m = new_match()
    play_round(
        m,
        {
            "ann": "predict:bob=gift watch:cat",
            "zed": "learn:bob unique:cat",
            "bob": "learn:ann watch:xio",
            "yul": "gift:ann gift:cat",
            "cat": "learn:ann watch:bob",
            "xio": "unique:bob predict:zed=gift",
        },
    )
    # No Swap this round, so every target is effective.  ann predict:bob=gift: E=bob,
    # partner(bob)=yul used gift in both actions -- "if partner(E) submitted t this round
    # (either action)": one hit, ann +2, yul -1.  xio predict:zed=gift: partner(zed)=ann
    # used predict and watch: a miss.
    # yul gift:ann -> partner(ann)=zed +1; yul gift:cat -> partner(cat)=xio +1.
    assert m.state.g.rounds[1].totals == {"ann": 2, "bob": 0, "cat": 0, "zed": 1, "yul": -1, "xio": 1}


FULL = {
    1: {
        "ann": "unique:yul gift:cat",
        "zed": "predict:bob=gift swap:cat",
        "bob": "gift:zed learn:xio",
        "yul": "predict:ann=predict swap:xio",
        "cat": "gift:bob learn:zed",
        "xio": "predict:ann=swap swap:yul",
    },
    2: {
        "ann": "watch:bob learn:xio",
        "zed": "gift:yul swap:cat",
        "bob": "unique:zed watch:cat",
        "yul": "gift:xio learn:ann",
        "cat": "unique:zed watch:yul",
        "xio": "gift:ann learn:bob",
    },
    3: {
        "ann": "unique:yul predict:xio=swap guess:bob=yul guess:cat=zed",
        "zed": "learn:bob watch:xio guess:yul=bob",
        "bob": "predict:xio=watch swap:zed guess:ann=zed guess:cat=xio",
        "yul": "unique:cat watch:ann guess:xio=ann",
        "cat": "predict:yul=watch swap:ann",
        "xio": "unique:bob watch:zed guess:zed=ann guess:yul=bob",
    },
}
CONTRACTS = {
    "ann": ["diversity", "sabotage:bob"],
    "bob": ["diversity", "sabotage:cat"],
    "cat": ["generosity", "sabotage:ann"],
}


def full_match():
    m = new_match()
    for player, names in CONTRACTS.items():
        m.do(RecordContract(player, names))
    for r in (1, 2, 3):
        play_round(m, FULL[r])
    return m


def test_full_match_round_by_round():
    m = full_match()
    g = m.state.g
    # R1: pair cat-xio swapped (zed swap:cat, yul swap:xio); pair bob-yul has one Swap only.
    assert g.rounds[1].swapped == ["cat"]
    # ann gift:cat -> E=xio -> cat +1; bob gift:zed -> ann +1; cat gift:bob -> yul +1;
    # yul predict:ann=predict hits (zed used predict) -> yul +2, zed -1;
    # xio predict:ann=swap hits (zed used swap) -> xio +2, zed -1; zed predict:bob=gift misses.
    assert g.rounds[1].totals == {"ann": 1, "bob": 0, "cat": 1, "zed": -2, "yul": 3, "xio": 2}
    # R2: no swaps (one only); zed gift:yul -> bob +1; yul gift:xio -> cat +1; xio gift:ann -> zed +1.
    assert g.rounds[2].swapped == []
    assert g.rounds[2].totals == {"ann": 1, "bob": 1, "cat": 2, "zed": -1, "yul": 3, "xio": 2}
    # R3: bob swap:zed + cat swap:ann -> pair ann-zed swapped.
    assert g.rounds[3].swapped == ["ann"]
    # ann predict:xio=swap hits (cat used swap): ann +2, cat -1; bob, cat predicts miss.
    assert g.rounds[3].round_points == {"ann": 2, "bob": 0, "cat": -1, "zed": 0, "yul": 0, "xio": 0}


@pytest.mark.ruling("W8")
def test_w8_unique_effective_targets_and_own_repeats():
    m = full_match()
    r3 = m.state.g.rounds[3]
    # Uniques (effective targets): R1 ann->yul; R2 bob->zed, cat->zed; R3 ann->yul, yul->cat, xio->bob.
    # W8: ann's two on yul do not block each other (+2 +2); bob and cat share zed (0 each);
    # yul on cat +2; xio on bob +2.
    assert r3.unique_points == {"ann": 4, "bob": 0, "cat": 0, "zed": 0, "yul": 2, "xio": 2}


def test_guesses_steal_one_point_each():
    m = full_match()
    r3 = m.state.g.rounds[3]
    # ann: bob=yul right (ann +1, bob -1), cat=zed wrong.  bob: ann=zed right (+1, ann -1),
    # cat=xio right (+1, cat -1).  zed: yul=bob right (+1, yul -1).  yul: xio=ann wrong.
    # xio: zed=ann right (+1, zed -1), yul=bob right (+1, yul -1).
    # ann 1-1=0; bob -1+2=1; cat -1; zed 1-1=0; yul -2; xio +2.
    assert r3.guess_points == {"ann": 0, "bob": 1, "cat": -1, "zed": 0, "yul": -2, "xio": 2}
    assert r3.guess_record["ann"] == {"correct": 1, "wrong": 1}
    assert r3.guess_record["bob"] == {"correct": 2, "wrong": 0}


def test_full_match_final_totals_and_round3_notice():
    m = full_match()
    # ann 1 + 2 (predict) + 4 (unique) + 0 (guesses) = 7; bob 1 + 0 + 0 + 1 = 2;
    # cat 2 - 1 + 0 - 1 = 0; zed -1 + 0 + 0 + 0 = -1; yul 3 + 0 + 2 - 2 = 3; xio 2 + 0 + 2 + 2 = 6.
    scores = GAME.scores(m.state, HOST)
    assert scores["participants"] == [
        {"participant": "ann", "role": "player", "points": 7},
        {"participant": "bob", "role": "player", "points": 2},
        {"participant": "cat", "role": "player", "points": 0},
        {"participant": "xio", "role": "guest", "points": 6},
        {"participant": "yul", "role": "guest", "points": 3},
        {"participant": "zed", "role": "guest", "points": -1},
    ]
    notice = m.state.announcements[3].private["yul"]
    # yul watch:ann -> E=zed (pair ann-zed swapped): cat swap:ann->zed and yul's own watch.
    assert notice == {
        "own_points": 3,
        "partner_points": 2,
        "learn": [],
        "watch": [{"target": "ann", "seen": ["cat", "yul"]}],
    }
    # xio watch:zed -> E=ann: bob swap:zed->ann and xio.
    assert m.state.announcements[3].private["xio"]["watch"] == [{"target": "zed", "seen": ["bob", "xio"]}]
