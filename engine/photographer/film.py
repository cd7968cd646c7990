"""Film rows: the sequence rules, blurred shots and successful shots (A turn, step 3)."""

from __future__ import annotations

from .cards import colour_of, value_of
from .state import PhotoState


def sequence(row: list[tuple[str, bool]]) -> list[int]:
    """A row's sequence: the values of its face-up cards in play order."""
    return [value_of(card) for card, face_up in row if face_up]


def continues(seq: list[int], value: int) -> bool:
    """Does ``value`` continue a row whose sequence is ``seq``?

    - the first card may be any value;
    - the second sets the direction (up if higher, down if lower), either way allowed;
    - later cards must go in the row's direction;
    - always: differ from the last face-up card by at most 3;
    - a row going up that holds a 12, or going down that holds a 1, takes nothing more
      (implied by the two rules above, kept explicit).
    """
    if not seq:
        return True
    last = seq[-1]
    step = value - last
    if step == 0 or abs(step) > 3:
        return False
    if len(seq) == 1:
        return True
    up = seq[1] > seq[0]
    if up and 12 in seq or not up and 1 in seq:
        return False
    return step > 0 if up else step < 0


def shoot(g: PhotoState, player: str) -> tuple[str, bool, str | None]:
    """Play the bottom card of ``player``'s hand onto their row of its colour.

    Returns (card, face_up, colour of a successful shot taken or None).  A card that does
    not continue its row is played face down (blurred, -2).  The first player whose row of a
    colour reaches N face-up cards takes that colour's successful shot if still available.
    """
    card = g.hands[player].pop(0)
    colour = colour_of(card)
    row = g.film[player][colour]
    seq = [value_of(c) for c, up in row if up]  # sequence(row)
    face_up = continues(seq, value_of(card))
    row.append((card, face_up))
    good = None
    # A face-up card lengthens the row's sequence by one: len(sequence(row)) == len(seq) + 1.
    if face_up and g.good_shots[colour] is None and len(seq) + 1 >= g.shot_length:
        g.good_shots[colour] = player
        good = colour
    return card, face_up, good
