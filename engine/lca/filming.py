"""Filming, scored when Round 3 closes: every action cell that is lit and seen."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .actions import ActionsResult
from .cameras import CamerasResult
from .lights import LightsResult
from .studio import Cell


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


def _add(into: dict, player: str, amount) -> None:
    into[player] = into.get(player, Fraction(0)) + amount


def film_cell(cell: Cell, lights: LightsResult, cameras: CamerasResult, actions: ActionsResult, divisor: int) -> FilmedCell | None:
    level = lights.level(cell)
    seeing = cameras.seeing(cell)
    if level < 1 or not seeing:
        return None
    points = actions.points[cell].total
    contributors = lights.contributors(cell)
    lights_part: dict[str, Fraction] = {}
    for p in contributors:
        # Amendment: A(X) / (divisor x |C|); divisor is option filming_lights_divisor (2)
        _add(lights_part, p, Fraction(points, divisor * len(contributors)))
    camera_part: dict[str, Fraction] = {}
    for owner, centre in seeing:
        _add(camera_part, owner, Fraction((6 if centre == cell else 2) * level))
    count = lights.count.get(cell, 0)
    sharers = actions.sharers[cell]
    action_part: dict[str, Fraction] = {}
    for p in sharers:
        _add(action_part, p, Fraction(3 * (count + len(seeing)), len(sharers)))
    return FilmedCell(cell, points, level, count, tuple(contributors), tuple(seeing), sharers, lights_part, camera_part, action_part)


def resolve_filming(
    players: list[str], lights: LightsResult, cameras: CamerasResult, actions: ActionsResult, divisor: int
) -> FilmingResult:
    cells = []
    exact = {p: Fraction(0) for p in players}
    for cell in sorted(actions.sharers):
        filmed = film_cell(cell, lights, cameras, actions, divisor)
        if filmed is None:
            continue
        cells.append(filmed)
        for part in (filmed.lights_part, filmed.camera_part, filmed.action_part):
            for p, amount in part.items():
                exact[p] += amount
    return FilmingResult(tuple(cells), exact, {p: math.floor(v) for p, v in exact.items()})
