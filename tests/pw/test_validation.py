"""W3 (pair type clash), W4 (twice per match + Round-3 reachability), W5 (resubmission,
mandatory actions)."""

import pytest

from matchledger.engine.commands import CloseRound, Correct, Submit, Void
from matchledger.ledger.errors import IllegalMove

from .util import new_match, play_round

# The other two pairs (bob-yul, cat-xio) follow a legal schedule in every round.
OTHERS = {
    1: {
        "bob": "gift:ann learn:cat",
        "yul": "predict:ann=gift swap:cat",
        "cat": "gift:ann learn:bob",
        "xio": "predict:ann=gift swap:bob",
    },
    2: {
        "bob": "unique:ann watch:cat",
        "yul": "gift:ann learn:cat",
        "cat": "unique:ann watch:bob",
        "xio": "gift:ann learn:bob",
    },
    3: {
        "bob": "predict:ann=gift swap:cat",
        "yul": "unique:ann watch:cat",
        "cat": "predict:ann=gift swap:bob",
        "xio": "unique:ann watch:bob",
    },
}


@pytest.mark.ruling("W3")
def test_w3_second_recorded_is_rejected_whoever_it_is():
    m = new_match()
    m.do(Submit("ann", ["gift:bob", "learn:cat"]))
    with pytest.raises(IllegalMove) as err:
        m.do(Submit("zed", ["gift:bob", "watch:cat"]))
    assert str(err.value).startswith("W3: 'gift' ('gift:bob')")
    m.do(Submit("zed", ["watch:bob", "swap:cat"]))
    # Now ann (recorded first) may not switch to a type zed holds: ann's resubmission is second.
    with pytest.raises(IllegalMove, match="W3: 'swap'"):
        m.do(Submit("ann", ["swap:bob", "learn:cat"]))


@pytest.mark.ruling("W3")
def test_w3_ignores_a_voided_partner_submission():
    m = new_match()
    m.do(Submit("zed", ["gift:bob", "watch:cat"]))
    m.do(Void(seq=len(m.events), reason="entered for the wrong participant"))
    m.do(Submit("ann", ["gift:bob", "learn:cat"]))  # W3 no longer applies
    assert m.state.current_submission(1, "zed") is None


@pytest.mark.ruling("W5")
def test_w5_resubmission_replaces_and_does_not_count_itself():
    m = new_match()
    m.do(Submit("ann", ["gift:bob", "gift:cat"]))
    # Counting the superseded submission would make 4 gifts (W4); it must not count.
    m.do(Submit("ann", ["gift:cat", "gift:bob"]))
    assert m.state.current_submission(1, "ann").tokens == ["gift:cat", "gift:bob"]
    assert len(m.state.submissions[1]["ann"]) == 2  # the earlier one stays in the log


def test_correction_excludes_the_replaced_submission():
    m = new_match()
    m.do(Submit("ann", ["gift:bob", "gift:cat"]))
    # Correcting ann's submission: the replaced one (two gifts) must not count towards W4.
    [event] = m.do(Correct(seq=len(m.events), tokens=["gift:yul", "gift:xio"], reason="typo"))
    assert event.tokens == ["gift:yul", "gift:xio"]
    corrected_seq = len(m.events)
    m.do(Submit("zed", ["learn:bob", "watch:cat"]))
    # W3 applies to corrections too: zed already holds learn this round.
    with pytest.raises(IllegalMove, match="W3: 'learn'"):
        m.do(Correct(seq=corrected_seq, tokens=["learn:bob", "gift:cat"], reason="second thoughts"))


@pytest.mark.ruling("W5")
def test_w5_cannot_close_while_anyone_is_missing():
    m = new_match()
    play_round(
        m,
        {
            "ann": "gift:bob learn:cat",
            "bob": "gift:ann learn:cat",
            "cat": "gift:ann learn:bob",
            "yul": "predict:ann=gift swap:cat",
        },
        close=False,
    )
    with pytest.raises(IllegalMove) as err:
        m.do(CloseRound())
    assert "no submission from xio, zed" in str(err.value)  # guests by name: the pairing stays secret


@pytest.mark.ruling("W4")
def test_w4_a_third_use_over_the_match_is_rejected():
    m = new_match()
    play_round(m, {"ann": "gift:bob gift:cat", "zed": "learn:bob learn:cat", **OTHERS[1]})
    with pytest.raises(IllegalMove) as err:
        m.do(Submit("zed", ["gift:bob", "watch:cat"]))
    # ann's two R1 gifts + this one = 3 > 2.
    assert "W4: the pair of 'zed' would use 'gift' 3 times" in str(err.value)


@pytest.mark.ruling("W4")
def test_w4_round_three_reachability_once_partner_known():
    m = new_match()
    play_round(m, {"ann": "gift:bob gift:cat", "zed": "learn:bob learn:cat", **OTHERS[1]})
    play_round(m, {"ann": "predict:bob=gift predict:cat=gift", "zed": "swap:bob swap:cat", **OTHERS[2]})
    # Pair ann-zed still needs unique x2 and watch x2 in Round 3.
    # W4 (literal): with zed's Round-3 actions unknown, ann's split is accepted ...
    m.do(Submit("ann", ["unique:bob", "watch:cat"]))
    # ... but then no zed submission can reach exactly two of each: W3 or W4 rejects it.
    with pytest.raises(IllegalMove, match="W3"):
        m.do(Submit("zed", ["unique:bob", "watch:cat"]))
    with pytest.raises(IllegalMove) as err:
        m.do(Submit("zed", ["gift:bob", "learn:cat"]))
    assert "W4" in str(err.value) and "needs unique, watch" in str(err.value)
    # ann fixes the split; zed completes the pair's types.
    m.do(Submit("ann", ["unique:bob", "unique:cat"]))
    m.do(Submit("zed", ["watch:bob", "watch:cat"]))
    play_round(m, OTHERS[3])
    assert m.state.finished
