"""Creation, notation and the submission-shape rulings W1/W2; contracts."""

import pytest

from matchledger.engine.commands import CreateMatch, RecordContract, Submit
from matchledger.engine.pw import GAME
from matchledger.ledger.errors import IllegalMove, MalformedInput

from .util import PAIRS3, new_match


def create(setup, players=("ann", "bob", "cat")):
    return GAME.create(CreateMatch(match_id="x", game="pw", players=list(players), setup=setup))


def test_participants_are_players_as_listed_then_guests_by_name():
    # an order that says nothing of the pairing, so no list or message can leak it
    m = new_match({"ann": "zed", "bob": "yul", "cat": "xio"})
    assert m.state.participants == ["ann", "bob", "cat", "xio", "yul", "zed"]
    other = new_match({"ann": "xio", "bob": "zed", "cat": "yul"})
    assert other.state.participants == m.state.participants
    assert m.state.setup == {"pairs": {"ann": "zed", "bob": "yul", "cat": "xio"}}
    assert m.state.g.partner["yul"] == "bob" and m.state.g.role["yul"] == "guest"


@pytest.mark.parametrize(
    "setup, fragment",
    [
        ({}, "the setup parameter 'pairs' for every player"),
        ({"pairs": {"ann": "zed", "bob": "yul"}}, "'cat' has no guest"),
        ({"pairs": {"ann": "zed", "bob": "zed", "cat": "xio"}}, "guest 'zed' is paired with both 'ann' and 'bob'"),
        ({"pairs": {"ann": "bob", "bob": "yul", "cat": "xio"}}, "guest 'bob' is also a player"),
        ({"pairs": {**PAIRS3, "dan": "wim"}}, "'dan' is not a listed player"),
        ({"pairs": PAIRS3, "seed": 3}, "'seed'"),
        ({"pairs": {"ann": "z z", "bob": "yul", "cat": "xio"}}, "guest name 'z z': a name is letters, digits"),
    ],
)
def test_bad_setup_is_rejected_naming_the_offender(setup, fragment):
    with pytest.raises(MalformedInput) as err:
        create(setup)
    assert fragment in str(err.value)


def test_submission_is_normalized():
    m = new_match()
    [event] = m.do(Submit("ann", ["GIFT:bob", "Predict:Cat=SWAP"]))
    assert event.tokens == ["gift:bob", "predict:cat=swap"]


@pytest.mark.parametrize(
    "tokens, fragment",
    [
        (["gift:bob"], "W1: a submission has exactly 2 actions; got 1"),
        (["gift:bob", "learn:cat", "watch:yul"], "got 3"),
        (["gfit:bob", "learn:cat"], "W1: unknown action type 'gfit'"),
        (["gift:bob", "learn:nobody"], "W1: unknown participant 'nobody'"),
        (["predict:bob", "learn:cat"], "predict:TARGET=TYPE"),
        (["predict:bob=jump", "learn:cat"], "unknown action type 'jump'"),
        (["gift:bob=swap", "learn:cat"], "only predict names a type"),
        (["bob", "learn:cat"], "is not TYPE:TARGET"),
    ],
)
@pytest.mark.ruling("W1")
def test_w1_malformed_submissions(tokens, fragment):
    m = new_match()
    with pytest.raises(MalformedInput) as err:
        m.do(Submit("ann", tokens))
    assert fragment in str(err.value)
    assert len(m.events) == 1  # nothing recorded


@pytest.mark.parametrize(
    "tokens, fragment",
    [
        (["gift:ann", "learn:cat"], "W2: 'ann' cannot target themselves ('gift:ann')"),
        (["gift:bob", "learn:zed"], "W2: 'ann' cannot target their partner ('learn:zed')"),
        (["gift:bob", "learn:bob"], "W2: both actions name the same target 'bob'"),
    ],
)
@pytest.mark.ruling("W2")
def test_w2_forbidden_targets(tokens, fragment):
    m = new_match()
    with pytest.raises(IllegalMove) as err:
        m.do(Submit("ann", tokens))
    assert fragment in str(err.value)


def test_same_type_twice_by_one_participant_is_allowed():
    # W3 note: a participant may use one type twice.
    m = new_match()
    [event] = m.do(Submit("ann", ["gift:bob", "gift:cat"]))
    assert event.tokens == ["gift:bob", "gift:cat"]


def test_guesses_only_in_round_three():
    m = new_match()
    with pytest.raises(IllegalMove) as err:
        m.do(Submit("ann", ["gift:bob", "learn:cat", "guess:bob=yul"]))
    assert "Round-3" in str(err.value) and "guess:bob=yul" in str(err.value)


def test_contracts_normalized_and_validated():
    m = new_match()
    [event] = m.do(RecordContract("ann", ["Diversity", "sabotage:bob"]))
    assert event.contracts == ["diversity", "sabotage:bob"]
    with pytest.raises(IllegalMove, match="exactly one"):
        m.do(RecordContract("bob", ["diversity", "generosity"]))
    with pytest.raises(IllegalMove, match="exactly one"):
        m.do(RecordContract("bob", ["sabotage:ann"]))
    with pytest.raises(IllegalMove, match="themselves"):
        m.do(RecordContract("bob", ["espionage", "sabotage:bob"]))
    with pytest.raises(MalformedInput, match="'zed' is not a player"):
        m.do(RecordContract("bob", ["espionage", "sabotage:zed"]))
    with pytest.raises(MalformedInput, match="unknown pw contract 'luck'"):
        m.do(RecordContract("bob", ["luck"]))
    with pytest.raises(IllegalMove, match="only players hold contracts"):
        m.do(RecordContract("zed", ["espionage"]))
    # A later record replaces the earlier one.
    m.do(RecordContract("ann", ["generosity"]))
    assert m.state.contracts["ann"] == ["generosity"]


def test_no_options():
    with pytest.raises(MalformedInput, match="unknown option"):
        GAME.create(
            CreateMatch(
                match_id="x",
                game="pw",
                players=["ann", "bob"],
                options={"k": "1"},
                setup={"pairs": {"ann": "zed", "bob": "yul"}},
            )
        )
