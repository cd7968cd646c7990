"""The studio: parsing the text map, spreadsheet cell names, reading order.

A cell is a ``(row, col)`` pair, both counted from 0; tuples sort in reading order
(row 1 left to right, then row 2, ...).  Names are ``A1`` style: column letters then
row number, case-insensitive in, upper-case out; columns after ``Z`` are ``AA``, ``AB``...
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from matchledger.ledger.errors import IllegalMove, MalformedInput

from ..memo import Memo

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


def _name_of(cell: Cell) -> str:
    return f"{column_name(cell[1])}{cell[0] + 1}"


def _cell_of(token: str) -> Cell:
    match = _CELL_RE.match(str(token).strip())
    if not match or int(match.group(2)) == 0:
        raise MalformedInput(
            f"cell {token!r} is not a cell name like 'B2' or 'AA12' (column letters, then a row from 1)"
        )
    return (int(match.group(2)) - 1, column_index(match.group(1)))


#: cell -> name and name -> cell; the same few cells recur across a replay and across
#: matches, so each is worked out once
NAMES: Memo[Cell, str] = Memo(_name_of)
CELLS: Memo[str, Cell] = Memo(_cell_of)


def cell_name(cell: Cell) -> str:
    return NAMES[cell]


def cell_names(cells) -> list[str]:
    """``[cell_name(c) for c in cells]``, looked up in one go."""
    return list(map(NAMES.__getitem__, cells))


def parse_cell(token: str) -> Cell:
    """A cell name (any case) -> cell; MalformedInput if it is not a cell name at all."""
    return CELLS[token]


def parse_cells(tokens) -> list[Cell]:
    """``[parse_cell(t) for t in tokens]``, looked up in one go."""
    return list(map(CELLS.__getitem__, tokens))


def parse_studio_text(text: str) -> list[str]:
    """The map file's text -> list of row strings; rejects anything not rectangular
    ``.``/``#`` with an error naming the line (and character).  Whether a match can be
    held in it is :func:`.playable.check_studio`'s to say.

    A byte order mark, blank lines around the map and comment lines are ignored, as in
    deck files.  A comment line starts with ``#`` and holds something besides ``#`` and
    ``.`` (``# the final's studio``); a line of nothing but ``#`` and ``.`` is a row."""
    if not isinstance(text, str):
        raise MalformedInput(f"the studio must be the text of a map file, got {type(text).__name__}")
    numbered = enumerate(text.removeprefix("\ufeff").splitlines(), start=1)
    lines = [(number, line.rstrip()) for number, line in numbered if not _is_comment(line)]
    filled = [index for index, (_number, row) in enumerate(lines) if row]
    lines = lines[filled[0] : filled[-1] + 1] if filled else []
    if not lines:
        raise MalformedInput("the studio map is empty: it needs at least one row of '.' (floor) and '#' (wall)")
    first, width = lines[0][0], len(lines[0][1])
    rows: list[str] = []
    for number, row in lines:
        if not row:
            raise MalformedInput(f"studio line {number} is empty; every line is one row of '.' and '#'")
        for position, ch in enumerate(row, start=1):
            if ch not in (WALL, FLOOR):
                raise MalformedInput(
                    f"studio line {number}, character {position}: {ch!r} is neither '.' (floor) nor '#' (wall)"
                )
        if len(row) != width:
            raise MalformedInput(
                f"studio line {number} is {len(row)} cells wide but line {first} is {width}; the studio must be rectangular"
            )
        rows.append(row)
    return rows


def _is_comment(line: str) -> bool:
    text = line.strip()
    return text.startswith(WALL) and any(ch not in (WALL, FLOOR) for ch in text)


@dataclass(frozen=True)
class Studio:
    rows: tuple[str, ...]
    walls: frozenset[Cell] = field(default=frozenset(), compare=False, repr=False)
    if TYPE_CHECKING:  # set by __post_init__: shared by every studio of a map, never a field (nor in a snapshot)
        _tables: _Tables = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        tables = TABLES[self.rows]
        object.__setattr__(self, "walls", tables.walls)
        object.__setattr__(self, "_tables", tables)

    # The studio never changes once built (one per match), so a copy is the studio itself;
    # this also keeps its tables when a match state is deep-copied.
    def __copy__(self) -> Studio:
        return self

    def __deepcopy__(self, memo) -> Studio:
        return self

    def __reduce__(self):
        return (Studio, (self.rows,))

    @property
    def near(self) -> dict:
        """cell -> its orthogonal neighbours inside the studio (``neighbours`` as a tuple);
        filled in as cells are asked for and shared by every studio with the same map."""
        return self._tables.near

    @property
    def open_near(self) -> dict:
        """cell -> its orthogonal neighbours inside the studio that are not walls."""
        return self._tables.open_near

    @property
    def open_sets(self) -> dict:
        """cell -> ``open_near`` as a frozenset."""
        return self._tables.open_sets

    @property
    def open_two(self) -> dict:
        """cell -> the cells 1 or 2 steps away from it through floor cells (the cell
        itself included when it is a floor cell with a floor neighbour)."""
        return self._tables.open_two

    @property
    def walks(self) -> dict:
        """cell -> for each floor neighbour ``a`` of it: ``(a, open_sets[a], open_two[a],
        ((b, open_sets[b]) for each floor neighbour b of a))``, the walks of up to three
        steps from the cell laid out once, so that following them costs no look-ups."""
        return self._tables.walks

    @property
    def rings(self) -> dict:
        """cell -> its :class:`Rings` (the cells 1, 2, ... steps from it through floor cells)."""
        return self._tables.rings

    @property
    def balls(self) -> dict:
        """cell -> (the cells 1 to 3 steps from it through floor cells when nothing else
        blocks, those of them 1 or 2 steps away); filled in by ``lights.light_reach``."""
        return self._tables.balls

    def reading_order(self, counts: dict) -> dict:
        """``counts`` (cell -> value) as a new dict in reading order (``dict(sorted(...))``)."""
        tables = self._tables
        if len(counts) * 8 < tables.size:  # few cells: sort them
            return dict(sorted(counts.items()))
        get = counts.get
        result = {x: v for x in tables.cells() if (v := get(x)) is not None}
        if len(result) != len(counts):  # a cell outside the studio (only an odd log names one)
            return dict(sorted(counts.items()))
        return result

    @classmethod
    def from_rows(cls, rows) -> Studio:
        return cls(tuple(rows))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def size(self) -> str:
        """'12x12' (width x height) with the ranges spelled out."""
        return f"{self.width}x{self.height} studio (columns A-{column_name(self.width - 1)}, rows 1-{self.height})"

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def is_wall(self, cell: Cell) -> bool:
        return cell in self.walls

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """Orthogonal neighbours inside the studio (up, down, left, right)."""
        return iter(self.near[cell])

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


class _Neighbours(dict):
    """A studio's neighbour table, filled in on demand: cell -> tuple of neighbours (up,
    down, left, right) inside the studio, walls left out when ``open_only``.  A cell
    outside the studio (only an odd log names one) is computed but not stored."""

    __slots__ = ("_height", "_open_only", "_walls", "_width")

    def __init__(self, height: int, width: int, walls: frozenset, open_only: bool) -> None:
        super().__init__()
        self._height, self._width, self._walls = height, width, walls
        self._open_only = open_only

    def __missing__(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        height, width, walls = self._height, self._width, self._walls
        cells = tuple(
            (r + dr, c + dc)
            for dr, dc in DIRECTIONS
            if 0 <= r + dr < height and 0 <= c + dc < width and not (self._open_only and (r + dr, c + dc) in walls)
        )
        if 0 <= r < height and 0 <= c < width:
            self[cell] = cells
        return cells


class _Derived(dict):
    """A table computed from a neighbour table on demand (stored for cells inside)."""

    __slots__ = ("_make", "_near")

    def __init__(self, near: _Neighbours, make) -> None:
        super().__init__()
        self._near, self._make = near, make

    def __missing__(self, cell: Cell):
        value = self._make(self._near, cell)
        near = self._near
        r, c = cell
        if 0 <= r < near._height and 0 <= c < near._width:
            self[cell] = value
        return value


class Rings(list):
    """The cells exactly 1, 2, ... steps from a cell through floor cells (walls are never
    stepped on), each ring a frozenset; worked out only as far as anyone has asked."""

    __slots__ = ("_near",)

    def __init__(self, near: _Neighbours, cell: Cell) -> None:
        super().__init__()
        self._near = near
        self.append(frozenset((cell,)))  # ring 0: the cell itself

    def ring(self, steps: int) -> frozenset:
        near = self._near
        while len(self) <= steps:
            # The studio is a grid: a neighbour of a cell of the last ring is one ring
            # nearer or one further, so nothing but the ring before it need be set aside.
            following = {n for at in self[-1] for n in near[at]}
            if len(self) >= 2:
                following.difference_update(self[-2])
            self.append(frozenset(following))
        return self[steps]


class _Tables:
    """What a studio map determines, computed once per map and shared by every Studio
    with the same rows (the tables are filled in on demand and never change a value)."""

    __slots__ = (
        "_cells",
        "balls",
        "height",
        "near",
        "open_near",
        "open_sets",
        "open_two",
        "rings",
        "rows",
        "size",
        "walks",
        "walls",
        "width",
    )

    def __init__(self, rows: tuple) -> None:
        self.rows = rows
        self.walls = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == WALL)
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0
        self.size = self.height * self.width
        self.near = _Neighbours(self.height, self.width, self.walls, False)
        self.open_near = _Neighbours(self.height, self.width, self.walls, True)
        self.open_sets = _Derived(self.open_near, lambda near, cell: frozenset(near[cell]))
        self.open_two = _Derived(
            self.open_near, lambda near, cell: frozenset(near[cell]).union(*(near[n] for n in near[cell]))
        )
        self.walks = _Derived(self.open_near, self._walks_from)
        self.rings = _Derived(self.open_near, Rings)
        self.balls: dict[Cell, frozenset] = {}
        self._cells: list[Cell] | None = None

    def _walks_from(self, near: _Neighbours, cell: Cell) -> tuple:
        sets, two = self.open_sets, self.open_two
        return tuple((a, sets[a], two[a], tuple((b, sets[b]) for b in near[a])) for a in near[cell])

    def cells(self) -> list[Cell]:
        """Every cell in reading order."""
        if self._cells is None:
            self._cells = [(r, c) for r in range(self.height) for c in range(self.width)]
        return self._cells


#: tables by studio map (a few maps serve many matches)
TABLES: Memo[tuple, _Tables] = Memo(_Tables, limit=64)
