"""Cards, colours and card backs of Фотограф / Wind the Film!

A card is written ``colour-value`` (``red-7``).  Its back shows its colour and its
range, ``1-6`` or ``7-12``: that much of a face-down card is public.  In views a
face-down card is written with brackets: ``red-[1-6]`` when the viewer knows only the
back, ``red-[4]`` when the viewer knows the value (the host, or the player who took or
shot it).  No brackets means face up.
"""

from __future__ import annotations

from ..memo import Memo

#: Colours in the order they come into play (rules: Components).
COLOURS = ("blue", "red", "yellow", "green", "brown", "grey", "purple")
#: Colours in play by player count: 5 with 2 players, 6 with 3, 7 with 4.
COLOUR_COUNT = {2: 5, 3: 6, 4: 7}
#: Table rows by player count (4 columns): 3 rows with 2 players, 4 with 3-4 (P3).
TABLE_ROWS = {2: 3, 3: 4, 4: 4}
TABLE_COLUMNS = 4
#: Face-up columns at setup and refill (1-based): columns 1 and 4 (P3, P6).
FACE_UP_COLUMNS = (1, 4)
#: Face-up cards a film row needs for the successful shot: 3 with 4 players, else 4.
GOOD_SHOT_LENGTH = {2: 4, 3: 4, 4: 3}
HAND_SIZE = 5
VALUES = range(1, 13)
SUNSET = "sunset"


def colours_for(n_players: int) -> tuple[str, ...]:
    return COLOURS[: COLOUR_COUNT[n_players]]


def all_cards(colours) -> list[str]:
    """Every photo card in play, colour by colour, values 1..12 (the unshuffled order)."""
    return [f"{colour}-{value}" for colour in colours for value in VALUES]


def parse_card(text: str) -> tuple[str, int]:
    """``'red-7'`` -> ``('red', 7)``; ValueError for anything else."""
    colour, sep, value = text.partition("-")
    if not sep or colour not in COLOURS or not value.isdigit() or str(int(value)) != value:
        raise ValueError(text)
    number = int(value)
    if number not in VALUES:
        raise ValueError(text)
    return colour, number


def _colour_of(card: str) -> str:
    return card.partition("-")[0]


def _value_of(card: str) -> int:
    return int(card.partition("-")[2])


def _back(card: str) -> str:
    return f"{_colour_of(card)}-[{'1-6' if _value_of(card) <= 6 else '7-12'}]"


def _known_down(card: str) -> str:
    return f"{_colour_of(card)}-[{_value_of(card)}]"


# Looked up instead of re-parsed: the hot paths of a turn ask these of the same few
# dozen cards again and again.
colour_of = Memo(_colour_of).__getitem__  # ``red`` for ``red-7``
value_of = Memo(_value_of).__getitem__  # ``7`` for ``red-7``
back = Memo(_back).__getitem__  # the public face of a face-down card: ``red-[1-6]``
known_down = Memo(_known_down).__getitem__  # a face-down card whose value the viewer knows: ``red-[4]``


def shown(card: str, face_up: bool, knows_value: bool) -> str:
    if face_up:
        return card
    return known_down(card) if knows_value else back(card)
