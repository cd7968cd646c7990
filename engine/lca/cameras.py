"""Round 2: camera blocks (ruling L4), coverage and the camera score."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from .lights import LightsResult
from .studio import Cell, Studio

CAMERAS = 3


def block(centre: Cell) -> list[Cell]:
    """The 3x3 block a camera sees, in reading order."""
    r, c = centre
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]


def block_inside(studio: Studio, centre: Cell) -> bool:
    """L4: the whole 3x3 block must lie inside the studio."""
    return 1 <= centre[0] <= studio.height - 2 and 1 <= centre[1] <= studio.width - 2


@dataclass
class CamerasResult:
    cameras: dict[str, tuple[Cell, ...]]  # every player, in player order, submission order
    seen: dict[Cell, int]  # n(X): cameras (all players) that see X, only cells >= 1
    exact: dict[str, Fraction]
    scores: dict[str, int]

    def all_cameras(self) -> list[tuple[str, Cell]]:
        return [(p, centre) for p, centres in self.cameras.items() for centre in centres]

    def centres(self) -> list[Cell]:
        """Every camera's centre in reading order, duplicates kept."""
        return sorted(centre for _p, centre in self.all_cameras())

    def seeing(self, cell: Cell) -> list[tuple[str, Cell]]:
        """The cameras (owner, centre) whose block contains ``cell``."""
        return [(p, centre) for p, centre in self.all_cameras() if abs(cell[0] - centre[0]) <= 1 and abs(cell[1] - centre[1]) <= 1]

    def exclusive(self, player: str) -> int:
        """How many of ``player``'s cameras share no cell with any other player's camera."""
        others = set()
        for p, centre in self.all_cameras():
            if p != player:
                others.update(block(centre))
        return sum(1 for centre in self.cameras[player] if not others.intersection(block(centre)))


def resolve_cameras(players: list[str], submitted: dict[str, list[Cell]], lights: LightsResult) -> CamerasResult:
    cameras = {p: tuple(submitted.get(p, ())) for p in players}
    seen: Counter = Counter()
    for centres in cameras.values():
        for centre in centres:
            seen.update(block(centre))
    exact = {}
    for p, centres in cameras.items():
        # 3 x light(X) / n(X) for each cell X each of P's cameras sees (walls: light 0)
        exact[p] = sum((Fraction(3 * lights.level(x), seen[x]) for centre in centres for x in block(centre)), Fraction(0))
    scores = {p: math.floor(v) for p, v in exact.items()}  # rounded down once, when scored
    return CamerasResult(cameras, dict(sorted(seen.items())), exact, scores)
