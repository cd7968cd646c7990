"""Parallel Worlds (``pw``) as a game of three simultaneous rounds."""

from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from matchledger.engine.rounds import RoundsGame
from matchledger.engine.state import MatchState
from matchledger.ledger.events import MatchCreated

from . import announcements, views
from .explain import explain
from .model import PWState, RoundResult, public_order
from .resolve import resolve
from .validation import NAME, check_setup, check_submission, parse_contract

if TYPE_CHECKING:  # only named in annotations: a sampler is not loaded with the game
    import random

    from matchledger.engine.sample import Sample


class ParallelWorlds(RoundsGame):
    name = NAME
    views: ClassVar[ModuleType] = views  # the read models: this package's views module
    announcement_shapes: ClassVar[ModuleType] = announcements  # the types of what it announces
    STATE_TYPE = PWState
    ROUNDS = 3
    OPTIONS = {}
    MIN_PLAYERS = 2  # each participant needs two targets outside their own pair
    ALL_MUST_SUBMIT = "W5"  # actions are mandatory: no round closes with anyone missing
    CHOICES_HIDDEN = ("W3", "W4")  # they check the partner's submissions, which the choices never reveal

    # ---- creation

    def build_setup(self, cmd, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        setup = check_setup(list(cmd.players), dict(cmd.setup))
        return public_order(cmd.players, setup["pairs"].values()), setup

    def participants_from(self, created: MatchCreated) -> list[str]:
        # Players as listed, then guests by name: an order that says nothing of who is
        # whose partner, so no list, message or loop over participants can tell it.
        return public_order(created.players, created.setup["pairs"].values())

    def init_game(self, state: MatchState) -> PWState:
        pairs = state.setup["pairs"]
        partner: dict[str, str] = {}
        role: dict[str, str] = {}
        for player in state.players:
            guest = pairs[player]
            partner[player], partner[guest] = guest, player
            role[player], role[guest] = "player", "guest"
        return PWState(
            players=list(state.players),
            guest_of={p: pairs[p] for p in state.players},
            partner=partner,
            role=role,
        )

    # ---- decide hooks

    def parse_submission(self, state, participant, round_no, tokens, replacing=None):
        return check_submission(state, participant, round_no, tokens, replacing)

    def parse_contract(self, state, participant, names):
        return parse_contract(state, participant, names)

    def resolve_round(self, state: MatchState, round_no: int) -> RoundResult:
        return resolve(state, round_no)

    def store_round(self, state: MatchState, round_no: int, result: RoundResult) -> None:
        state.g.rounds[round_no] = result

    def unstore_round(self, state: MatchState, round_no: int) -> None:
        for r in [r for r in state.g.rounds if r >= round_no]:
            del state.g.rounds[r]

    def announce_round(self, state: MatchState, round_no: int, result: RoundResult) -> tuple[dict, dict]:
        g: PWState = state.g
        public = {"type_counts": dict(result.type_counts)}
        private = {}
        for p in state.participants:
            private[p] = {
                "own_points": result.totals[p],
                "partner_points": result.totals[g.partner[p]],
                "learn": [dict(item, actions=[dict(a) for a in item["actions"]]) for item in result.learn.get(p, [])],
                "watch": [dict(item, seen=list(item["seen"])) for item in result.watch.get(p, [])],
            }
        return public, private

    # ---- read models (the views module) and explain

    def fork_game_state(self, g: PWState) -> PWState:
        # storing a round adds one entry to ``rounds``: the results themselves are shared
        return dataclasses.replace(g, rounds=dict(g.rounds))

    def explain(self, state: MatchState, participant: str) -> dict:
        return explain(state, participant)

    def choices(self, state: MatchState, participant: str) -> dict:
        from .choices import choices  # only the service and its tests ask

        return choices(self, state, participant)

    def sample(self, rng: random.Random, match_id: str = "m1", **knobs) -> Sample:
        """A random legal match of this game (knobs: :func:`.sample.sample`'s)."""
        from .sample import sample

        return sample(rng, match_id, **knobs)


GAME = ParallelWorlds()
