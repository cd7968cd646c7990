"""Filming, scored when Round 3 closes: every action cell that is lit and seen."""

from __future__ import annotations

import math
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
    return _film(cell, lights, _watching(cameras), actions, divisor, None)


def _watching(cameras: CamerasResult) -> dict[Cell, list[tuple[str, Cell]]]:
    """cell -> the cameras (owner, centre) whose 3x3 block contains it, in player then
    submission order (``CamerasResult.seeing``)."""
    watching: dict[Cell, list[tuple[str, Cell]]] = {}
    for camera in cameras.all_cameras():
        for x in _block(camera[1]):
            if x in watching:
                watching[x].append(camera)
            else:
                watching[x] = [camera]
    return watching


def _film(
    cell: Cell, lights: LightsResult, watching: dict, actions: ActionsResult, divisor: int, parts: dict | None
) -> FilmedCell | None:
    """``film_cell``; with ``parts`` ({player: {denominator: numerator sum}}) each
    player's points from the cell are also added there, as integers."""
    count = lights.count.get(cell, 0)
    level = min(BRIGHTNESS_CAP, count)
    if level < 1:
        return None
    seeing = watching.get(cell)
    if not seeing:
        return None
    points = actions.points[cell].total
    contributors = lights.contributors(cell)  # distinct players
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
    cells = []
    watching = _watching(cameras)
    # each player's points summed exactly over common denominators, one Fraction at the end
    parts: dict[str, dict[int, int]] = {p: {} for p in players}
    for cell in sorted(actions.sharers):
        filmed = _film(cell, lights, watching, actions, divisor, parts)
        if filmed is not None:
            cells.append(filmed)
    exact = {p: sums.total(into) for p, into in parts.items()}
    return FilmingResult(tuple(cells), exact, {p: math.floor(v) for p, v in exact.items()})
