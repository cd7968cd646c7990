"""What Lights, Camera, Action! announces, as types: each round's public part and each
player's private notice (rules: "Public at close" / "Private"), and the outcome.  The
checks of :mod:`matchledger.engine.announced` run through them."""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import UNSET, Meta, UnsetType

from matchledger.engine import announced
from matchledger.engine.announced import (
    Announced,
    Outcome,
    Standing,
    check_round_number,
    conform,
    members,
)
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.validation import quoted

from .endgame import CHOICES, SUPREMACY
from .lights import BRIGHTNESS_CAP
from .spec import STUDIO_MAX_SIDE
from .studio import Studio, parse_cells

#: Cells of the studio, each named like ``B2``.
Cells = Annotated[list[str], Meta(max_length=STUDIO_MAX_SIDE * STUDIO_MAX_SIDE)]
Level = Annotated[int, Meta(ge=0, le=BRIGHTNESS_CAP)]
#: What a contract result may name (rules, "Contracts").
CONTRACTS = (*CHOICES, SUPREMACY)


class LightsPublic(Announced, frozen=True):
    lights: Cells
    brightness: Annotated[dict[str, Level], Meta(max_length=STUDIO_MAX_SIDE * STUDIO_MAX_SIDE)]


class LightsNotice(Announced, frozen=True):
    lights: Cells
    lights_score: int


class CamerasPublic(Announced, frozen=True):
    cameras: Cells


class CameraNotice(Announced, frozen=True):
    camera_score: int


class ActionsPublic(Announced, frozen=True):
    """Nothing is public when Round 3 closes."""


class ActionNotice(Announced, frozen=True):
    action_score: int
    filming_score: int


class LightsRound(Announced, kw_only=True, frozen=True):
    public: LightsPublic
    private: dict[str, LightsNotice]
    round: int | UnsetType = UNSET


class CamerasRound(Announced, kw_only=True, frozen=True):
    public: CamerasPublic
    private: dict[str, CameraNotice]
    round: int | UnsetType = UNSET


class ActionsRound(Announced, kw_only=True, frozen=True):
    public: ActionsPublic
    private: dict[str, ActionNotice]
    round: int | UnsetType = UNSET


ROUNDS: dict[int, type[Announced]] = {1: LightsRound, 2: CamerasRound, 3: ActionsRound}


class Scores(Announced, frozen=True):
    lights: int
    camera: int
    action: int
    filming: int


def _cells(studio: Studio, names, what: str) -> None:
    """Refuse a name that is not a cell, or a cell outside the studio."""
    try:
        cells = parse_cells(names)
    except MalformedInput as exc:
        raise MalformedInput(f"{what}: {exc}") from None
    height, width = studio.height, studio.width
    for name, (row, col) in zip(names, cells):
        if not (0 <= row < height and 0 <= col < width):
            raise MalformedInput(f"{what}: cell {quoted(name)} is outside the {studio.size()}")


def check_round(state: MatchState, round_no: int, announcement: dict) -> None:
    what = f"the announcement of round {round_no}"
    shape = ROUNDS.get(round_no)
    if shape is None:
        raise MalformedInput(f"{what}: lca has rounds 1 to 3")
    entry: Any = conform(announcement, shape, what)  # the shape of round_no, which a type cannot follow
    check_round_number(entry.round, round_no, what)
    members(entry.private, state.players, f"{what}, private", "player")
    studio = state.g.studio
    if round_no == 1:
        _cells(studio, entry.public.lights, f"{what}, public lights")
        _cells(studio, entry.public.brightness, f"{what}, public brightness")
        _cells(studio, [cell for notice in entry.private.values() for cell in notice.lights], f"{what}, private lights")
    elif round_no == 2:
        _cells(studio, entry.public.cameras, f"{what}, public cameras")


def check_outcome(state: MatchState, outcome: dict, what: str = "the announced outcome") -> None:
    announced.check_outcome(state, outcome, Outcome[Standing[Scores]], what, CONTRACTS)


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    """The final table is public as a whole: the public outcome has the host's shape."""
    check_outcome(state, outcome, "the public outcome")
