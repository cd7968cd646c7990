"""Lights, Camera, Action! (``lca``) as a game of three simultaneous rounds."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from matchledger.engine.rounds import RoundsGame
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import IllegalMove, MissingSetup, UnexpectedSetup

from . import announcements, submissions, views
from .actions import ActionsResult, resolve_actions
from .cameras import CamerasResult, resolve_cameras
from .explain import explain
from .filming import FilmingResult, resolve_filming
from .lights import BRIGHTNESS_CAP, LightsResult, resolve_lights
from .options import OPTIONS, ROUNDS
from .playable import check_studio
from .studio import Studio, cell_names, parse_cells, parse_studio_text

if TYPE_CHECKING:  # only named in annotations: a sampler is not loaded with the game
    import random

    from matchledger.engine.sample import Sample


@dataclass
class LcaState:
    """The game's derived state (``state.g``): the studio and each closed round's
    computation, as the engine itself made it."""

    studio: Studio
    lights: LightsResult | None = None
    cameras: CamerasResult | None = None
    actions: ActionsResult | None = None
    filming: FilmingResult | None = None

    @property
    def complete(self) -> bool:
        return self.filming is not None


class LcaGame(RoundsGame):
    name = "lca"
    views: ClassVar[ModuleType] = views  # the read models: this package's views module
    announcement_shapes: ClassVar[ModuleType] = announcements  # the types of what it announces
    STATE_TYPE = LcaState
    ROUNDS = ROUNDS
    MIN_PLAYERS = 2
    OPTIONS = OPTIONS
    WITHOUT_SUBMISSION = "a player with no submission at close places nothing"

    # ---- creation

    def build_setup(self, cmd, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        setup = dict(cmd.setup or {})
        extra = sorted(k for k in setup if k != "studio")
        if extra:
            raise UnexpectedSetup(self.name, extra, ["studio"])
        if "studio" not in setup or setup["studio"] is None:
            raise MissingSetup(self.name, "studio")
        text = setup["studio"]
        if isinstance(text, (list, tuple)):  # already a list of rows (normalized form)
            text = "\n".join(str(row) for row in text)
        rows = parse_studio_text(text)
        check_studio(rows, len(cmd.players))
        return list(cmd.players), {"studio": rows}

    def init_game(self, state: MatchState) -> LcaState:
        return LcaState(Studio.from_rows(state.setup["studio"]))

    # ---- decide hooks

    def parse_submission(self, state, participant, round_no, tokens, replacing=None) -> list[str]:
        g: LcaState = state.g
        if round_no == 1:
            return submissions.parse_lights(g.studio, tokens)
        if round_no == 2:
            return submissions.parse_cameras(g.studio, tokens)
        if round_no == 3:
            return submissions.parse_actions(g.studio, tokens, g.lights.owner if g.lights else {})
        raise IllegalMove(f"lca has 3 rounds; round {round_no} takes no submissions")

    def parse_contract(self, state, participant, names) -> list[str]:
        return submissions.parse_contract(names)

    # ---- resolution

    def _cells(self, state: MatchState, round_no: int) -> dict[str, list]:
        return {p: parse_cells(sub.tokens) for p, sub in state.round_submissions(round_no).items()}

    def resolve_round(self, state: MatchState, round_no: int) -> Any:
        g: LcaState = state.g
        options = state.options_for(round_no)
        if round_no == 1:
            return resolve_lights(g.studio, state.players, self._cells(state, 1), options["lights_light_lights"])
        if round_no == 2:
            # g.lights is None only in a log that closes Round 2 before Round 1: the fold
            # reports the error this raises as the event that cannot be replayed
            return resolve_cameras(state.players, self._cells(state, 2), g.lights, g.studio)  # type: ignore[arg-type]
        if round_no == 3:
            actions = resolve_actions(
                g.studio,
                state.players,
                self._cells(state, 3),
                g.lights.owner,  # type: ignore[union-attr]  # as in Round 2: only an out-of-order log
                options["diamond_center_must_be_empty"],
            )
            # filming is scored at Round 3's close, under Round 3's ruleset
            filming = resolve_filming(
                state.players,
                g.lights,  # type: ignore[arg-type]  # as in Round 2: only an out-of-order log
                g.cameras,  # type: ignore[arg-type]
                actions,
                options["filming_lights_divisor"],
            )
            return (actions, filming)
        raise IllegalMove(f"lca has 3 rounds, not {round_no}")

    def store_round(self, state: MatchState, round_no: int, result: Any) -> None:
        g: LcaState = state.g
        if round_no == 1:
            g.lights = result
        elif round_no == 2:
            g.cameras = result
        elif round_no == 3:
            g.actions, g.filming = result

    def unstore_round(self, state: MatchState, round_no: int) -> None:
        g: LcaState = state.g
        if round_no <= 3:
            g.actions = g.filming = None
        if round_no <= 2:
            g.cameras = None
        if round_no <= 1:
            g.lights = None

    def announce_round(self, state: MatchState, round_no: int, result: Any) -> tuple[dict, dict]:
        if round_no == 1:
            lights: LightsResult = result
            cap = BRIGHTNESS_CAP
            levels = [n if n < cap else cap for n in lights.count.values()]
            public = {
                "lights": cell_names(lights.lights()),
                "brightness": dict(zip(cell_names(lights.count), levels)),
            }
            private = {
                p: {"lights": cell_names(sorted(lights.placed[p])), "lights_score": lights.scores[p]}
                for p in state.players
            }
            return public, private
        if round_no == 2:
            cameras: CamerasResult = result
            return (
                {"cameras": cell_names(cameras.centres())},
                {p: {"camera_score": cameras.scores[p]} for p in state.players},
            )
        actions, filming = result
        return {}, {p: {"action_score": actions.scores[p], "filming_score": filming.scores[p]} for p in state.players}

    # ---- read models

    def fork_game_state(self, g: LcaState) -> LcaState:
        # storing a round only sets one of these fields: the results themselves are shared
        return dataclasses.replace(g)

    def explain(self, state: MatchState, participant: str) -> dict:
        return explain(state, participant)

    def choices(self, state: MatchState, participant: str) -> dict:
        from .choices import choices  # only the service and its tests ask

        return choices(self, state, participant)

    def sample(self, rng: random.Random, match_id: str = "m1", **knobs) -> Sample:
        """A random legal match of this game (knobs: :func:`.sample.sample`'s)."""
        from .sample import sample

        return sample(rng, match_id, **knobs)


GAME = LcaGame()
