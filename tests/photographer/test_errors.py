"""Bad input: each rejected with a clear message quoting the value; nothing recorded."""

from __future__ import annotations

import copy

import pytest

from matchledger.engine.commands import Amend, CloseRound, Correct, RecordContract, Reopen, Void
from matchledger.ledger.errors import IllegalMove, MalformedInput
from matchledger.projections.fold import replay

from .support import deck_text, new_match, play

HANDS = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "red-1", "red-2", "red-3", "red-4", "red-5"]


@pytest.fixture
def dealt_match():
    return new_match(2, deck=deck_text(2, [f"green-{v}" for v in range(1, 13)] + HANDS))


@pytest.mark.parametrize(
    "who, text, error, message",
    [
        ("bob", "take 1 left 1 wind 5:6", IllegalMove, "it is ann's turn to play (turn 1), not bob's"),
        ("zed", "take 1 left 1 wind 5:6", IllegalMove, "'zed' is not a participant of 'm1'"),
        ("ann", "", MalformedInput, "a turn is 'take ROW END COUNT wind FROM:TO'; got nothing"),
        ("ann", "grab 1 left 1", MalformedInput, "a turn starts with 'take'"),
        ("ann", "take 1 left", MalformedInput, "is too short"),
        ("ann", "take x left 1 wind 5:6", MalformedInput, "row 'x' is not a number"),
        ("ann", "take 4 left 1 wind 5:6", IllegalMove, "row '4' is outside the 3-row table (rows 1-3)"),
        ("ann", "take 0 left 1 wind 5:6", IllegalMove, "row '0' is outside the 3-row table"),
        ("ann", "take 1 middle 1 wind 5:6", MalformedInput, "end 'middle' is neither 'left' nor 'right'"),
        ("ann", "take 1 left 4 wind 5:6", MalformedInput, "count '4' is outside 1-3"),
        ("ann", "take 1 left 0 wind 5:6", MalformedInput, "count '0' is outside 1-3"),
        ("ann", "take 1 left 1", IllegalMove, "wind_required=true: ann must wind one card"),
        ("ann", "take 1 left 1 wind", MalformedInput, "expected 'wind FROM:TO' after the take"),
        ("ann", "take 1 left 1 spin 1:2", MalformedInput, "after the take comes 'wind FROM:TO', got 'spin'"),
        ("ann", "take 1 left 1 wind 1-2", MalformedInput, "wind '1-2' is not FROM:TO"),
        ("ann", "take 1 left 1 wind 3:3", MalformedInput, "wind '3:3' moves the card zero places"),
        ("ann", "take 1 left 1 wind 5:2", MalformedInput, "wind '5:2' moves a card down"),
        ("ann", "take 1 left 1 wind 0:2", MalformedInput, "positions count from 1"),
        # after taking 1 the hand holds 6 cards: position 6 is the top card
        (
            "ann",
            "take 1 left 1 wind 6:7",
            IllegalMove,
            "wind '6:7': position 6 is the top card of the 6-card hand after taking 1",
        ),
        ("ann", "take 1 left 1 wind 7:8", IllegalMove, "position 7 is outside the 6-card hand after taking 1"),
        (
            "ann",
            "take 1 left 1 wind 1:7",
            IllegalMove,
            "wind '1:7': position 7 is outside the 6-card hand after taking 1",
        ),
        ("ann", "wind 1:2", MalformedInput, "a turn starts with 'take'"),
    ],
)
def test_bad_submissions(dealt_match, who, text, error, message):
    before = copy.deepcopy(dealt_match.state)
    with pytest.raises(error) as err:
        play(dealt_match, who, text)
    assert message in str(err.value)
    # decide never mutates and nothing was appended.
    assert dealt_match.state == before and len(dealt_match.events) == 1


def test_count_more_than_row_after_taking(dealt_match):
    play(dealt_match, "ann", "take 1 left 3 wind 7:8")
    with pytest.raises(IllegalMove, match="count '2' is more than the 1 card\\(s\\) in row 1"):
        play(dealt_match, "bob", "take 1 right 2 wind 1:7")


def test_no_close_reopen_correct_contract_or_end_trigger_amend_and_only_the_last_turn_taken_back(dealt_match):
    play(dealt_match, "ann", "take 1 left 1 wind 5:6")
    play(dealt_match, "bob", "take 1 left 1 wind 5:6")
    with pytest.raises(IllegalMove, match="photographer has no close: a turn is resolved as soon as it is submitted"):
        dealt_match.do(CloseRound())
    with pytest.raises(IllegalMove, match="photographer has no rounds to reopen"):
        dealt_match.do(Reopen("oops"))
    with pytest.raises(IllegalMove, match="only the last turn can be taken back; turn 2 at seq 4 is the last"):
        dealt_match.do(Void(2, "oops"))
    with pytest.raises(IllegalMove, match="a turn cannot be corrected, but the last one can be taken back"):
        dealt_match.do(Correct(4, ["take", "1", "left", "2"], "oops"))
    with pytest.raises(IllegalMove, match="event 3 of 'm1' is not a submission"):
        dealt_match.do(Void(3, "oops"))
    with pytest.raises(IllegalMove, match="no event 9 in match 'm1'"):
        dealt_match.do(Void(9, "oops"))
    with pytest.raises(IllegalMove, match="photographer has no contracts"):
        dealt_match.do(RecordContract("ann", ["lights"]))
    with pytest.raises(IllegalMove, match="end_trigger cannot be amended"):
        dealt_match.do(Amend("end_trigger", "sunset", 5, "why"))
    with pytest.raises(IllegalMove, match="from round 1: turn 1 is already over"):
        dealt_match.do(Amend("wind_required", "false", 1, "why"))
    with pytest.raises(MalformedInput, match="unknown option 'speed'"):
        dealt_match.do(Amend("speed", "1", 3, "why"))
    assert len(dealt_match.events) == 5


def test_amended_wind_option_takes_effect_from_its_turn(dealt_match):
    play(dealt_match, "ann", "take 1 left 1 wind 5:6")
    dealt_match.do(Amend("wind_required", "false", 3, "table talk"))
    with pytest.raises(IllegalMove, match="must wind"):
        play(dealt_match, "bob", "take 1 left 1")  # turn 2: still required
    play(dealt_match, "bob", "take 1 left 1 wind 5:6")
    play(dealt_match, "ann", "take 2 left 1")  # turn 3: optional now
    assert replay("m1", dealt_match.pairs()) == dealt_match.state
