"""Validating and normalizing submissions (cells upper-case) and contracts."""

from __future__ import annotations

from matchledger.ledger.errors import IllegalMove, MalformedInput

from .actions import ACTIONS
from .cameras import CAMERAS, block, block_inside
from .endgame import CHOICES, SUPREMACY
from .lights import PRIORITIES
from .studio import Cell, Studio, cell_name

WHAT = {1: "lights (a priority list of 5 distinct cells)", 2: "camera centres", 3: "action cells"}
COUNT = {1: PRIORITIES, 2: CAMERAS, 3: ACTIONS}


def _count(round_no: int, tokens: list[str]) -> None:
    want = COUNT[round_no]
    if len(tokens) != want:
        shown = " ".join(tokens) if tokens else "nothing"
        raise MalformedInput(f"round {round_no} takes exactly {want} {WHAT[round_no]}, got {len(tokens)}: {shown}")


def _distinct(cells: list[Cell], noun: str) -> None:
    seen = set()
    for cell in cells:
        if cell in seen:
            raise IllegalMove(f"{noun} {cell_name(cell)!r} is listed twice; the cells must be distinct")
        seen.add(cell)


def parse_lights(studio: Studio, tokens: list[str]) -> list[str]:
    _count(1, tokens)
    cells = [studio.locate(t) for t in tokens]
    for cell in cells:
        if studio.is_wall(cell):
            raise IllegalMove(f"cell {cell_name(cell)!r} is a wall; lights go on floor cells")
    _distinct(cells, "cell")
    return [cell_name(c) for c in cells]


def parse_cameras(studio: Studio, tokens: list[str]) -> list[str]:
    _count(2, tokens)
    centres = [studio.locate(t) for t in tokens]
    for centre in centres:
        if not block_inside(studio, centre):  # L4
            raise IllegalMove(f"camera at {cell_name(centre)!r}: its 3x3 block leaves the {studio.size()}")
    _distinct(centres, "camera")
    for i, a in enumerate(centres):
        for b in centres[i + 1 :]:
            shared = sorted(set(block(a)) & set(block(b)))
            if shared:
                raise IllegalMove(
                    f"cameras {cell_name(a)!r} and {cell_name(b)!r} overlap at {cell_name(shared[0])!r}; "
                    "a player's own cameras may not share a cell"
                )
    return [cell_name(c) for c in centres]


def parse_actions(studio: Studio, tokens: list[str], lights) -> list[str]:
    _count(3, tokens)
    cells = [studio.locate(t) for t in tokens]
    for cell in cells:
        if studio.is_wall(cell):
            raise IllegalMove(f"cell {cell_name(cell)!r} is a wall; actions go on empty cells")
        if cell in lights:
            raise IllegalMove(f"cell {cell_name(cell)!r} holds a light; actions go on empty cells")
    _distinct(cells, "cell")
    return [cell_name(c) for c in cells]


def parse_contract(names: list[str]) -> list[str]:
    """Exactly one of lights/camera/action, plus optionally supremacy -> [choice] or
    [choice, "supremacy"]."""
    if not names:
        raise MalformedInput("a contract names one of lights, camera, action (and optionally supremacy)")
    chosen: list[str] = []
    pact = False
    for raw in names:
        name = str(raw).strip().lower()
        if name == SUPREMACY:
            if pact:
                raise MalformedInput(f"contract {raw!r} is named twice")
            pact = True
        elif name in CHOICES:
            if chosen:
                raise IllegalMove(
                    f"contract {raw!r}: a player picks exactly one of lights, camera, action (already {chosen[0]!r})"
                )
            chosen.append(name)
        else:
            raise MalformedInput(f"unknown contract {raw!r} (lca contracts: lights, camera, action, supremacy)")
    if not chosen:
        raise IllegalMove("the supremacy pact comes on top of exactly one of lights, camera, action; none was named")
    return chosen + ([SUPREMACY] if pact else [])
