"""Filming, scored when Round 3 closes: every action cell that is lit and seen."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..memo import Memo
from . import sums
from .actions import ActionsResult
from .cameras import BLOCKS, CamerasResult
from .lights import BRIGHTNESS_CAP, LightsResult
from .studio import Cell
from .sums import fraction


@dataclass
class FilmedCell:
    """An action cell that is lit and seen, with what decides each player's points from
    it (the points themselves are derived: :meth:`shares`)."""

    cell: Cell
    action_points: int  # A(X), the merged action's total points
    level: int  # light(X), capped brightness
    lights: int  # lights brightening X, uncapped
    contributors: tuple[str, ...]  # C: players owning a light that brightens X
    cameras: tuple[tuple[str, Cell], ...]  # (owner, centre) of each camera seeing X
    sharers: tuple[str, ...]
    divisor: int  # filming_lights_divisor in force

    def shares(self) -> Iterator[tuple[str, str, int, int]]:
        """(part, player, numerator, denominator) of each player's points from the cell:
        the lights part A(X) / (divisor x |C|) to each contributor (the Amendment), the
        camera part 6 x light (X the camera's centre) or 2 x light to each camera's owner,
        the action part 3 x (lights + cameras) / k to each of the k sharers."""
        if self.contributors:
            denominator = self.divisor * len(self.contributors)
            for p in self.contributors:
                yield "lights", p, self.action_points, denominator
        camera_points: dict[str, int] = {}
        for owner, centre in self.cameras:
            camera_points[owner] = camera_points.get(owner, 0) + (6 if centre == self.cell else 2) * self.level
        for owner, amount in camera_points.items():
            yield "camera", owner, amount, 1
        numerator = 3 * (self.lights + len(self.cameras))
        for p in self.sharers:  # distinct players (were one listed twice, each listing would count)
            yield "action", p, numerator, len(self.sharers)

    def _part(self, name: str) -> dict[str, Fraction]:
        result: dict[str, Fraction] = {}
        for part, player, numerator, denominator in self.shares():
            if part == name:
                share = fraction(numerator, denominator)
                result[player] = result[player] + share if player in result else share
        return result

    @property
    def lights_part(self) -> dict[str, Fraction]:
        return self._part("lights")

    @property
    def camera_part(self) -> dict[str, Fraction]:
        return self._part("camera")

    @property
    def action_part(self) -> dict[str, Fraction]:
        return self._part("action")


@dataclass
class FilmingResult:
    cells: tuple[FilmedCell, ...]  # reading order
    exact: dict[str, Fraction]
    scores: dict[str, int]


#: a camera's block as a frozenset, by centre
BLOCK_SETS: Memo[Cell, frozenset[Cell]] = Memo(lambda centre: frozenset(BLOCKS[centre]))


def _watching(cameras: CamerasResult, among: frozenset[Cell]) -> dict[Cell, list[tuple[str, Cell]]]:
    """cell of ``among`` -> the cameras (owner, centre) whose 3x3 block contains it, in
    player then submission order (``CamerasResult.seeing``); cells no camera sees are left out."""
    watching: dict[Cell, list[tuple[str, Cell]]] = {}
    for camera in cameras.all_cameras():
        # only the few cells of the block that matter are looked at (a set intersection)
        for x in among & BLOCK_SETS[camera[1]]:
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
    cell: Cell,
    count: int,
    seeing: list,
    contributors: list[str],
    actions: ActionsResult,
    divisor: int,
    parts: dict | None,
) -> FilmedCell:
    """The filmed cell ``cell``, lit (``count`` lights) and seen (by the cameras
    ``seeing``); with ``parts`` ({player: {denominator: numerator sum}}) each player's
    points from the cell are also added there, as integers."""
    level = count if count < BRIGHTNESS_CAP else BRIGHTNESS_CAP
    filmed = FilmedCell(
        cell,
        actions.points[cell].total,
        level,
        count,
        tuple(contributors),
        tuple(seeing),
        actions.sharers[cell],
        divisor,
    )
    if parts is not None:
        for _part, player, numerator, denominator in filmed.shares():
            into = parts[player]
            into[denominator] = into.get(denominator, 0) + numerator
    return filmed


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
