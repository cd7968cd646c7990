"""lca's legal choices (:mod:`matchledger.engine.choices`): the cells each round takes.

Round 1: 5 distinct floor cells in priority order.  Round 2: 3 camera centres, any cell
(wall or light included) whose 3x3 block lies inside the studio (L4), no two of a
player's own blocks sharing a cell: centres at a Chebyshev distance of 3 or more.
Round 3: 3 distinct empty cells (not a wall, not a light).  The grid carries what the
participant knows of the studio (:func:`board_marks`): all of it public, but for which
lights are their own, which only they were told.
"""

from __future__ import annotations

from matchledger.engine.choices import cell_option, closed
from matchledger.engine.state import MatchState

from .actions import ACTIONS
from .cameras import CAMERAS, block, block_inside
from .lights import BRIGHTNESS_CAP, PRIORITIES
from .studio import Studio, cell_name

#: A player's own cameras may not share a cell: two 3x3 blocks are disjoint when their
#: centres are this far apart (Chebyshev).
CAMERAS_APART = 3


def choices(game, state: MatchState, participant: str) -> dict:
    state.require_participant(participant)
    over = closed(game, state)
    if over is not None:
        return over
    studio: Studio = state.g.studio
    lights = set(state.g.lights.owner) if state.g.lights is not None else set()
    round_no = state.round
    marks = board_marks(state, participant)
    if round_no == 1:
        cells = [cell for cell in studio.cells() if not studio.is_wall(cell)]
        part = _part("lights", "light priorities, highest first", PRIORITIES, True, studio, cells, marks)
        prompt = f"Round 1: pick {PRIORITIES} light priorities, highest first"
        constraints = []
    elif round_no == 2:
        cells = [cell for cell in studio.cells() if block_inside(studio, cell)]  # L4: walls and lights too
        part = _part("cameras", "camera centres", CAMERAS, False, studio, cells, marks)
        prompt = f"Round 2: pick {CAMERAS} camera centres, no two of their 3x3 blocks sharing a cell"
        constraints = [{"kind": "apart", "parts": ["cameras"], "distance": CAMERAS_APART}]
    else:
        cells = [cell for cell in studio.cells() if not studio.is_wall(cell) and cell not in lights]
        part = _part("actions", "action cells", ACTIONS, False, studio, cells, marks)
        prompt = f"Round 3: pick {ACTIONS} action cells, each empty: no wall, no light"
        constraints = []
    typed = " ".join(cell_name(cell) for cell in _example(cells, part["max"], round_no == 2))
    return {"prompt": prompt, "parts": [part], "constraints": constraints, "typed": typed}


def _example(cells, count: int, apart: bool) -> list:
    """The first cells in reading order that make a submission (kept apart for cameras)."""
    picked: list = []
    for cell in cells:
        if len(picked) < count and not (
            apart and any(max(abs(cell[0] - p[0]), abs(cell[1] - p[1])) < CAMERAS_APART for p in picked)
        ):
            picked.append(cell)
    return picked


def _part(name: str, label: str, count: int, ordered: bool, studio: Studio, cells, marks: list[dict]) -> dict:
    return {
        "name": name,
        "label": label,
        "min": count,
        "max": count,
        "ordered": ordered,
        "options": [cell_option(cell_name(cell), cell[1], cell[0]) for cell in cells],
        "grid": {"width": studio.width, "height": studio.height, "marks": marks},
    }


def _xy(cells) -> list[list[int]]:
    """Cells (row, column) as the grid's [x, y], in reading order."""
    return [[c, r] for r, c in sorted(cells)]


def board_marks(state: MatchState, participant: str) -> list[dict]:
    """What stands on the studio as ``participant`` knows it now, as the grid's marks:
    walls; once Round 1 is closed, what its close announced (rules.md, Round 1, "Public
    at close": every light's cell and every cell's brightness) and which lights are the
    participant's own (told to them alone); once Round 2 is closed, every camera's centre
    (Round 2, "Public at close") and the 3x3 blocks they see, which follow from the
    centres.  Never anything submitted but not yet announced.  Marks with no cell are
    left out."""
    g = state.g
    studio: Studio = g.studio
    marks = [{"name": "wall", "label": "wall", "symbol": "\u25a0", "cells": _xy(studio.walls)}]
    if g.lights is not None:
        lights = g.lights.lights()
        marks.append({"name": "light", "label": "light", "symbol": "\u2726", "cells": _xy(lights)})
        own = [cell for cell in lights if g.lights.owner[cell] == participant]
        marks.append({"name": "own-light", "label": "your light", "symbol": "\u2605", "cells": _xy(own)})
        levels = g.lights.brightness()
        for level in range(1, BRIGHTNESS_CAP + 1):
            at = [cell for cell, shown in levels.items() if shown == level]
            marks.append(
                {"name": f"brightness-{level}", "label": f"brightness {level}", "symbol": str(level), "cells": _xy(at)}
            )
    if g.cameras is not None:
        centres = g.cameras.centres()
        marks.append({"name": "camera", "label": "camera centre", "symbol": "C", "cells": _xy(set(centres))})
        seen = {cell for centre in centres for cell in block(centre)} - set(centres)
        marks.append({"name": "filmed", "label": "seen by a camera", "symbol": "\u25cc", "cells": _xy(seen)})
    return [mark for mark in marks if mark["cells"]]
