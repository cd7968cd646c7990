"""Scoring (P8) and ranking (P9).  All arithmetic is on Python ints, which are exact;
the rules prescribe no division and no rounding."""

from __future__ import annotations

from .state import PhotoState

DEFAULT_ROW_POINTS = {"1": 1, "2": 3, "3": 5, "4": 7, "5": 9, "6": 10, "7": 11}
BLURRED = -2
MISSING = -3
GOOD_SHOT = 5


def parse_row_points(text: str) -> dict[str, int]:
    """``1:1,2:3,3:5,4:7,5:9,6:10,7:11`` -> {"1": 1, ...}; must cover 1..7 exactly (P8)."""
    table: dict[str, int] = {}
    for part in str(text).split(","):
        part = part.strip()
        length, sep, points = part.partition(":")
        length, points = length.strip(), points.strip()
        if not sep or not length.isdigit():
            raise ValueError(f"{part!r} is not LENGTH:POINTS")
        try:
            value = int(points)
        except ValueError:
            raise ValueError(f"{part!r}: points {points!r} is not a whole number") from None
        if not 1 <= int(length) <= 7:
            raise ValueError(f"{part!r}: row length {length!r} is outside 1-7")
        key = str(int(length))
        if key in table:
            raise ValueError(f"row length {key} is given twice")
        table[key] = value
    missing = [str(n) for n in range(1, 8) if str(n) not in table]
    if missing:
        raise ValueError(f"row lengths {', '.join(missing)} are missing (the table must cover 1-7)")
    return {str(n): table[str(n)] for n in range(1, 8)}


_LENGTH_KEY = {n: str(n) for n in range(1, 8)}  # str(min(length, 7)) for lengths below 7


def player_scores(g: PhotoState, player: str, row_points: dict[str, int]) -> dict[str, int]:
    """P8: each colour in play: L face-up cards score row_points[min(L, 7)]; no face-up
    card costs 3.  Each blurred shot -2; each successful shot +5."""
    rows = missing = blurred = 0
    film = g.film[player]
    for colour in g.colours:
        row = film[colour]
        # len(sequence(row)): the face-up cards (each card's value was read when it was shot)
        length = 0
        for _card, face_up in row:
            if face_up:
                length += 1
        if length:
            rows += row_points[_LENGTH_KEY[length] if length < 7 else "7"]
        else:
            missing += MISSING
        blurred += BLURRED * (len(row) - length)
    good = GOOD_SHOT * sum([1 for owner in g.good_shots.values() if owner == player])
    return {"rows": rows, "blurred": blurred, "missing": missing, "good_shots": good}


def standings(g: PhotoState, row_points: dict[str, int]) -> list[dict]:
    """P9: points descending; equal points share the rank and the next rank skips
    (1, 1, 3); within equal points, seat order."""
    rows = []
    for seat, player in enumerate(g.players):
        scores = player_scores(g, player, row_points)
        rows.append((seat, player, sum(scores.values()), scores))
    rows.sort(key=lambda r: (-r[2], r[0]))
    out = []
    for _seat, player, total, scores in rows:
        rank = 1 + sum(1 for other in rows if other[2] > total)
        out.append({"participant": player, "rank": rank, "total": total, "scores": scores})
    return out
