"""Cards, colours and card backs of Фотограф / Wind the Film!

A card is written ``colour-value`` (``red-7``).  Its back shows its colour and its
range, ``1-6`` or ``7-12``: that much of a face-down card is public.  In views a
face-down card is written with brackets: ``red-[1-6]`` when the viewer knows only the
back, ``red-[4]`` when the viewer knows the value (the host, or the player who took or
shot it).  No brackets means face up.
"""

from __future__ import annotations

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


# Every card in play, looked up instead of re-parsed (the hot paths of a turn).  Any
# other string (never dealt by a valid deck) falls back to the same computation.
_CARDS = all_cards(COLOURS)


def _looked_up(compute, doc: str):
    table = {card: compute(card) for card in _CARDS}

    def lookup(card: str):
        try:
            return table[card]
        except (KeyError, TypeError):  # not a card in play: the same computation
            return compute(card)

    lookup.__doc__ = doc
    return lookup


colour_of = _looked_up(_colour_of, "The colour of a card, ``red`` for ``red-7``.")
value_of = _looked_up(_value_of, "The value of a card, ``7`` for ``red-7``.")
back = _looked_up(_back, "The public face of a face-down card: colour and range, ``red-[1-6]``.")
known_down = _looked_up(_known_down, "A face-down card whose value the viewer knows: ``red-[4]``.")


def shown(card: str, face_up: bool, knows_value: bool) -> str:
    if face_up:
        return card
    return known_down(card) if knows_value else back(card)
