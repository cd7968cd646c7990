"""Round 1: light placement (ruling L2), illumination (L3) and the lights score."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .studio import Cell, Studio

PRIORITIES = 5
MAX_LIGHTS = 3
REACH = 3
BRIGHTNESS_CAP = 5
#: points per brightened cell, by its (capped) brightness
LIGHT_POINTS = {1: 3, 2: 2, 3: 4, 4: 2, 5: 1}


def place_lights(priorities: dict[str, list[Cell]]) -> dict[str, list[Cell]]:
    """L2: for k = 1..5, every *active* player (submitted, fewer than 3 lights) places
    their k-th cell, all at once, unless it already holds a light or another active
    player named the same cell at the same priority -- then it is skipped for everyone
    who named it at that priority.  ``priorities`` is in player order."""
    placed: dict[str, list[Cell]] = {p: [] for p in priorities}
    occupied: set[Cell] = set()
    for k in range(PRIORITIES):
        active = [p for p, cells in priorities.items() if len(placed[p]) < MAX_LIGHTS and k < len(cells)]
        named = Counter(priorities[p][k] for p in active)
        new = [
            (p, priorities[p][k])
            for p in active
            # L2: an occupied cell, or one named by two active players at this priority, is skipped
            if priorities[p][k] not in occupied and named[priorities[p][k]] == 1
        ]
        for p, cell in new:
            placed[p].append(cell)
            occupied.add(cell)
    return placed


def light_reach(studio: Studio, lights: frozenset | set, source: Cell, lights_light_lights: bool) -> frozenset:
    """L3: the cells a light at ``source`` brightens -- reachable in at most 3 orthogonal
    steps whose intermediate cells are neither walls nor lights; never a wall, never the
    light's own cell; another light's cell only when ``lights_light_lights``."""
    seen = {source}
    reached: set[Cell] = set()
    frontier = [source]
    for _step in range(REACH):
        following = []
        for cell in frontier:
            for n in studio.neighbours(cell):
                if n in seen or studio.is_wall(n):
                    continue
                seen.add(n)
                if n in lights:
                    if lights_light_lights:
                        reached.add(n)
                    continue  # a light blocks the path beyond it
                reached.add(n)
                following.append(n)
        frontier = following
    return frozenset(reached)


@dataclass
class LightsResult:
    placed: dict[str, tuple[Cell, ...]]  # every player, in player order, in placement order
    owner: dict[Cell, str]
    reach: dict[Cell, frozenset]  # light cell -> cells it brightens
    count: dict[Cell, int]  # uncapped number of lights brightening a cell (only cells >= 1)
    lit_by: dict[str, frozenset]  # player -> cells brightened by at least one of their lights
    scores: dict[str, int]

    def level(self, cell: Cell) -> int:
        """Brightness (light level): lights brightening the cell, capped at 5; 0 for walls."""
        return min(BRIGHTNESS_CAP, self.count.get(cell, 0))

    def lights(self) -> list[Cell]:
        return sorted(self.owner)

    def contributors(self, cell: Cell) -> list[str]:
        """Players owning at least one light that brightens ``cell`` (player order)."""
        return [p for p, cells in self.lit_by.items() if cell in cells]


def resolve_lights(
    studio: Studio, players: list[str], priorities: dict[str, list[Cell]], lights_light_lights: bool
) -> LightsResult:
    placed = place_lights({p: priorities[p] for p in players if p in priorities})
    placed_all = {p: tuple(placed.get(p, ())) for p in players}
    owner = {cell: p for p, cells in placed_all.items() for cell in cells}
    light_set = frozenset(owner)
    reach = {cell: light_reach(studio, light_set, cell, lights_light_lights) for cell in sorted(owner)}
    count: Counter = Counter()
    for cells in reach.values():
        count.update(cells)
    lit_by = {p: frozenset().union(*(reach[c] for c in cells)) if cells else frozenset() for p, cells in placed_all.items()}
    result = LightsResult(placed_all, owner, reach, dict(sorted(count.items())), lit_by, {})
    # L3: once per cell, however many of P's lights reach it
    result.scores = {p: sum(LIGHT_POINTS[result.level(x)] for x in lit_by[p]) for p in players}
    return result
