"""P2: the deck is fixed at creation, from a seed (documented shuffle) or a file."""

from __future__ import annotations

import pytest

from matchledger.engine.commands import CreateMatch
from matchledger.engine.photographer import GAME
from matchledger.engine.photographer.cards import all_cards, colours_for
from matchledger.engine.photographer.deck import deck_from_seed
from matchledger.engine.photographer.shuffle import SplitMix64, insert_sunset, pile_sizes, shuffle
from matchledger.ledger.errors import MalformedInput

from .support import PLAYERS, deck_text, new_match


def test_splitmix64_reference_vector():
    # The published test vector of Vigna's splitmix64.c for seed 1234567.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_fisher_yates_by_hand():
    # Seed 1234567 draws x0 = 6457827717110365317, x1 = 3203168211198807973.
    # i=2: uniform(3): x0 < limit; digit sum of x0 is 81, so x0 % 3 = 0 -> swap 2,0: [c, b, a]
    # i=1: uniform(2): x1 is odd, x1 % 2 = 1 -> swap 1,1: unchanged.
    assert shuffle(["a", "b", "c"], SplitMix64(1234567)) == ["c", "b", "a"]


def test_seed_1_first_cards_pinned():
    # Version-stability: these must never change (a change breaks every recorded seed).
    assert deck_from_seed(1, 2, "deck_empty")[:6] == [
        "green-11",
        "yellow-3",
        "green-5",
        "yellow-6",
        "blue-5",
        "brown-7",
    ]
    assert deck_from_seed(1, 3, "deck_empty")[:6] == ["brown-5", "blue-5", "blue-8", "yellow-3", "brown-6", "blue-4"]
    assert deck_from_seed(1, 4, "deck_empty")[:6] == ["red-3", "grey-11", "purple-10", "brown-8", "purple-8", "grey-5"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seeded_deck_is_a_permutation_of_the_cards_in_play(n):
    # 5/6/7 colours x 12 values = 60/72/84 cards.
    deck = deck_from_seed(99, n, "deck_empty")
    assert len(deck) == {2: 60, 3: 72, 4: 84}[n]
    assert sorted(deck) == sorted(all_cards(colours_for(n)))


@pytest.mark.parametrize("seed", range(0, 200, 7))
def test_sunset_lands_in_second_lowest_sixth(seed):
    # 84 cards -> six piles of 14; pile 5 (second from the bottom) covers indexes 56..69
    # before insertion, so the sunset stands at an index from 56 to 70 of the 85.
    deck = deck_from_seed(seed, 4, "sunset")
    assert len(deck) == 85 and deck.count("sunset") == 1
    assert 56 <= deck.index("sunset") <= 70
    # The photo cards keep the order of the plain shuffle.
    assert [c for c in deck if c != "sunset"] == deck_from_seed(seed, 4, "deck_empty")


def test_pile_sizes_as_equal_as_possible():
    assert pile_sizes(60) == [10] * 6
    assert pile_sizes(62) == [11, 11, 10, 10, 10, 10]
    rng = SplitMix64(5)
    out = insert_sunset(list(range(62)), rng, "S")
    assert 11 + 11 + 10 + 10 <= out.index("S") <= 42 + 10


def test_seed_is_recorded_with_the_explicit_deck():
    # P2: replay never draws randomness; MatchCreated.setup holds the whole order.
    m = new_match(2, seed=7)
    created = m.events[0]
    assert created.setup["seed"] == 7
    assert created.setup["deck"] == deck_from_seed(7, 2, "deck_empty")


def test_deck_file_is_stored_as_a_list():
    text = deck_text(2, ["red-1", "red-2"])
    m = new_match(2, deck=text)
    assert m.events[0].setup == {"deck": text.split()}
    assert m.state.g.table[0][0] == ("red-1", True)


def create(n, setup, options=None):
    return GAME.create(
        CreateMatch(match_id="x", game="photographer", players=PLAYERS[n], options=options or {}, setup=setup)
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("red-13\n", "deck line 1: 'red-13' is not a card"),
        ("blue-1\nfoo\n", "deck line 2: 'foo' is not a card"),
        ("purple-3\n", "deck line 1: 'purple-3' is not in play with 2 players"),
        ("blue-1\nred-2\nblue-1\n", "deck line 3: 'blue-1' is a duplicate (already on line 1)"),
        ("blue-1\n", "deck is missing 59 card(s): blue-2, blue-3"),
        ("sunset\n", "deck line 1: 'sunset' belongs only in a deck with end_trigger=sunset"),
    ],
)
def test_bad_deck_files(text, message):
    with pytest.raises(MalformedInput) as err:
        create(2, {"deck": text})
    assert message in str(err.value)


def test_sunset_deck_rules():
    full = deck_text(2, [])
    with pytest.raises(MalformedInput, match="deck has no 'sunset' line"):
        create(2, {"deck": full}, {"end_trigger": "sunset"})
    with pytest.raises(MalformedInput, match="a second 'sunset'"):
        create(2, {"deck": deck_text(2, [], sunset_at=30) + "sunset\n"}, {"end_trigger": "sunset"})
    # 2 players deal 12 + 10 = 22 cards: a sunset on line 5 would be dealt.
    with pytest.raises(MalformedInput, match="deck line 5: 'sunset' would be dealt"):
        create(2, {"deck": deck_text(2, [], sunset_at=4)}, {"end_trigger": "sunset"})
    [created] = create(2, {"deck": deck_text(2, [], sunset_at=22)}, {"end_trigger": "sunset"})
    assert created.setup["deck"][22] == "sunset"


@pytest.mark.parametrize(
    "setup, message",
    [
        ({}, "photographer needs a seed or a deck"),
        ({"seed": 1, "deck": "x"}, "either seed or deck, not both"),
        ({"studio": "x"}, "not 'studio'"),
        ({"seed": -1}, "seed -1 is not a whole number"),
        ({"seed": "abc"}, "seed 'abc' is not a whole number"),
        ({"seed": True}, "seed True is not a whole number"),
    ],
)
def test_bad_setup(setup, message):
    with pytest.raises(MalformedInput) as err:
        create(2, setup)
    assert message in str(err.value)


def test_options_parsed_and_checked():
    [created] = create(2, {"seed": 1}, {"row_points": "1:2,2:4,3:6,4:8,5:10,6:12,7:14", "wind_required": "false"})
    assert created.options == {
        "wind_required": False,
        "row_points": {"1": 2, "2": 4, "3": 6, "4": 8, "5": 10, "6": 12, "7": 14},
        "end_trigger": "deck_empty",
        "hand_scored": False,
    }
    with pytest.raises(MalformedInput, match="row lengths 7 are missing"):
        create(2, {"seed": 1}, {"row_points": "1:1,2:3,3:5,4:7,5:9,6:10"})
    with pytest.raises(MalformedInput, match="end_trigger='dusk'"):
        create(2, {"seed": 1}, {"end_trigger": "dusk"})
    with pytest.raises(MalformedInput, match="takes at most 4 players"):
        GAME.create(
            CreateMatch(match_id="x", game="photographer", players=["a", "b", "c", "d", "e"], setup={"seed": 1})
        )


@pytest.mark.ruling("P2")
def test_p2_replay_uses_the_recorded_order_not_the_seed():
    # An auditor's replay deals from setup["deck"]; the seed is only a record.
    import msgspec

    from matchledger.projections.fold import replay

    m = new_match(2, seed=7)
    created = m.events[0]
    other = msgspec.structs.replace(created, setup={"seed": 8, "deck": created.setup["deck"]})
    assert replay("m1", [(1, other)]).g == m.state.g
    reversed_deck = msgspec.structs.replace(created, setup={"seed": 7, "deck": created.setup["deck"][::-1]})
    assert replay("m1", [(1, reversed_deck)]).g.table[0][0][0] == created.setup["deck"][-1]
