"""`explain`: one player's score derived line by line, with the rule behind each point.

A host/auditor tool (it names owners and sharers).  Built from the engine's own
resolution of each closed round (``state.g``), so the lines of a category sum exactly to
the engine's exact score and its rounded ``score`` is what `scores` shows.  Only the
categories scored so far appear (lights after Round 1, camera after Round 2, action and
filming after Round 3).
"""

from __future__ import annotations

from fractions import Fraction

from matchledger.engine.explanation import category, explanation, line
from matchledger.engine.state import MatchState

from .actions import CAP, DISTANCE_POINTS, LINE_POINTS
from .cameras import block
from .lights import BRIGHTNESS_CAP, LIGHT_POINTS
from .studio import DIRECTIONS, cell_name


def _names(cells) -> str:
    return ", ".join(cell_name(c) for c in cells)


def _who(players) -> str:
    return ", ".join(players)


# --------------------------------------------------------------------------- lights


def placement_lines(state: MatchState, g, p: str) -> list[dict]:
    """L2, step by step for ``p``: which priorities were placed and why others were
    skipped (0-point lines; the placement decides which cells ``p`` lights)."""
    from collections import Counter

    from .lights import MAX_LIGHTS
    from .studio import parse_cell

    subs = state.round_submissions(1)
    if p not in subs:
        return [line(0, "L2: a player with no submission at close places nothing", f"{p} submitted no lights")]
    priorities = {q: [parse_cell(t) for t in sub.tokens] for q, sub in subs.items()}
    placed: dict[str, list] = {q: [] for q in priorities}
    occupied: set = set()
    lines = []
    for k in range(len(priorities[p])):
        active = [q for q, cells in priorities.items() if len(placed[q]) < MAX_LIGHTS and k < len(cells)]
        named = Counter(priorities[q][k] for q in active)
        new = [
            (q, priorities[q][k]) for q in active if priorities[q][k] not in occupied and named[priorities[q][k]] == 1
        ]
        mine = priorities[p][k]
        if p not in active:
            lines.append(
                line(0, f"L2: a player stops at {MAX_LIGHTS} lights", f"priority {k + 1} {cell_name(mine)} not used")
            )
        elif mine in occupied:
            lines.append(
                line(
                    0, "L2: a cell that already holds a light is skipped", f"priority {k + 1} {cell_name(mine)} skipped"
                )
            )
        elif named[mine] > 1:
            others = [q for q in active if q != p and priorities[q][k] == mine]
            lines.append(
                line(
                    0,
                    "L2: a cell named by two active players at the same priority is skipped for all of them",
                    f"priority {k + 1} {cell_name(mine)} skipped (also named by {_who(others)})",
                )
            )
        else:
            lines.append(line(0, "L2: light placed", f"priority {k + 1}: light at {cell_name(mine)}"))
        for q, cell in new:
            placed[q].append(cell)
            occupied.add(cell)
    if tuple(placed[p]) != tuple(g.lights.placed[p]):  # never expected: then say only what the engine placed
        return [line(0, "L2: lights placed", f"{p}'s lights: {_names(g.lights.placed[p]) or 'none'}")]
    return lines


def lights_lines(g, p: str) -> list[dict]:
    lights = g.lights
    lines = []
    for x in sorted(lights.lit_by[p]):
        count = lights.count.get(x, 0)
        level = lights.level(x)
        mine = [c for c in lights.placed[p] if x in lights.reach[c]]
        rule = f"lights table: brightness {level} -> {LIGHT_POINTS[level]}"
        if count > BRIGHTNESS_CAP:
            rule += f" (brightness capped at {BRIGHTNESS_CAP}: {count} lights)"
        if x in lights.owner:
            rule += "; L3 a light's cell is brightened (lights_light_lights=true)"
        plural = "s" if len(mine) > 1 else ""
        detail = f"{cell_name(x)} lit by {p}'s light{plural} at {_names(mine)} (brightness {level})"
        if len(mine) > 1:
            detail += "; counted once per cell"
        lines.append(line(LIGHT_POINTS[level], rule, detail))
    return lines


# --------------------------------------------------------------------------- camera


def camera_lines(g, p: str) -> list[dict]:
    lights, cameras = g.lights, g.cameras
    lines = []
    if not cameras.cameras[p]:
        lines.append(line(0, "camera: no camera, no points", f"{p} submitted no cameras"))
    for centre in cameras.cameras[p]:
        lit = False
        for x in block(centre):
            level = lights.level(x)
            if level < 1:
                continue
            lit = True
            n = cameras.seen[x]
            lines.append(
                line(
                    Fraction(3 * level, n),
                    f"camera: 3 x light {level} / {n} camera{'s' if n > 1 else ''} seeing it",
                    f"{p}'s camera centred {cell_name(centre)} sees {cell_name(x)} (light {level}, seen by {n})",
                )
            )
        if not lit:
            lines.append(line(0, "camera: 3 x light / n", f"{p}'s camera centred {cell_name(centre)} sees no lit cell"))
    return lines


# --------------------------------------------------------------------------- action


def _diamond_rule(studio, actions: frozenset, cell, must_be_empty: bool) -> tuple[bool, str]:
    """Whether ``cell`` is in a diamond (L5), and the ruling text that decides it."""
    blocked = None
    for centre in studio.neighbours(cell):
        arms = [(centre[0] + dr, centre[1] + dc) for dr, dc in DIRECTIONS]
        if not all(arm in actions for arm in arms):
            continue
        if centre not in actions:
            return True, f"L5 diamond (centre {cell_name(centre)} empty)"
        if not must_be_empty:
            return True, f"L5 diamond (centre {cell_name(centre)} holds an action; diamond_center_must_be_empty=false)"
        blocked = centre
    if blocked is not None:
        return False, f"L5 no diamond: centre {cell_name(blocked)} holds an action (diamond_center_must_be_empty=true)"
    return False, "L5 no diamond"


def action_lines(state: MatchState, g, p: str) -> list[dict]:
    actions = g.actions
    must_be_empty = state.options_for(3)["diamond_center_must_be_empty"]
    merged = frozenset(actions.sharers)
    lines = []
    if not actions.named[p]:
        lines.append(line(0, "action: no action, no points", f"{p} submitted no actions"))
    for cell in actions.named[p]:
        pts = actions.points[cell]
        who = actions.sharers[cell]
        k = len(who)
        share = f" / {k} sharers ({_who(who)})" if k > 1 else ""
        name = cell_name(cell)
        in_diamond, rule = _diamond_rule(g.studio, merged, cell, must_be_empty)
        if in_diamond != (pts.diamond > 0):  # the engine's own verdict decides the points
            rule = "L5 diamond" if pts.diamond else "L5 no diamond"
        lines.append(line(Fraction(pts.diamond, k), f"{rule}: {pts.diamond}{share}", f"action {name}: diamond part"))
        m = pts.line_count
        capped = " (capped at 50)" if LINE_POINTS * m > CAP else ""
        lines.append(
            line(
                Fraction(pts.line, k),
                f"line: min(50, 3 x {m}) = {pts.line}{capped}{share}",
                f"action {name}: {m} action{'s' if m != 1 else ''} in a row from a neighbour",
            )
        )
        if pts.steps is None:
            why = f"no other action reachable: {pts.distance}"
        else:
            why = f"distance: min(50, 5 x {pts.steps} step{'s' if pts.steps != 1 else ''}) = {pts.distance}"
            if DISTANCE_POINTS * pts.steps > CAP:
                why += " (capped at 50)"
        lines.append(
            line(
                Fraction(pts.distance, k),
                f"{why}{share}; walls and lights block the path (Clarification)",
                f"action {name}: distance part",
            )
        )
    return lines


# --------------------------------------------------------------------------- filming


def filming_lines(state: MatchState, g, p: str) -> list[dict]:
    divisor = state.options_for(3)["filming_lights_divisor"]
    amendment = "the Amendment" if divisor == 2 else "the card's wording" if divisor == 1 else "amended"
    lines = []
    for filmed in g.filming.cells:
        name = cell_name(filmed.cell)
        a, level, c = filmed.action_points, filmed.level, len(filmed.contributors)
        if p in filmed.contributors:
            lines.append(
                line(
                    Fraction(a, divisor * c),
                    f"filming lights: A(X) / ({divisor} x |C|) = {a} / ({divisor} x {c}) "
                    f"({amendment}, filming_lights_divisor={divisor})",
                    f"{name} filmed; lit by {_who(filmed.contributors)}",
                )
            )
        for owner, centre in filmed.cameras:
            if owner != p:
                continue
            factor = 6 if centre == filmed.cell else 2
            where = "its centre" if factor == 6 else f"centred {cell_name(centre)}"
            lines.append(
                line(
                    factor * level,
                    f"filming camera: {factor} x light {level}"
                    + (" (X is the camera's centre)" if factor == 6 else ""),
                    f"{name} filmed by {p}'s camera ({where})",
                )
            )
        if p in filmed.sharers:
            k = len(filmed.sharers)
            seeing = len(filmed.cameras)
            share = f" / {k} sharers ({_who(filmed.sharers)})" if k > 1 else ""
            lines.append(
                line(
                    Fraction(3 * (filmed.lights + seeing), k),
                    f"filming action: 3 x ({filmed.lights} lights uncapped + {seeing} cameras){share}",
                    f"{name} filmed; {p} named the action",
                )
            )
    return lines


# --------------------------------------------------------------------------- explain


def explain(state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    g = state.g
    categories = []
    if g.lights is not None:
        lines = placement_lines(state, g, participant) + lights_lines(g, participant)
        categories.append(category("lights", lines, g.lights.scores[participant]))
    if g.cameras is not None:
        categories.append(category("camera", camera_lines(g, participant), g.cameras.scores[participant]))
    if g.actions is not None:
        categories.append(category("action", action_lines(state, g, participant), g.actions.scores[participant]))
        categories.append(category("filming", filming_lines(state, g, participant), g.filming.scores[participant]))
    return explanation(state, participant, categories)
