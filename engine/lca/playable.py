"""Whether a match can be held in a studio: its size (ledger/limits.py), and room for
every player's lights and for the actions after them (rules/lights-camera-action.md)."""

from __future__ import annotations

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import STUDIO_MAX_SIDE, STUDIO_MIN_SIDE

from .actions import ACTIONS
from .lights import MAX_LIGHTS
from .studio import FLOOR


def floor_needed(players: int) -> int:
    """Floor cells a match of ``players`` needs: each player may end Round 1 holding
    MAX_LIGHTS lights, and Round 3 still needs ACTIONS empty floor cells for a player's
    actions (players naming the same cell share one action, so ACTIONS cells serve all)."""
    return MAX_LIGHTS * players + ACTIONS


def check_studio(rows: list[str], players: int) -> None:
    """Refuse a studio (rows of ``.`` and ``#``, as parsed) that is too small for a
    camera's 3x3 block, too large to draw, or too cramped for ``players``."""
    width, height = len(rows[0]), len(rows)
    if min(width, height) < STUDIO_MIN_SIDE or max(width, height) > STUDIO_MAX_SIDE:
        raise MalformedInput(
            f"the studio is {width}x{height}; a studio is {STUDIO_MIN_SIDE} to {STUDIO_MAX_SIDE} cells each way "
            f"(at least {STUDIO_MIN_SIDE} so that a camera's 3x3 block fits)"
        )
    floor = sum(row.count(FLOOR) for row in rows)
    needed = floor_needed(players)
    if floor < needed:
        raise MalformedInput(
            f"the studio has {floor} floor cells; {players} players need at least {needed}: room for "
            f"{MAX_LIGHTS} lights each, and {ACTIONS} cells still empty for the actions of Round 3"
        )
