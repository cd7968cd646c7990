"""Whether a match can be held in a studio: its size (the limits of the game's declaration, spec.py), and room for
every player's lights and for the actions after them (engine/lca/rules.md)."""

from __future__ import annotations

from matchledger.ledger.errors import MalformedInput

from .actions import ACTIONS
from .cameras import CAMERAS
from .lights import MAX_LIGHTS
from .spec import STUDIO_MAX_SIDE, STUDIO_MIN_SIDE
from .studio import FLOOR


def floor_needed(players: int) -> int:
    """Floor cells a match of ``players`` needs: each player may end Round 1 holding
    MAX_LIGHTS lights, and Round 3 still needs ACTIONS empty floor cells for a player's
    actions (players naming the same cell share one action, so ACTIONS cells serve all)."""
    return MAX_LIGHTS * players + ACTIONS


def fits_a_players_cameras(width: int, height: int) -> bool:
    """Whether CAMERAS 3x3 blocks that share no cell fit in a studio (L4: a block lies
    wholly inside; a player's own blocks may not share a cell).  Blocks side by side need
    3 columns each, blocks one above the other 3 rows each; with fewer than 6 rows no two
    blocks can be stacked, so all of them stand in a row (and likewise for columns)."""
    if width >= 3 * CAMERAS or height >= 3 * CAMERAS:
        return True
    return width >= 6 and height >= 6  # two side by side, the third below them


def check_studio(rows: list[str], players: int) -> None:
    """Refuse a studio (rows of ``.`` and ``#``, as parsed) that is too small for a
    player's cameras, too large to draw, or too cramped for ``players``."""
    width, height = len(rows[0]), len(rows)
    if min(width, height) < STUDIO_MIN_SIDE or max(width, height) > STUDIO_MAX_SIDE:
        raise MalformedInput(
            f"the studio is {width}x{height}; a studio is {STUDIO_MIN_SIDE} to {STUDIO_MAX_SIDE} cells each way "
            f"(at least {STUDIO_MIN_SIDE} so that a camera's 3x3 block fits)"
        )
    if not fits_a_players_cameras(width, height):
        raise MalformedInput(
            f"the studio is {width}x{height}; a player's {CAMERAS} cameras need {CAMERAS} 3x3 blocks that share no "
            f"cell (L4): a studio at least {3 * CAMERAS} cells one way, or 6 both ways"
        )
    floor = sum(row.count(FLOOR) for row in rows)
    needed = floor_needed(players)
    if floor < needed:
        raise MalformedInput(
            f"the studio has {floor} floor cells; {players} players need at least {needed}: room for "
            f"{MAX_LIGHTS} lights each, and {ACTIONS} cells still empty for the actions of Round 3"
        )
