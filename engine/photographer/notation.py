"""Turn notation.

Main phase: ``take ROW END COUNT wind FROM:TO`` — ROW from 1 at the top, END ``left`` or
``right``, COUNT 1-3 (at most the cards in the row), FROM:TO hand positions counted from 1
at the bottom *after* the take (FROM not the top card, TO > FROM, TO <= hand size).  With
``wind_required=false`` the ``wind FROM:TO`` part may be left out (P4).

End phase (P7): ``wind FROM:TO`` alone; with ``wind_required=false`` an empty submission
(no tokens) means "no wind".  There is no ``skip`` word.

Syntax errors (not a number, unknown word, COUNT outside 1-3, FROM:TO not moving a card
up) are MalformedInput; what depends on the table or hand is IllegalMove.
"""

from __future__ import annotations

from dataclasses import dataclass

from matchledger.ledger.errors import IllegalMove, MalformedInput

from ..memo import Memo

TAKE_FORM = "take ROW END COUNT wind FROM:TO"
WIND_FORM = "wind FROM:TO"


@dataclass(frozen=True)
class Move:
    take: tuple[int, str, int] | None  # (row from 1, "left"|"right", count)
    wind: tuple[int, int] | None  # (from, to), positions from 1 at the bottom

    def tokens(self) -> list[str]:
        out: list[str] = []
        if self.take is not None:
            row, end, count = self.take
            out += ["take", str(row), end, str(count)]
        if self.wind is not None:
            out += ["wind", f"{self.wind[0]}:{self.wind[1]}"]
        return out


def _int(text: str, what: str) -> int:
    if not text.isdigit():
        raise MalformedInput(f"{what} {text!r} is not a number")
    return int(text)


def parse_wind(text: str) -> tuple[int, int]:
    frm, sep, to = text.partition(":")
    if not sep or not frm.isdigit() or not to.isdigit():
        raise MalformedInput(f"wind {text!r} is not FROM:TO (hand positions from 1 at the bottom, e.g. 1:6)")
    a, b = int(frm), int(to)
    if a < 1:
        raise MalformedInput(f"wind {text!r}: positions count from 1 at the bottom of the hand")
    if b == a:
        raise MalformedInput(f"wind {text!r} moves the card zero places; winding moves a card up one or more places")
    if b < a:
        raise MalformedInput(f"wind {text!r} moves a card down; winding moves a card up (TO greater than FROM)")
    return a, b


def parse(tokens: list[str], end_phase: bool) -> Move:
    """Parse normalized (lower-cased) tokens into a Move; state checks come later."""
    return MOVES[(*tokens, end_phase)]


def _parse(tokens: list[str], end_phase: bool) -> Move:
    words = [t.strip().lower() for t in tokens if t.strip()]
    if end_phase:
        if not words:
            return Move(None, None)
        if words[0] == "take":
            raise IllegalMove(
                f"the game has ended; in the end phase a player only winds and shoots: submit {WIND_FORM!r}"
            )
        if words[0] != "wind":
            raise MalformedInput(f"expected 'wind' in the end phase ({WIND_FORM}), got {words[0]!r}")
        if len(words) != 2:
            raise MalformedInput(f"the end phase takes exactly {WIND_FORM!r}, got {' '.join(words)!r}")
        return Move(None, parse_wind(words[1]))
    if not words:
        raise MalformedInput(f"a turn is {TAKE_FORM!r}; got nothing")
    if words[0] != "take":
        raise MalformedInput(f"a turn starts with 'take' ({TAKE_FORM}), got {words[0]!r}")
    if len(words) < 4:
        raise MalformedInput(f"a turn is {TAKE_FORM!r}; {' '.join(words)!r} is too short")
    row = _int(words[1], "row")
    end = words[2]
    if end not in ("left", "right"):
        raise MalformedInput(f"end {end!r} is neither 'left' nor 'right'")
    count = _int(words[3], "count")
    if not 1 <= count <= 3:
        raise MalformedInput(f"count {words[3]!r} is outside 1-3")
    rest = words[4:]
    wind = None
    if rest:
        if rest[0] != "wind":
            raise MalformedInput(f"after the take comes 'wind FROM:TO', got {rest[0]!r}")
        if len(rest) != 2:
            raise MalformedInput(f"expected 'wind FROM:TO' after the take, got {' '.join(rest)!r}")
        wind = parse_wind(rest[1])
    return Move((row, end, count), wind)


#: parse() results by (tokens, end_phase): parsing is a pure function of the two and a
#: Move is immutable, so a replay parses each distinct submission once
MOVES: Memo[tuple, Move] = Memo(lambda key: _parse(list(key[:-1]), key[-1]), limit=4096)
