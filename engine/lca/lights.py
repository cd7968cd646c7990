"""Round 1: light placement (ruling L2), illumination (L3) and the lights score."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain

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
        picks = [(p, cells[k]) for p, cells in priorities.items() if len(placed[p]) < MAX_LIGHTS and k < len(cells)]
        named: dict[Cell, int] = {}
        for _p, cell in picks:
            named[cell] = named.get(cell, 0) + 1
        for p, cell in picks:
            # L2: an occupied cell, or one named by two active players at this priority, is
            # skipped (a cell named once is placed; no other pick at this priority names it)
            if cell not in occupied and named[cell] == 1:
                placed[p].append(cell)
                occupied.add(cell)
    return placed


def _ball(near, source: Cell) -> tuple[frozenset, frozenset]:
    """The cells 1 to 3 steps from ``source`` through floor cells when nothing else
    blocks, and those of them only 1 or 2 steps away."""
    seen = {source}
    inner: set[Cell] = set()
    frontier = [source]
    for step in range(1, REACH + 1):
        following = []
        for cell in frontier:
            for n in near[cell]:
                if n not in seen:
                    seen.add(n)
                    following.append(n)
        if step < REACH:
            inner.update(following)
        frontier = following
    seen.discard(source)
    return frozenset(seen), frozenset(inner)


def light_reach(studio: Studio, lights: frozenset | set, source: Cell, lights_light_lights: bool) -> frozenset:
    """L3: the cells a light at ``source`` brightens -- reachable in at most 3 orthogonal
    steps whose intermediate cells are neither walls nor lights; never a wall, never the
    light's own cell; another light's cell only when ``lights_light_lights``."""
    near = studio.open_near  # neighbours inside the studio that are not walls
    balls = studio.balls
    ball = balls.get(source)
    if ball is None:
        ball = _ball(near, source)  # kept per studio map
        if studio.inside(source):
            balls[source] = ball
    if not isinstance(lights, (set, frozenset)):
        lights = frozenset(lights)
    everything, inner = ball
    if lights.isdisjoint(inner):
        # No light 1 or 2 steps away, so none stands on the way to a cell within reach:
        # the light reaches every cell of its ball (another light's cell 3 steps away
        # only when lights light lights).
        if lights_light_lights or lights.isdisjoint(everything):
            return everything
        return everything - lights
    # A cell is reached when a walk of 1 to 3 steps through floor cells leads to it
    # whose first and second cells (those it passes through) hold no light.
    reached = set(studio.open_sets[source])
    for a, a_next, a_two, walks_on in studio.walks[source]:
        if a in lights:
            continue  # reached, not passed
        if lights.isdisjoint(a_next):
            reached |= a_two
        else:
            reached |= a_next
            for b, b_next in walks_on:
                if b not in lights:
                    reached |= b_next
    reached.discard(source)  # never the light's own cell
    if not lights_light_lights:
        reached.difference_update(lights)
    return frozenset(reached)


@dataclass
class LightsResult:
    placed: dict[str, tuple[Cell, ...]]  # every player, in player order, in placement order
    owner: dict[Cell, str]
    reach: dict[Cell, frozenset[Cell]]  # light cell -> cells it brightens
    count: dict[Cell, int]  # uncapped number of lights brightening a cell (only cells >= 1), reading order
    lit_by: dict[str, frozenset[Cell]]  # player -> cells brightened by at least one of their lights
    scores: dict[str, int]

    def brightness(self) -> dict[Cell, int]:
        """{cell: level} of every cell with level >= 1, in reading order (``count``'s)."""
        cap = BRIGHTNESS_CAP
        return {x: n if n < cap else cap for x, n in self.count.items()}

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
    count: dict[Cell, int] = Counter(chain.from_iterable(reach.values()))
    lit_by = {
        p: frozenset().union(*(reach[c] for c in cells)) if cells else frozenset() for p, cells in placed_all.items()
    }
    count = studio.reading_order(count)
    # points of each brightened cell, by the number of lights brightening it (capped at 5)
    by_count = [0] + [LIGHT_POINTS[min(n, BRIGHTNESS_CAP)] for n in range(1, max(count.values(), default=0) + 1)]
    # L3: once per cell, however many of P's lights reach it
    scores = {p: sum(map(by_count.__getitem__, map(count.__getitem__, lit_by[p]))) for p in players}
    return LightsResult(placed_all, owner, reach, count, lit_by, scores)
