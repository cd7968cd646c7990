"""What Lights, Camera, Action! announces, as types: each round's public part and each
player's private notice (rules: "Public at close" / "Private"), and the outcome.  The
checks of :mod:`matchledger.engine.announced` run through them."""

from __future__ import annotations

from typing import Annotated

from matchledger.engine.announced import (
    Announced,
    Award,
    OutcomeHead,
    check_head,
    check_reasons,
    check_round_number,
    conform,
    distinct,
    members,
)
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import PARTICIPANTS_MAX, STUDIO_MAX_SIDE
from matchledger.ledger.validation import quoted
from msgspec import UNSET, Meta, UnsetType

from .lights import BRIGHTNESS_CAP
from .studio import Studio, parse_cell

#: Cells of the studio, each named like ``B2``.
Cells = Annotated[list[str], Meta(max_length=STUDIO_MAX_SIDE * STUDIO_MAX_SIDE)]
Level = Annotated[int, Meta(ge=0, le=BRIGHTNESS_CAP)]


class LightsPublic(Announced):
    lights: Cells
    brightness: Annotated[dict[str, Level], Meta(max_length=STUDIO_MAX_SIDE * STUDIO_MAX_SIDE)]


class LightsNotice(Announced):
    lights: Cells
    lights_score: int


class CamerasPublic(Announced):
    cameras: Cells


class CameraNotice(Announced):
    camera_score: int


class ActionsPublic(Announced):
    """Nothing is public when Round 3 closes."""


class ActionNotice(Announced):
    action_score: int
    filming_score: int


class LightsRound(Announced, kw_only=True):
    public: LightsPublic
    private: dict[str, LightsNotice]
    round: int | UnsetType = UNSET


class CamerasRound(Announced, kw_only=True):
    public: CamerasPublic
    private: dict[str, CameraNotice]
    round: int | UnsetType = UNSET


class ActionsRound(Announced, kw_only=True):
    public: ActionsPublic
    private: dict[str, ActionNotice]
    round: int | UnsetType = UNSET


ROUNDS = {1: LightsRound, 2: CamerasRound, 3: ActionsRound}


class Scores(Announced):
    lights: int
    camera: int
    action: int
    filming: int


class Standing(Announced):
    participant: str
    rank: Annotated[int, Meta(ge=1)]
    total: int
    scores: Scores


class Outcome(OutcomeHead, kw_only=True):
    standings: Annotated[list[Standing], Meta(max_length=PARTICIPANTS_MAX)]
    awards: list[Award]


def _cells(studio: Studio, names, what: str) -> None:
    for name in names:
        try:
            cell = parse_cell(name)
        except MalformedInput:
            raise MalformedInput(f"{what}: {quoted(name)} is not a cell name like 'B2'") from None
        if not studio.inside(cell):
            raise MalformedInput(f"{what}: cell {quoted(name)} is outside the {studio.size()}")


def check_round(state: MatchState, round_no: int, announcement: dict) -> None:
    what = f"the announcement of round {round_no}"
    shape = ROUNDS.get(round_no)
    if shape is None:
        raise MalformedInput(f"{what}: lca has rounds 1 to 3")
    announced = conform(announcement, shape, what)
    check_round_number(announced.round, round_no, what)
    members(announced.private, state.players, f"{what}, private", "player")
    studio = state.g.studio
    if round_no == 1:
        _cells(studio, announced.public.lights, f"{what}, public lights")
        _cells(studio, announced.public.brightness, f"{what}, public brightness")
        for player, notice in announced.private.items():
            _cells(studio, notice.lights, f"{what}, {quoted(player)}'s lights")
    elif round_no == 2:
        _cells(studio, announced.public.cameras, f"{what}, public cameras")


def check_outcome(state: MatchState, outcome: dict, what: str = "the announced outcome") -> None:
    announced = conform(outcome, Outcome, what)
    check_head(state, announced, what)
    ranked = [standing.participant for standing in announced.standings]
    members(ranked, state.players, f"{what}, standings", "player")
    distinct(ranked, f"{what}, standings")
    members([award.participant for award in announced.awards], state.players, f"{what}, awards", "player")
    check_reasons(announced.awards, what)


def check_public_outcome(state: MatchState, outcome: dict) -> None:
    """The final table is public as a whole: the public outcome has the host's shape."""
    check_outcome(state, outcome, "the public outcome")
