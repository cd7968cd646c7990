"""Round 3: merged actions and their points -- diamond (ruling L5), line, distance."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..memo import Memo
from . import sums
from .studio import DIRECTIONS, Cell, Studio

ACTIONS = 3
DIAMOND_POINTS = 20
LINE_POINTS = 3
DISTANCE_POINTS = 5
CAP = 50
#: beyond this many steps the distance part is at its cap anyway
DISTANCE_HORIZON = CAP // DISTANCE_POINTS


def _around_of(cell: Cell) -> tuple[frozenset[Cell], frozenset[Cell]]:
    r, c = cell
    next_to = frozenset((r + dr, c + dc) for dr, dc in DIRECTIONS)
    return next_to, frozenset((x + dr, y + dc) for x, y in next_to for dr, dc in DIRECTIONS) - {cell}


#: cell -> (the four cells next to it, the cells two steps from it), inside the studio
#: or not (cells repeat from match to match)
AROUND: Memo[Cell, tuple[frozenset[Cell], frozenset[Cell]]] = Memo(_around_of)


def in_diamond(studio: Studio, actions: frozenset, cell: Cell, centre_must_be_empty: bool) -> bool:
    """L5: ``cell`` is one of four actions on the four orthogonal neighbours of some
    centre cell; with ``centre_must_be_empty`` that centre holds no action."""
    # The other three actions of such a diamond are two steps from ``cell``: without
    # three actions there (the usual case) there is no diamond to look for.
    if len(actions & AROUND[cell][1]) < 3:
        return False
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


def line_count(actions: frozenset, cell: Cell) -> int:
    """The largest number of actions on consecutive cells starting from one neighbour."""
    if actions.isdisjoint(AROUND[cell][0]):
        return 0  # no action next to it (the usual case)
    best = 0
    r, c = cell
    for dr, dc in DIRECTIONS:
        m = 0
        while (r + dr * (m + 1), c + dc * (m + 1)) in actions:
            m += 1
        if m > best:
            best = m
    return best


def distance_steps(
    studio: Studio, blocked: frozenset, actions: frozenset, cell: Cell, targets: frozenset | None = None
) -> int | None:
    """Fewest orthogonal steps from ``cell`` to another action through cells that are
    neither walls nor lights (the Clarification); None when none is reachable within
    ``DISTANCE_HORIZON`` steps (worth the cap either way).  ``targets``: the actions
    not on a light, when the caller has them."""
    if targets is None:
        targets = actions.difference(blocked)
    # While no light stands in the way, the steps are those through floor cells alone:
    # ring after ring of the studio's own distances (kept per map), a set test each.
    rings = studio.rings[cell]
    for step in range(1, DISTANCE_HORIZON + 1):
        ring = rings.ring(step)
        if not ring.isdisjoint(targets):
            return step
        if not ring:
            return None
        if not ring.isdisjoint(blocked):  # a light on the way: walk around it from here
            return _walk(studio, blocked, actions, rings, step)
    return None


def _walk(studio: Studio, blocked: frozenset, actions: frozenset, rings, step: int) -> int | None:
    """``distance_steps`` from its ``step``-th step on, by a breadth-first walk that
    steps around the lights; the rings before ``step`` hold no light and no action."""
    near = studio.open_near  # neighbours inside the studio that are not walls
    # The studio is a grid: a cell's neighbours are one ring nearer or one further, so
    # the two rings before ``step`` are all the walk could step back onto.  Lights are
    # never stepped on: they count as seen.
    frontier = rings[step - 1]
    seen = set(blocked)
    seen |= frontier
    if step >= 2:
        seen |= rings[step - 2]
    for step in range(step, DISTANCE_HORIZON + 1):  # noqa: B020 (step continues from the rings above)
        following = []
        for at in frontier:
            for n in near[at]:
                if n in seen:
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


def action_points(
    studio: Studio,
    blocked: frozenset,
    actions: frozenset,
    cell: Cell,
    centre_must_be_empty: bool,
    targets: frozenset | None = None,
) -> ActionPoints:
    diamond = DIAMOND_POINTS if in_diamond(studio, actions, cell, centre_must_be_empty) else 0  # 20 at most
    m = line_count(actions, cell)
    steps = distance_steps(studio, blocked, actions, cell, targets)
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
    targets = actions - blocked  # what a distance walk can end on
    order = sorted(sharers)
    points = {cell: action_points(studio, blocked, actions, cell, centre_must_be_empty, targets) for cell in order}
    merged = {cell: tuple(sharers[cell]) for cell in order}
    parts: dict[str, dict[int, int]] = {p: {} for p in players}
    for cell, who in merged.items():
        total, k = points[cell].total, len(who)
        for p in who:  # a merged action's points are split evenly among those who named it
            into = parts[p]
            into[k] = into.get(k, 0) + total
    exact, scores = sums.scored(parts)
    return ActionsResult(named, merged, points, exact, scores)
