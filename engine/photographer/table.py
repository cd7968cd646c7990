"""The table: the deal (P3), taking from a row's end, the check and refill (P5, P6)."""

from __future__ import annotations

from typing import Any

from .cards import FACE_UP_COLUMNS, GOOD_SHOT_LENGTH, HAND_SIZE, SUNSET, TABLE_COLUMNS, TABLE_ROWS, colours_for
from .state import PhotoState, Place


def face_up_at(column_index: int) -> bool:
    """P3/P6: columns 1 and 4 face up, 2 and 3 face down (0-based index here)."""
    return (column_index + 1) in FACE_UP_COLUMNS


_FACE_UP = tuple(face_up_at(c) for c in range(TABLE_COLUMNS))


def deal(players: list[str], deck: list[str]) -> PhotoState:
    """P3: the table row by row, left to right, from the top of the deck; then seat 1's
    five cards (the first is the bottom of the hand), seat 2's, ...; the rest is the deck."""
    n = len(players)
    rest = list(deck)
    rows = TABLE_ROWS[n]
    table: list[list[Place]] = []
    for _ in range(rows):
        table.append([(rest.pop(0), face_up_at(c)) for c in range(TABLE_COLUMNS)])
    hands = {}
    for player in players:
        hands[player] = [rest.pop(0) for _ in range(HAND_SIZE)]
    colours = list(colours_for(n))
    return PhotoState(
        players=list(players),
        colours=colours,
        n_rows=rows,
        shot_length=GOOD_SHOT_LENGTH[n],
        deck=rest,
        table=table,
        hands=hands,
        film={p: {c: [] for c in colours} for p in players},
        good_shots=dict.fromkeys(colours),
    )


def take(g: PhotoState, row: int, end: str, count: int) -> list[tuple[str, bool]]:
    """Take ``count`` cards from ``end`` of ``row`` (0-based), outermost first; each is put
    on top of the taker's hand by the caller.  Returns (card, was_face_up) in taking order."""
    places = g.table[row]
    # P5: a row is its cards in column order, whatever places are empty between them
    columns = [c for c, place in enumerate(places) if place is not None]
    chosen = columns[:count] if end == "left" else columns[::-1][:count]
    taken = []
    for c in chosen:
        card = places[c]
        assert card is not None  # chosen among the row's cards
        taken.append(card)
        places[c] = None
    return taken


def check(g: PhotoState) -> dict:
    """P5 (+ sunset): after a turn's shots.  If the table holds 3 or fewer cards: with an
    empty deck the game ends; otherwise every empty place is refilled, rows top to bottom,
    each row left to right, face by column (P6: cards on the table keep place and face),
    until the places or the deck run out.  Drawing the Sunset card instead ends the game:
    places before it are filled, none after, and it is set aside.

    Returns {"refill": [(row, col, card, face_up)], "end": None | "deck_empty" | "sunset"}.
    """
    result: dict[str, Any] = {"refill": [], "end": None}
    on_table = 0  # g.table_count(), inlined
    for places in g.table:
        on_table += len(places) - places.count(None)
    if on_table > 3:
        return result
    if not g.deck:
        result["end"] = "deck_empty"
        return result
    deck = g.deck
    refill = result["refill"]
    for r in range(g.n_rows):
        places = g.table[r]
        for c in range(TABLE_COLUMNS):
            if places[c] is not None:
                continue
            if not deck:
                return result  # the deck ran dry mid-way; the game goes on (P5)
            if deck[0] == SUNSET:
                g.set_aside.append(deck.pop(0))
                result["end"] = "sunset"
                return result
            card = deck.pop(0)
            up = _FACE_UP[c]  # face_up_at(c)
            places[c] = (card, up)
            refill.append((r, c, card, up))
    return result
