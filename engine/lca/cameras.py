"""Round 2: camera blocks (ruling L4), coverage and the camera score."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain

from ..memo import Memo
from . import sums
from .lights import BRIGHTNESS_CAP, LightsResult
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
        return [
            (p, centre)
            for p, centre in self.all_cameras()
            if abs(cell[0] - centre[0]) <= 1 and abs(cell[1] - centre[1]) <= 1
        ]

    def exclusive(self, player: str) -> int:
        """How many of ``player``'s cameras share no cell with any other player's camera."""
        # two 3x3 blocks share a cell exactly when their centres are at most 2 rows and
        # at most 2 columns apart
        others = [centre for p, centres in self.cameras.items() if p != player for centre in centres]
        return sum(
            1 for r, c in self.cameras[player] if not any(-2 <= r - r2 <= 2 and -2 <= c - c2 <= 2 for r2, c2 in others)
        )


#: ``block`` as a tuple, by centre (centres repeat from match to match)
BLOCKS: Memo[Cell, tuple[Cell, ...]] = Memo(lambda centre: tuple(block(centre)))


def resolve_cameras(
    players: list[str], submitted: dict[str, list[Cell]], lights: LightsResult, studio: Studio | None = None
) -> CamerasResult:
    cameras = {p: tuple(submitted.get(p, ())) for p in players}
    blocks = {p: [BLOCKS[centre] for centre in centres] for p, centres in cameras.items()}
    seen = Counter(chain.from_iterable(chain.from_iterable(blocks.values())))
    # 3 x light(X) / n(X) for each cell X each of P's cameras sees (walls, dark cells:
    # light 0), summed exactly: over the common denominator of every n(X), each cell is
    # worth a whole number, and each player's sum becomes one Fraction
    common = math.lcm(*set(seen.values())) if seen else 1
    count = lights.count
    worth = {
        x: 3 * (n if n < BRIGHTNESS_CAP else BRIGHTNESS_CAP) * (common // d) if (n := count.get(x)) else 0
        for x, d in seen.items()
    }
    numerators = {
        p: sum(map(worth.__getitem__, chain.from_iterable(player_blocks))) for p, player_blocks in blocks.items()
    }
    exact = {p: sums.fraction(n, common) for p, n in numerators.items()}
    scores = {p: n // common for p, n in numerators.items()}  # rounded down once, when scored
    seen_in_order = dict(sorted(seen.items())) if studio is None else studio.reading_order(seen)
    return CamerasResult(cameras, seen_in_order, exact, scores)
