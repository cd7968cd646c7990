"""Фотограф / Wind the Film! as a matchledger game of sequential turns (no ``close``).

Each ``submit`` records ``SubmissionRecorded(participant, round=<turn from 1>, tokens)``,
then ``TurnResolved(turn, participant, public, private)`` and, when the game ends,
``OutcomeAnnounced``.  Folding ``TurnResolved`` resolves the turn again from the recorded
submission's tokens (the announced ``public``/``private`` are kept for the record and
compared on verify, never trusted); ``SubmissionRecorded`` alone only records the tokens.

``state.round`` is the number of the next turn (end-phase turns included, P7).
Amendments (``wind_required``, ``row_points``) take effect from a turn number on; scoring
uses the options in force at the game's last turn.  ``end_trigger`` cannot be amended:
the deck was built for it at creation.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from matchledger.ledger.errors import ExclusiveParameters, IllegalMove, MalformedInput, UnexpectedSetup

from ..commands import CreateMatch
from ..options import OptionSpec, parse_bool
from ..state import MatchState
from ..turns import TurnsGame
from . import announcements, notation, views
from .deck import deck_from_seed, parse_deck_text, parse_seed
from .explain import explain
from .scoring import DEFAULT_ROW_POINTS, parse_row_points
from .state import PhotoState
from .table import deal
from .turn import resolve, validate

if TYPE_CHECKING:  # only named in annotations: a sampler is not loaded with the game
    import random

    from matchledger.engine.sample import Sample


def parse_end_trigger(text: str) -> str:
    value = str(text).strip().lower()
    if value not in ("deck_empty", "sunset"):
        raise ValueError(f"expected deck_empty or sunset, got {text!r}")
    return value


class PhotographerGame(TurnsGame):
    name: ClassVar[str] = "photographer"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int | None] = 4
    STATE_TYPE = PhotoState
    views: ClassVar[ModuleType] = views
    announcement_shapes: ClassVar[ModuleType] = announcements  # the types of what it announces
    OPTIONS: ClassVar[dict[str, OptionSpec]] = {
        "wind_required": OptionSpec("wind_required", True, parse_bool, "P4: a turn must wind one card"),
        "row_points": OptionSpec(
            "row_points", dict(DEFAULT_ROW_POINTS), parse_row_points, "P8: points by film-row length 1..7"
        ),
        "end_trigger": OptionSpec(
            "end_trigger",
            "deck_empty",
            parse_end_trigger,
            "deck_empty or sunset",
            fixed_because="the deck was built for it at creation",
        ),
        "hand_scored": OptionSpec(
            "hand_scored", False, parse_bool, "the host enters the results as announced (none computed)"
        ),
    }

    # ------------------------------------------------------------------ creation

    def seed_to_draw(self, setup: dict[str, Any]) -> str | None:
        """P2: given neither a seed nor a deck, the deck comes from a seed drawn for it
        (secret, with 64 bits: a seed someone can guess would show them every card)."""
        return None if {"seed", "deck"} & set(setup) else "seed"

    def build_setup(self, cmd: CreateMatch, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """P2: exactly one of {"seed": N} or {"deck": <deck file text>}; the stored setup
        always holds the explicit deck order, top card first."""
        setup = dict(cmd.setup or {})
        unknown = sorted(set(setup) - {"seed", "deck"})
        if unknown:
            raise UnexpectedSetup(self.name, unknown, ["seed", "deck"])
        n = len(cmd.players)
        trigger = options["end_trigger"]
        if "seed" in setup and "deck" in setup:
            raise ExclusiveParameters("seed", "deck", game=self.name)
        if "seed" in setup:
            seed = parse_seed(setup["seed"])
            return list(cmd.players), {"seed": seed, "deck": deck_from_seed(seed, n, trigger)}
        if "deck" in setup:
            return list(cmd.players), {"deck": parse_deck_text(setup["deck"], n, trigger)}
        raise MalformedInput("photographer needs a seed or a deck (the deck order is fixed at creation, P2)")

    def setup_command(self, setup: dict[str, Any]) -> dict[str, Any]:
        """A recorded set-up always holds the deck: made from its seed when it has one
        (the deck must be the seed's), else given as a deck file's lines."""
        if "seed" in setup:
            return {key: value for key, value in setup.items() if key != "deck"}
        deck = setup.get("deck")
        if isinstance(deck, list) and all(isinstance(card, str) for card in deck):
            return {**setup, "deck": "\n".join(deck) + "\n"}
        return dict(setup)

    def init_game(self, state: MatchState) -> PhotoState:
        return deal(state.players, list(state.setup["deck"]))  # P3

    # ------------------------------------------------------------------ turns

    def parse_move(self, state: MatchState, participant: str, turn: int, tokens: list[str]) -> notation.Move:
        g = state.g
        current = g.current
        if participant != current:  # P1: seat order
            what = "wind and shoot (end phase)" if g.phase == "end" else "play"
            raise IllegalMove(f"it is {current}'s turn to {what} (turn {state.round}), not {participant}'s")
        move = notation.parse(tokens, end_phase=g.phase == "end")
        # options_for(turn) copies every option; with no amendment it is the options themselves.
        options = state.options_for(turn) if state.amendments else state.options
        validate(g, participant, move, options["wind_required"])
        return move

    def move_tokens(self, move: notation.Move) -> list[str]:
        return move.tokens()

    def fork(self, g: PhotoState, participant: str) -> PhotoState:
        return g.fork(participant)

    def resolve_move(self, g: PhotoState, turn: int, participant: str, move: notation.Move) -> tuple[dict, dict]:
        return resolve(g, turn, participant, move)

    def game_over(self, g: PhotoState) -> bool:
        return g.phase == "finished"

    # ------------------------------------------------------------------ read models

    def explain(self, state: MatchState, participant: str) -> dict:
        return explain(state, participant)

    def choices(self, state: MatchState, participant: str) -> dict:
        from .choices import choices  # only the service and its tests ask

        return choices(self, state, participant)

    def sample(self, rng: random.Random, match_id: str = "m1", **knobs) -> Sample:
        """A random legal match of this game (knobs: :func:`.sample.sample`'s)."""
        from .sample import sample  # not loaded with the game: only tests and the benchmark play samples

        return sample(rng, match_id, **knobs)


GAME = PhotographerGame()
