"""Filming, scored when Round 3 closes: every action cell that is lit and seen."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from . import sums
from .actions import ActionsResult
from .cameras import CamerasResult, _block
from .lights import BRIGHTNESS_CAP, LightsResult
from .studio import Cell
from .sums import fraction


@dataclass
class FilmedCell:
    cell: Cell
    action_points: int  # A(X), the merged action's total points
    level: int  # light(X), capped brightness
    lights: int  # lights brightening X, uncapped
    contributors: tuple[str, ...]  # C: players owning a light that brightens X
    cameras: tuple[tuple[str, Cell], ...]  # (owner, centre) of each camera seeing X
    sharers: tuple[str, ...]
    lights_part: dict[str, Fraction]
    camera_part: dict[str, Fraction]
    action_part: dict[str, Fraction]


@dataclass
class FilmingResult:
    cells: tuple[FilmedCell, ...]  # reading order
    exact: dict[str, Fraction]
    scores: dict[str, int]


def film_cell(cell: Cell, lights: LightsResult, cameras: CamerasResult, actions: ActionsResult, divisor: int) -> FilmedCell | None:
    count = lights.count.get(cell, 0)
    seeing = _watching(cameras, frozenset((cell,))).get(cell)
    if count < 1 or not seeing:
        return None
    return _film(cell, count, seeing, lights.contributors(cell), actions, divisor, None)


_BLOCK_SETS: dict[Cell, frozenset[Cell]] = {}


def _block_set(centre: Cell) -> frozenset[Cell]:
    """``_block`` as a frozenset, kept per centre (centres repeat from match to match)."""
    cells = _BLOCK_SETS.get(centre)
    if cells is None:
        cells = frozenset(_block(centre))
        if len(_BLOCK_SETS) < 65536:
            _BLOCK_SETS[centre] = cells
    return cells


def _watching(cameras: CamerasResult, among: frozenset[Cell]) -> dict[Cell, list[tuple[str, Cell]]]:
    """cell of ``among`` -> the cameras (owner, centre) whose 3x3 block contains it, in
    player then submission order (``CamerasResult.seeing``); cells no camera sees are left out."""
    watching: dict[Cell, list[tuple[str, Cell]]] = {}
    for camera in cameras.all_cameras():
        # only the few cells of the block that matter are looked at (a set intersection)
        for x in among & _block_set(camera[1]):
            if x in watching:
                watching[x].append(camera)
            else:
                watching[x] = [camera]
    return watching


def _contributors(lights: LightsResult, cells: frozenset[Cell]) -> dict[Cell, list[str]]:
    """cell of ``cells`` -> ``lights.contributors(cell)`` (player order), for all of them
    at once: one set intersection per player instead of one look-up per player and cell."""
    found: dict[Cell, list[str]] = {x: [] for x in cells}
    for p, lit in lights.lit_by.items():
        for x in lit & cells:
            found[x].append(p)
    return found


def _film(
    cell: Cell, count: int, seeing: list, contributors: list[str], actions: ActionsResult, divisor: int, parts: dict | None
) -> FilmedCell:
    """``film_cell`` for a cell that is lit (``count`` lights) and seen (by the cameras
    ``seeing``); with ``parts`` ({player: {denominator: numerator sum}}) each player's
    points from the cell are also added there, as integers."""
    level = count if count < BRIGHTNESS_CAP else BRIGHTNESS_CAP
    points = actions.points[cell].total
    lights_part: dict[str, Fraction] = {}
    if contributors:
        # Amendment: A(X) / (divisor x |C|); divisor is option filming_lights_divisor (2)
        d = divisor * len(contributors)
        share = fraction(points, d)
        for p in contributors:
            lights_part[p] = share
            if parts is not None:
                into = parts[p]
                into[d] = into.get(d, 0) + points
    camera_points: dict[str, int] = {}
    for owner, centre in seeing:
        camera_points[owner] = camera_points.get(owner, 0) + (6 if centre == cell else 2) * level
    camera_part: dict[str, Fraction] = {}
    for owner, amount in camera_points.items():
        camera_part[owner] = fraction(amount)
        if parts is not None:
            into = parts[owner]
            into[1] = into.get(1, 0) + amount
    sharers = actions.sharers[cell]  # distinct players
    k = len(sharers)
    numerator = 3 * (count + len(seeing))
    share = fraction(numerator, k)
    action_part: dict[str, Fraction] = {}
    for p in sharers:  # (a player is listed once; were one listed twice, each listing counts)
        action_part[p] = action_part[p] + share if p in action_part else share
        if parts is not None:
            into = parts[p]
            into[k] = into.get(k, 0) + numerator
    return FilmedCell(cell, points, level, count, tuple(contributors), tuple(seeing), sharers, lights_part, camera_part, action_part)


def resolve_filming(
    players: list[str], lights: LightsResult, cameras: CamerasResult, actions: ActionsResult, divisor: int
) -> FilmingResult:
    count = lights.count
    watching = _watching(cameras, frozenset(actions.sharers))
    # the action cells that are lit and seen, in reading order: the filmed cells
    filmed = [x for x in sorted(watching) if count.get(x, 0) >= 1]
    contributors = _contributors(lights, frozenset(filmed))
    # each player's points summed exactly over common denominators, one Fraction at the end
    parts: dict[str, dict[int, int]] = {p: {} for p in players}
    cells = tuple(_film(x, count[x], watching[x], contributors[x], actions, divisor, parts) for x in filmed)
    exact, scores = sums.scored(parts)
    return FilmingResult(cells, exact, scores)
