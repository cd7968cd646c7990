"""The studio: parsing the text map, spreadsheet cell names, reading order.

A cell is a ``(row, col)`` pair, both counted from 0; tuples sort in reading order
(row 1 left to right, then row 2, ...).  Names are ``A1`` style: column letters then
row number, case-insensitive in, upper-case out; columns after ``Z`` are ``AA``, ``AB``...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ledger.errors import IllegalMove, MalformedInput

Cell = tuple[int, int]

WALL = "#"
FLOOR = "."
#: up, down, left, right
DIRECTIONS: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))

_CELL_RE = re.compile(r"([A-Za-z]+)([0-9]+)\Z")


def column_name(col: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def cell_name(cell: Cell) -> str:
    return f"{column_name(cell[1])}{cell[0] + 1}"


def parse_cell(token: str) -> Cell:
    """A cell name (any case) -> cell; MalformedInput if it is not a cell name at all."""
    match = _CELL_RE.match(str(token).strip())
    if not match or int(match.group(2)) == 0:
        raise MalformedInput(f"cell {token!r} is not a cell name like 'B2' or 'AA12' (column letters, then a row from 1)")
    return (int(match.group(2)) - 1, column_index(match.group(1)))


def parse_studio_text(text: str) -> list[str]:
    """The map file's text -> list of row strings; rejects anything not rectangular
    ``.``/``#`` with an error naming the line (and character)."""
    if not isinstance(text, str):
        raise MalformedInput(f"the studio must be the text of a map file, got {type(text).__name__}")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise MalformedInput("the studio map is empty: it needs at least one row of '.' (floor) and '#' (wall)")
    rows: list[str] = []
    for number, line in enumerate(lines, start=1):
        row = line.rstrip()
        if not row:
            raise MalformedInput(f"studio line {number} is empty; every line is one row of '.' and '#'")
        for position, ch in enumerate(row, start=1):
            if ch not in (WALL, FLOOR):
                raise MalformedInput(
                    f"studio line {number}, character {position}: {ch!r} is neither '.' (floor) nor '#' (wall)"
                )
        if rows and len(row) != len(rows[0]):
            raise MalformedInput(
                f"studio line {number} is {len(row)} cells wide but line 1 is {len(rows[0])}; the studio must be rectangular"
            )
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Studio:
    rows: tuple[str, ...]
    walls: frozenset = field(default=frozenset(), compare=False, repr=False)

    def __post_init__(self) -> None:
        walls = frozenset((r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == WALL)
        object.__setattr__(self, "walls", walls)

    @classmethod
    def from_rows(cls, rows) -> "Studio":
        return cls(tuple(rows))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def size(self) -> str:
        """'12x12' (width x height) with the ranges spelled out."""
        return (
            f"{self.width}x{self.height} studio (columns A-{column_name(self.width - 1)}, rows 1-{self.height})"
        )

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def is_wall(self, cell: Cell) -> bool:
        return cell in self.walls

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Orthogonal neighbours inside the studio (up, down, left, right)."""
        r, c = cell
        for dr, dc in DIRECTIONS:
            n = (r + dr, c + dc)
            if 0 <= n[0] < self.height and 0 <= n[1] < self.width:
                yield n

    def cells(self) -> Iterator[Cell]:
        """Every cell in reading order."""
        for r in range(self.height):
            for c in range(self.width):
                yield (r, c)

    def locate(self, token: str) -> Cell:
        """Parse a cell name and require it to be inside the studio."""
        cell = parse_cell(token)
        if not self.inside(cell):
            raise IllegalMove(f"cell {cell_name(cell)!r} is outside the {self.size()}")
        return cell
