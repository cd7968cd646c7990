"""An independent oracle for Lights, Camera, Action! (lca).

Written from engine/lca/rules.md alone (no engine code read), for
differential testing against ``engine.lca``.  Clarity over speed; all arithmetic is exact
(``fractions.Fraction``) and each category is floored once, when it is scored.

Input: an :class:`LcaMatch` (players in listed order, studio rows, creation options,
amendments, contracts and the counting submission of each player in each round).
:func:`parse_script` builds one from a host script (``fixtures/lca/*.txt``).
Output: :func:`evaluate` returns an :class:`OracleResult` with per-player category
scores and totals, the ranking and the award multiset.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .lca_oracle_input import LcaMatch, parse_cell

# --------------------------------------------------------------------------- geometry


class Studio:
    def __init__(self, rows: list[str]):
        self.rows = rows
        self.height = len(rows)
        self.width = len(rows[0])

    def inside(self, cell) -> bool:
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width

    def wall(self, cell) -> bool:
        r, c = cell
        return self.rows[r][c] == "#"

    def cells(self):
        """Every cell in reading order."""
        for r in range(self.height):
            for c in range(self.width):
                yield (r, c)

    def neighbours(self, cell):
        r, c = cell
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            n = (r + dr, c + dc)
            if self.inside(n):
                yield n


DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))

LIGHT_POINTS = {1: 3, 2: 2, 3: 4, 4: 2, 5: 1}


# --------------------------------------------------------------------------- round 1


def place_lights(lists: dict[str, list[tuple[int, int]]], players: list[str]) -> dict[tuple[int, int], str]:
    """Ruling L2.  ``lists``: each submitter's 5 cells.  Returns cell -> owner."""
    owner: dict[tuple[int, int], str] = {}
    held = dict.fromkeys(lists, 0)
    for k in range(5):
        active = [p for p in players if p in lists and held[p] < 3]
        picks = {p: lists[p][k] for p in active}
        named = {}
        for p in active:
            named[picks[p]] = named.get(picks[p], 0) + 1
        placed_now = []
        for p in active:
            cell = picks[p]
            if cell in owner or named[cell] > 1:
                continue  # skipped for everyone who named it
            placed_now.append((cell, p))
        for cell, p in placed_now:  # all at once
            owner[cell] = p
            held[p] += 1
    return owner


def brightened_by(studio: Studio, light, lights: set, light_lights: bool) -> set:
    """Ruling L3: cells X != light, not walls, reachable in <= 3 orthogonal steps whose
    intermediate cells are neither walls nor lights."""
    result = set()
    frontier = [light]
    seen = {light}
    for _step in range(3):
        nxt = []
        for cell in frontier:
            for n in studio.neighbours(cell):
                if studio.wall(n) or n == light:
                    continue
                if n in lights:
                    if light_lights:
                        result.add(n)
                    continue  # a light cannot be an intermediate cell
                result.add(n)
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return result


# --------------------------------------------------------------------------- round 3 helpers


def action_points(studio: Studio, actions: set, lights: set, cell, diamond_center_empty: bool) -> int:
    r, c = cell
    # Diamond: some centre cell whose four orthogonal neighbours all hold actions, this
    # action being one of them.
    diamond = 0
    for dr, dc in DIRECTIONS:
        centre = (r - dr, c - dc)  # cell is the neighbour of centre in direction (dr, dc)
        if not studio.inside(centre):
            continue
        arms = [(centre[0] + a, centre[1] + b) for a, b in DIRECTIONS]
        if not all(studio.inside(a) and a in actions for a in arms):
            continue
        if diamond_center_empty and centre in actions:
            continue
        diamond = 20
    # Line
    best = 0
    for dr, dc in DIRECTIONS:
        m = 0
        n = (r + dr, c + dc)
        while studio.inside(n) and n in actions:
            m += 1
            n = (n[0] + dr, n[1] + dc)
        best = max(best, m)
    line = min(50, 3 * best)
    # Distance: BFS through cells that are neither walls nor lights
    others = actions - {cell}
    distance = 50
    seen = {cell}
    queue = deque([(cell, 0)])
    found = None
    while queue:
        cur, d = queue.popleft()
        if cur in others:
            found = d
            break
        for n in studio.neighbours(cur):
            if n in seen or studio.wall(n) or n in lights:
                continue
            seen.add(n)
            queue.append((n, d + 1))
    if found is not None:
        distance = min(50, 5 * found)
    return diamond + line + distance


# --------------------------------------------------------------------------- evaluation


@dataclass
class OracleResult:
    scores: dict[str, dict[str, int]]  # player -> {lights, camera, action, filming, total}
    ranking: list[str]  # best first
    awards: list[tuple[str, str, int | None]]  # (participant, kind, shards)
    exact: dict[str, dict[str, Fraction]] = field(default_factory=dict)  # before flooring
    details: dict[str, Any] = field(default_factory=dict)

    def rank_of(self, player: str) -> int:
        return self.ranking.index(player) + 1


def floor(x: Fraction) -> int:
    return math.floor(x)


def evaluate(match: LcaMatch) -> OracleResult:
    studio = Studio(match.studio)
    players = list(match.players)
    subs = match.submissions

    # ---- Round 1: lights
    opts1 = match.options_for(1)
    lists = {p: [parse_cell(t) for t in subs.get(1, {})[p]] for p in players if p in subs.get(1, {})}
    owner = place_lights(lists, players)
    lights = set(owner)
    reach = {L: brightened_by(studio, L, lights, opts1["lights_light_lights"]) for L in lights}
    count = {}  # uncapped number of lights brightening each cell
    for L in lights:
        for x in reach[L]:
            count[x] = count.get(x, 0) + 1

    def level(x) -> int:
        return min(5, count.get(x, 0))

    lit_by_player = {p: set() for p in players}
    for L, p in owner.items():
        lit_by_player[p] |= reach[L]
    exact = {p: {} for p in players}
    for p in players:
        exact[p]["lights"] = Fraction(sum(LIGHT_POINTS[level(x)] for x in lit_by_player[p]))

    # ---- Round 2: cameras
    cameras = []  # (owner, centre, cells seen)
    for p in players:
        for t in subs.get(2, {}).get(p, []):
            cr, cc = parse_cell(t)
            block = {(cr + a, cc + b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
            cameras.append((p, (cr, cc), block))
    seen_by = {}
    for _p, _c, block in cameras:
        for x in block:
            seen_by[x] = seen_by.get(x, 0) + 1
    for p in players:
        total = Fraction(0)
        for q, _c, block in cameras:
            if q != p:
                continue
            for x in block:
                total += Fraction(3 * level(x), seen_by[x])
        exact[p]["camera"] = total

    # ---- Round 3: actions and filming
    opts3 = match.options_for(3)
    namers: dict[tuple[int, int], list[str]] = {}
    for p in players:
        for t in subs.get(3, {}).get(p, []):
            namers.setdefault(parse_cell(t), []).append(p)
    actions = set(namers)
    points = {x: action_points(studio, actions, lights, x, opts3["diamond_center_must_be_empty"]) for x in actions}
    best_share = {p: Fraction(0) for p in players}
    for p in players:
        exact[p]["action"] = Fraction(0)
        exact[p]["filming"] = Fraction(0)
    for x, who in namers.items():
        share = Fraction(points[x], len(who))
        for p in who:
            exact[p]["action"] += share
            best_share[p] = max(best_share[p], share)

    divisor = opts3["filming_lights_divisor"]
    for x in sorted(actions):
        watching = [(q, c) for q, c, block in cameras if x in block]
        if level(x) < 1 or not watching:
            continue
        contributors = {owner[L] for L in lights if x in reach[L]}
        for p in contributors:
            exact[p]["filming"] += Fraction(points[x], divisor * len(contributors))
        for q, centre in watching:
            exact[q]["filming"] += (6 if centre == x else 2) * level(x)
        action_part = Fraction(3 * (count.get(x, 0) + len(watching)), len(namers[x]))
        for p in namers[x]:
            exact[p]["filming"] += action_part

    cats = ("lights", "camera", "action", "filming")
    scores = {}
    for p in players:
        s = {k: floor(exact[p][k]) for k in cats}
        s["total"] = sum(s[k] for k in cats)
        scores[p] = s

    # ---- Endgame
    order = {p: i for i, p in enumerate(players)}
    ranking = sorted(players, key=lambda p: (-scores[p]["total"], -scores[p]["filming"], order[p]))
    rank = {p: i + 1 for i, p in enumerate(ranking)}
    awards: list[tuple[str, str, int | None]] = []
    tol = {}
    for i, p in enumerate(ranking[:3]):
        tol[p] = 3 - i
        awards.append((p, "tol", 3 - i))
    for cat in ("lights", "camera", "action"):
        top = max(scores[p][cat] for p in players)
        for p in players:
            if scores[p][cat] == top and p in tol and tol[p] < 4:
                tol[p] += 1
                awards.append((p, "tol_shard", 1))
    top_film = max(scores[p]["filming"] for p in players)
    film_winner = min((p for p in players if scores[p]["filming"] == top_film), key=lambda p: rank[p])
    awards.append((film_winner, "tol", 4))
    holders = set(tol) | {film_winner}
    ecs = list(ranking[-2:])
    candidates = [p for p in players if p not in holders and p not in ecs]
    if candidates:
        third = min(candidates, key=lambda p: (scores[p]["filming"], -rank[p]))
        ecs.append(third)
    for p in ecs:
        awards.append((p, "ec", None))

    # ---- Contracts
    pact = [p for p in players if "supremacy" in match.contracts.get(p, [])]
    if pact:
        winner = min(pact, key=lambda p: rank[p])
        for p in pact:
            awards.append((p, "shards", 3) if p == winner else (p, "mark", None))
    for p in players:
        chosen = match.contracts.get(p, [])
        if "lights" in chosen and len(lit_by_player[p]) >= 50:
            awards.append((p, "shards", 1))
        if "camera" in chosen:
            mine = [block for q, _c, block in cameras if q == p]
            others = set()
            for q, _c, block in cameras:
                if q != p:
                    others |= block
            if sum(1 for block in mine if not (block & others)) >= 2:
                awards.append((p, "shards", 1))
        if "action" in chosen and best_share[p] >= 50:
            awards.append((p, "shards", 2))

    return OracleResult(
        scores=scores,
        ranking=ranking,
        awards=sorted(awards, key=lambda a: (a[0], a[1], -1 if a[2] is None else a[2])),
        exact=exact,
        details={"owner": owner, "count": count, "points": points, "namers": namers},
    )
