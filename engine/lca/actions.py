"""Round 3: merged actions and their points -- diamond (ruling L5), line, distance."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from . import sums
from .studio import DIRECTIONS, Cell, Studio

ACTIONS = 3
DIAMOND_POINTS = 20
LINE_POINTS = 3
DISTANCE_POINTS = 5
CAP = 50
#: beyond this many steps the distance part is at its cap anyway
DISTANCE_HORIZON = CAP // DISTANCE_POINTS


def in_diamond(studio: Studio, actions, cell: Cell, centre_must_be_empty: bool) -> bool:
    """L5: ``cell`` is one of four actions on the four orthogonal neighbours of some
    centre cell; with ``centre_must_be_empty`` that centre holds no action."""
    for centre in studio.near[cell]:
        r, c = centre
        if (
            (r - 1, c) in actions
            and (r + 1, c) in actions
            and (r, c - 1) in actions
            and (r, c + 1) in actions
            and not (centre_must_be_empty and centre in actions)
        ):
            return True
    return False


def line_count(actions, cell: Cell) -> int:
    """The largest number of actions on consecutive cells starting from one neighbour."""
    best = 0
    r, c = cell
    for dr, dc in DIRECTIONS:
        m = 0
        while (r + dr * (m + 1), c + dc * (m + 1)) in actions:
            m += 1
        if m > best:
            best = m
    return best


def distance_steps(studio: Studio, blocked, actions, cell: Cell) -> int | None:
    """Fewest orthogonal steps from ``cell`` to another action through cells that are
    neither walls nor lights (the Clarification); None when none is reachable within
    ``DISTANCE_HORIZON`` steps (worth the cap either way)."""
    near = studio.open_near  # neighbours inside the studio that are not walls
    # Lights are never stepped on: they are skipped where met rather than copied into
    # ``seen`` (a walk ends at most a few steps out; there are many lights).
    seen = {cell}
    frontier = [cell]
    for step in range(1, DISTANCE_HORIZON + 1):
        following = []
        for at in frontier:
            for n in near[at]:
                if n in seen or n in blocked:
                    continue
                if n in actions:
                    return step
                seen.add(n)
                following.append(n)
        if not following:
            return None
        frontier = following
    return None


@dataclass
class ActionPoints:
    diamond: int
    line: int
    distance: int
    line_count: int
    steps: int | None  # None: no other action within reach (distance part 50)

    @property
    def total(self) -> int:
        return self.diamond + self.line + self.distance


def action_points(studio: Studio, blocked, actions, cell: Cell, centre_must_be_empty: bool) -> ActionPoints:
    diamond = DIAMOND_POINTS if in_diamond(studio, actions, cell, centre_must_be_empty) else 0  # 20 at most
    m = line_count(actions, cell)
    steps = distance_steps(studio, blocked, actions, cell)
    distance = CAP if steps is None else min(CAP, DISTANCE_POINTS * steps)
    return ActionPoints(diamond, min(CAP, LINE_POINTS * m), distance, m, steps)


@dataclass
class ActionsResult:
    named: dict[str, tuple[Cell, ...]]  # every player, in player order
    sharers: dict[Cell, tuple[str, ...]]  # merged action -> players who named it (player order)
    points: dict[Cell, ActionPoints]
    exact: dict[str, Fraction]
    scores: dict[str, int]

    def share(self, cell: Cell) -> Fraction:
        return Fraction(self.points[cell].total, len(self.sharers[cell]))


def resolve_actions(
    studio: Studio, players: list[str], submitted: dict[str, list[Cell]], lights, centre_must_be_empty: bool
) -> ActionsResult:
    named = {p: tuple(submitted.get(p, ())) for p in players}
    sharers: dict[Cell, list[str]] = {}
    for p, cells in named.items():
        for cell in cells:
            sharers.setdefault(cell, []).append(p)
    actions = frozenset(sharers)
    blocked = frozenset(lights)
    order = sorted(sharers)
    points = {cell: action_points(studio, blocked, actions, cell, centre_must_be_empty) for cell in order}
    merged = {cell: tuple(sharers[cell]) for cell in order}
    parts: dict[str, dict[int, int]] = {p: {} for p in players}
    for cell, who in merged.items():
        total, k = points[cell].total, len(who)
        for p in who:  # a merged action's points are split evenly among those who named it
            into = parts[p]
            into[k] = into.get(k, 0) + total
    exact = {p: sums.total(into) for p, into in parts.items()}
    scores = {p: math.floor(v) for p, v in exact.items()}
    return ActionsResult(named, merged, points, exact, scores)
