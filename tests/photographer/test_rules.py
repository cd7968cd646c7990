"""Rulings P1-P9 of the photographer rules, each with numbers worked out by hand."""

from __future__ import annotations

import pytest

from matchledger.engine.commands import Amend
from matchledger.engine.photographer import GAME
from matchledger.engine.photographer.film import continues
from matchledger.engine.state import HOST, PUBLIC, as_participant
from matchledger.ledger.events import OutcomeAnnounced, SubmissionRecorded, TurnResolved
from matchledger.projections.fold import replay

from .support import deck_text, new_match, play

# A 2-player table of greens (rows 1-3), then ann's and bob's hands (bottom first).
GREENS = [f"green-{v}" for v in range(1, 13)]


def two_player(ann, bob, deck=(), **kw):
    return new_match(2, deck=deck_text(2, GREENS + list(ann) + list(bob) + list(deck)), **kw)


# ------------------------------------------------------------------ P3 deal, P1 seats


@pytest.mark.ruling("P3")
def test_p3_deal_table_faces_and_hands():
    m = two_player(["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"], ["red-1", "red-2", "red-3", "red-4", "red-5"])
    g = m.state.g
    # P3: table row by row from the top of the deck; columns 1 and 4 face up.
    assert g.table[0] == [("green-1", True), ("green-2", False), ("green-3", False), ("green-4", True)]
    assert g.table[2][3] == ("green-12", True)
    # Seat 1 gets the next five, the first of them the bottom of the hand.
    assert g.hands == {
        "ann": ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"],
        "bob": ["red-1", "red-2", "red-3", "red-4", "red-5"],
    }
    assert g.deck_cards() == 60 - 12 - 10
    public = GAME.status(m.state, PUBLIC)
    assert public["table"][0] == ["green-1", "green-[1-6]", "green-[1-6]", "green-4"]
    assert public["table"][2] == ["green-9", "green-[7-12]", "green-[7-12]", "green-12"]
    assert "hand" not in public and "hands" not in public
    assert GAME.status(m.state, as_participant("ann"))["hand"] == ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"]
    # The host sees face-down values.
    assert GAME.status(m.state, HOST)["table"][0][1] == "green-[2]"


@pytest.mark.ruling("P1")
def test_p1_seat_one_starts_and_turns_rotate():
    m = two_player(["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"], ["red-1", "red-2", "red-3", "red-4", "red-5"])
    from matchledger.ledger.errors import IllegalMove

    with pytest.raises(IllegalMove, match="it is ann's turn to play \\(turn 1\\), not bob's"):
        play(m, "bob", "take 1 left 1 wind 5:6")
    play(m, "ann", "take 1 left 1 wind 5:6")
    with pytest.raises(IllegalMove, match="it is bob's turn"):
        play(m, "ann", "take 1 left 1 wind 5:6")
    events = play(m, "bob", "take 1 left 1 wind 5:6")
    assert [type(e) for e in events] == [SubmissionRecorded, TurnResolved]
    assert events[0].round == 2 and events[1].turn == 2 and m.state.round == 3


# ------------------------------------------------------------------ take, wind (P4), shoot


@pytest.mark.ruling("P4")
def test_take_outermost_first_onto_top_and_wind_p4():
    m = two_player(["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"], ["red-1", "red-2", "red-3", "red-4", "red-5"])
    # Take 2 from the right of row 2: green-8 (col 4, up) then green-7 (col 3, down).
    # Hand (bottom first): b1 b2 b3 b4 b5 g8 g7.  P4 wind 1:7 moves b1 to the top:
    # b2 b3 b4 b5 g8 g7 b1; shoot two bottom cards b2, b3 (blue row: 2 then 3, up).
    [_, resolved] = play(m, "ann", "TAKE 2 Right 2 WIND 1:7")
    assert m.events[1].tokens == ["take", "2", "right", "2", "wind", "1:7"]
    assert resolved.public["taken"] == ["green-8", "green-[7-12]"]
    assert resolved.public["shots"] == ["blue-2", "blue-3"]
    assert resolved.private == {
        "ann": {
            "taken": ["green-8", "green-[7]"],
            "wind": "1:7",
            "shots": ["blue-2", "blue-3"],
            "hand": ["blue-4", "blue-5", "green-8", "green-7", "blue-1"],
        }
    }
    assert m.state.g.table[1] == [("green-5", True), ("green-6", False), None, None]


@pytest.mark.ruling("P4")
def test_p4_wind_optional_when_option_false():
    m = two_player(
        ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"],
        ["red-1", "red-2", "red-3", "red-4", "red-5"],
        options={"wind_required": "false"},
    )
    [_, resolved] = play(m, "ann", "take 1 left 1")
    # No wind: the bottom card blue-1 is shot; green-1 joins the top.
    assert resolved.public["shots"] == ["blue-1"]
    assert resolved.private["ann"]["wind"] is None
    assert m.state.g.hands["ann"] == ["blue-2", "blue-3", "blue-4", "blue-5", "green-1"]


@pytest.mark.parametrize(
    "hand, faces",
    [
        # second card sets the direction (5 -> 7 up); 6 goes down: blurred
        (["blue-5", "blue-7", "blue-6"], ["blue-5", "blue-7", "blue-[1-6]"]),
        # a row going up that holds a 12 takes nothing more: 11 -> 12, then 9 blurred
        (["blue-11", "blue-12", "blue-9"], ["blue-11", "blue-12", "blue-[7-12]"]),
        # a lone 12 has no direction yet: 12, 11 (down), 10
        (["blue-12", "blue-11", "blue-10"], ["blue-12", "blue-11", "blue-10"]),
        # a row going down that holds a 1 takes nothing more: 3 -> 1, then 2 blurred
        (["blue-3", "blue-1", "blue-2"], ["blue-3", "blue-1", "blue-[1-6]"]),
        # a lone 1 can go up
        (["blue-1", "blue-2", "blue-4"], ["blue-1", "blue-2", "blue-4"]),
        # step 4 is too far (5 -> 9 blurred); 8 is 3 from 5 and sets the direction up
        (["blue-5", "blue-9", "blue-8"], ["blue-5", "blue-[7-12]", "blue-8"]),
        # different colours go to different rows
        (["blue-5", "red-9", "blue-1"], ["blue-5", "red-9", "blue-[1-6]"]),
    ],
)
def test_shoot_sequence_rules(hand, faces):
    m = two_player(hand + ["yellow-1", "yellow-2"], ["red-1", "red-2", "red-3", "red-4", "red-5"])
    # take 3 from row 1 left; wind 7:8 only reorders the taken cards, so the three
    # bottom cards shot are exactly ``hand``.
    [_, resolved] = play(m, "ann", "take 1 left 3 wind 7:8")
    assert resolved.public["shots"] == faces
    blurred = sum(1 for f in faces if "[" in f)
    assert GAME.scores(m.state, PUBLIC)["scores"][0]["scores"]["blurred"] == -2 * blurred


def test_continues_function_table():
    assert continues([], 7)
    assert continues([7], 4) and continues([7], 10) and not continues([7], 11) and not continues([7], 3)
    assert continues([4, 6], 9) and not continues([4, 6], 5) and not continues([4, 6], 10)
    assert continues([9, 8], 5) and not continues([9, 8], 9)
    assert not continues([10, 12], 11) and not continues([2, 1], 3)


def test_two_rows_racing_for_one_successful_shot():
    # 2 players: N = 4 face-up cards.
    m = two_player(
        ["red-1", "red-2", "red-3", "red-4", "yellow-1"], ["red-9", "red-10", "red-11", "red-12", "yellow-2"]
    )
    play(m, "ann", "take 1 left 3 wind 7:8")  # ann red 1 2 3
    play(m, "bob", "take 2 left 3 wind 7:8")  # bob red 9 10 11
    [_, r3] = play(m, "ann", "take 3 left 1 wind 5:6")  # ann red 1 2 3 4 -> first to 4
    assert r3.public["shots"] == ["red-4"] and r3.public["good_shots"] == ["red"]
    [_, r4] = play(m, "bob", "take 3 left 1 wind 5:6")  # bob red 9 10 11 12: second, nothing
    assert r4.public["shots"] == ["red-12"] and r4.public["good_shots"] == []
    assert m.state.g.good_shots["red"] == "ann"
    # Provisional P8: ann red 4 cards = 7, 4 colours missing = -12, shot +5 -> 0;
    # bob 7 - 12 = -5.
    points = {s["participant"]: s["points"] for s in GAME.scores(m.state, PUBLIC)["scores"]}
    assert points == {"ann": 0, "bob": -5}


# ------------------------------------------------------------------ P5, P6 check and refill


@pytest.mark.ruling("P5", "P6")
def test_p5_p6_a_table_of_4_cards_is_not_refilled_one_of_3_is_keeping_places_and_faces():
    deck_top = [f"yellow-{v}" for v in range(1, 10)]
    m = two_player(
        ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"], ["red-1", "red-2", "red-3", "red-4", "red-5"], deck_top
    )
    play(m, "ann", "take 1 right 3 wind 7:8")  # row 1 keeps col 1 (green-1, up)
    play(m, "bob", "take 2 left 2 wind 6:7")  # row 2 keeps col 3 (green-7, down) and col 4
    [_, r3] = play(m, "ann", "take 3 left 3 wind 7:8")  # row 3 keeps col 4: 4 cards, no check
    assert r3.public["refill"] == [] and r3.public["deck"] == 38
    [_, r4] = play(m, "bob", "take 2 right 1 wind 5:6")  # takes green-8: 3 cards left -> refill
    # P5: empty places, rows top to bottom, left to right; face by column (P6).
    assert r4.public["refill"] == [
        {"row": 1, "column": 2, "card": "yellow-[1-6]"},
        {"row": 1, "column": 3, "card": "yellow-[1-6]"},
        {"row": 1, "column": 4, "card": "yellow-3"},
        {"row": 2, "column": 1, "card": "yellow-4"},
        {"row": 2, "column": 2, "card": "yellow-[1-6]"},
        {"row": 2, "column": 4, "card": "yellow-6"},
        {"row": 3, "column": 1, "card": "yellow-7"},
        {"row": 3, "column": 2, "card": "yellow-[7-12]"},
        {"row": 3, "column": 3, "card": "yellow-[7-12]"},
    ]
    assert r4.public["deck"] == 38 - 9 and r4.public["game_end"] is None
    # P6: cards already on the table keep their place and face (green-7 stays face down).
    assert GAME.status(m.state, PUBLIC)["table"] == [
        ["green-1", "yellow-[1-6]", "yellow-[1-6]", "yellow-3"],
        ["yellow-4", "yellow-[1-6]", "green-[7-12]", "yellow-6"],
        ["yellow-7", "yellow-[7-12]", "yellow-[7-12]", "green-12"],
    ]


@pytest.mark.ruling("P5")
def test_p5_row_with_gaps_and_count_limits():
    m = two_player(["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"], ["red-1", "red-2", "red-3", "red-4", "red-5"])
    play(m, "ann", "take 1 left 1 wind 5:6")  # row 1: _ g2 g3 g4
    play(m, "bob", "take 1 right 1 wind 5:6")  # row 1: _ g2 g3 _
    # P5: the row's ends are its first and last card whatever the gaps: left end is g2.
    [_, r3] = play(m, "ann", "take 1 left 1 wind 5:6")
    assert r3.public["taken"] == ["green-[1-6]"] and r3.private["ann"]["taken"] == ["green-[2]"]
    from matchledger.ledger.errors import IllegalMove

    with pytest.raises(IllegalMove, match="count '2' is more than the 1 card\\(s\\) in row 1"):
        play(m, "bob", "take 1 left 2 wind 1:7")
    play(m, "bob", "take 1 left 1 wind 5:6")
    with pytest.raises(IllegalMove, match="row '1' is empty"):
        play(m, "ann", "take 1 left 1 wind 5:6")


def test_refill_running_the_deck_dry_midway():
    # Table-level: 2 cards left in the deck, 9 empty places.  P5 refills until the deck
    # runs out; the game goes on.  At the next check with <= 3 cards it ends.
    from matchledger.engine.photographer.cards import all_cards, colours_for
    from matchledger.engine.photographer.table import check, deal

    g = deal(["ann", "bob"], all_cards(colours_for(2)))
    for r, c in [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0)]:
        g.table[r][c] = None
    g.deck = ["brown-1", "brown-2"]
    result = check(g)
    assert result == {"refill": [(0, 0, "brown-1", True), (0, 1, "brown-2", False)], "end": None}
    assert g.table_count() == 5 and g.deck == []
    g.table[0][0] = g.table[0][1] = None  # 3 cards left, deck empty
    assert check(g) == {"refill": [], "end": "deck_empty"}


# ------------------------------------------------------------------ P7 end phase, sunset, P8, P9

ANN3 = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"]
BOB3 = ["red-12", "red-11", "red-10", "red-9", "red-8"]
CAT3 = ["yellow-1", "yellow-5", "yellow-2", "yellow-3", "yellow-4"]
TABLE3 = [f"grey-{v}" for v in range(1, 13)] + ["brown-1", "brown-2", "brown-3", "brown-4"]


def sunset_game(options=None):
    """3 players; the sunset card right after the deal (16 table + 15 hand cards)."""
    opts = {"end_trigger": "sunset", **(options or {})}
    return new_match(3, deck=deck_text(3, TABLE3 + ANN3 + BOB3 + CAT3, sunset_at=31), options=opts)


def play_sunset_game(m, amend=None):
    play(m, "ann", "take 1 left 3 wind 7:8")  # blue 1 2 3; hand b4 b5 g1 g3 g2
    play(m, "bob", "take 2 left 3 wind 7:8")  # red 12 11 10; hand r9 r8 g5 g7 g6
    play(m, "cat", "take 3 left 3 wind 7:8")  # yellow 1, 5 blurred (step 4), 2; hand y3 y4 g9 g11 g10
    if amend:
        m.do(amend)
    r4 = play(m, "ann", "take 4 left 3 wind 7:8")[1]  # blue 4 (4th: successful shot), 5; grey 1
    r5 = play(m, "bob", "take 1 left 1 wind 5:6")[1]  # red 9 (successful shot); table 3 -> sunset
    return r4, r5


@pytest.mark.ruling("P7")
def test_sunset_ending_and_p7_end_round_order():
    from matchledger.ledger.errors import IllegalMove, MalformedInput

    m = sunset_game()
    r4, r5 = play_sunset_game(m)
    assert r4.public["shots"] == ["blue-4", "blue-5", "grey-1"] and r4.public["good_shots"] == ["blue"]
    assert r5.public["good_shots"] == ["red"]
    # Sunset drawn at the first refill: nothing filled, the card set aside; 72 + 1 - 31
    # dealt = 42 in the deck, less the sunset = 41 photo cards.
    assert r5.public["refill"] == [] and r5.public["game_end"] == "sunset" and r5.public["deck"] == 41
    assert m.state.g.set_aside == ["sunset"]
    status = GAME.status(m.state, PUBLIC)
    # P7: bob (seat 2) ended it: cat, ann, bob each wind once and shoot two.
    assert status["phase"] == "end" and status["end_order"] == ["cat", "ann", "bob"] and status["sunset"] == "set aside"
    with pytest.raises(IllegalMove, match="it is cat's turn to wind and shoot"):
        play(m, "ann", "wind 1:2")
    with pytest.raises(IllegalMove, match="in the end phase a player only winds"):
        play(m, "cat", "take 1 left 1 wind 1:2")
    with pytest.raises(MalformedInput, match="zero places"):
        play(m, "cat", "wind 2:2")
    with pytest.raises(IllegalMove, match="position 5 is the top card of the 5-card hand"):
        play(m, "cat", "wind 5:6")
    t6 = play(m, "cat", "wind 1:5")[1]  # y4 g9 g11 g10 y3 -> shoots yellow-4, grey-9
    assert t6.public == {
        "turn": 6,
        "participant": "cat",
        "phase": "end",
        "shots": ["yellow-4", "grey-9"],
        "good_shots": [],
        "finished": False,
    }
    play(m, "ann", "wind 1:2")  # g2 g3 br1 br3 br2 -> grey 1 2 3
    events = play(m, "bob", "wind 4:5")  # r8 g5 g7 g6 g4 -> red 8, grey 5
    assert isinstance(events[-1], OutcomeAnnounced)
    assert events[-1].outcome == events[-1].public == GAME.outcome(m.state, HOST)
    # P8 by hand (3 players, 6 colours):
    #  ann: blue 1-5 (5 cards) 9 + grey 1 2 3 (3) 5; red yellow green brown missing -12;
    #       successful shot blue +5 -> 7
    #  bob: red 12..8 (5) 9 + grey 5 (1) 1; blue yellow green brown missing -12; shot red +5 -> 3
    #  cat: yellow 1 2 4 (3) 5 + grey 9 (1) 1; 4 missing -12; blurred yellow-5 -2 -> -8
    assert GAME.outcome(m.state, PUBLIC) == {
        "match": "m1",
        "game": "photographer",
        "finished": True,
        "standings": [
            {
                "participant": "ann",
                "rank": 1,
                "total": 7,
                "scores": {"rows": 14, "blurred": 0, "missing": -12, "good_shots": 5},
            },
            {
                "participant": "bob",
                "rank": 2,
                "total": 3,
                "scores": {"rows": 10, "blurred": 0, "missing": -12, "good_shots": 5},
            },
            {
                "participant": "cat",
                "rank": 3,
                "total": -8,
                "scores": {"rows": 6, "blurred": -2, "missing": -12, "good_shots": 0},
            },
        ],
        "awards": [],
    }
    # Cards left in hand do not score; the finished match takes nothing more.
    assert m.state.g.hands["ann"] == ["brown-1", "brown-3", "brown-2"]
    with pytest.raises(IllegalMove, match="is finished"):
        play(m, "cat", "wind 1:2")
    assert replay("m1", m.pairs()) == m.state


@pytest.mark.ruling("P8", "P9")
def test_p8_row_points_option_and_p9_shared_rank_by_amendment():
    # Amended from turn 4 on: row_points 1:5 (= the 3-card value).  Then
    # ann 9 + 5 - 12 + 5 = 7, bob 9 + 5 - 12 + 5 = 7, cat 5 + 5 - 12 - 2 = -4.
    # P9: ann and bob share rank 1 (seat order within it), cat is rank 3.
    m = sunset_game()
    amend = Amend("row_points", "1:5,2:3,3:5,4:7,5:9,6:10,7:11", 4, "house rulebook")
    play_sunset_game(m, amend)
    play(m, "cat", "wind 1:5")
    play(m, "ann", "wind 1:2")
    play(m, "bob", "wind 4:5")
    standings = GAME.outcome(m.state, HOST)["standings"]
    assert [(s["participant"], s["rank"], s["total"]) for s in standings] == [
        ("ann", 1, 7),
        ("bob", 1, 7),
        ("cat", 3, -4),
    ]


@pytest.mark.ruling("P9")
def test_p9_ties_list_in_seat_order():
    from matchledger.engine.photographer.cards import all_cards, colours_for
    from matchledger.engine.photographer.scoring import DEFAULT_ROW_POINTS, standings
    from matchledger.engine.photographer.table import deal

    g = deal(["ann", "bob", "cat", "dan"], all_cards(colours_for(4)))
    # 7 colours each missing: -21 each.  dan gets a 1-card row (+1, -18 missing) -> -17.
    # cat and bob get a blurred shot only (-2, still missing 7) -> -23.  ann -21.
    g.film["dan"]["blue"] = [("blue-1", True)]
    g.film["bob"]["red"] = [("red-1", False)]
    g.film["cat"]["red"] = [("red-2", False)]
    table = standings(g, DEFAULT_ROW_POINTS)
    assert [(s["participant"], s["rank"], s["total"]) for s in table] == [
        ("dan", 1, -17),
        ("ann", 2, -21),
        ("bob", 3, -23),
        ("cat", 3, -23),
    ]
    assert table[0]["scores"] == {"rows": 1, "blurred": 0, "missing": -18, "good_shots": 0}


def test_row_of_more_than_seven_scores_the_seven_value():
    from matchledger.engine.photographer.cards import all_cards, colours_for
    from matchledger.engine.photographer.scoring import DEFAULT_ROW_POINTS, player_scores
    from matchledger.engine.photographer.table import deal

    g = deal(["ann", "bob"], all_cards(colours_for(2)))
    g.film["ann"]["blue"] = [(f"blue-{v}", True) for v in range(1, 10)]  # 9 face-up cards
    # min(9, 7) = 7 -> 11; four colours missing -> -12.
    assert player_scores(g, "ann", DEFAULT_ROW_POINTS) == {"rows": 11, "blurred": 0, "missing": -12, "good_shots": 0}
