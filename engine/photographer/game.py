"""Фотограф / Wind the Film! as a matchledger game (turn-based: no ``close``).

Event flow: each ``submit`` appends ``SubmissionRecorded(participant, round=<turn from
1>, tokens)`` then ``TurnResolved(turn, participant, public, private)`` and, when the
game ends, ``OutcomeAnnounced``.  **Applying ``TurnResolved`` resolves the turn**: the
engine re-plays the recorded submission's tokens against its own state (the announced
``public``/``private`` are kept for the record and compared by ``rederive`` on verify,
never trusted).  ``SubmissionRecorded`` alone only records the tokens.

``state.round`` is the number of the next turn (end-phase turns included, P7).
Amendments (``wind_required``, ``row_points``) take effect from a turn number on;
scoring uses the options in force at the game's last turn.  ``end_trigger`` cannot be
amended: the deck was built for it at creation.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from matchledger.engine.base import PUBLIC, BaseGame, MatchState, OptionSpec, View, parse_bool
from matchledger.engine.commands import CloseRound, Correct, CreateMatch, Submit, Void
from matchledger.ledger.errors import CorruptLog, IllegalMove, MalformedInput, MatchledgerError
from matchledger.ledger.events import Event, OutcomeAnnounced, SubmissionRecorded, TurnResolved

from . import notation, views
from .deck import deck_from_seed, parse_deck_text, parse_seed
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


class PhotographerGame(BaseGame):
    name: ClassVar[str] = "photographer"
    ROUNDS: ClassVar[int] = 10**6  # turn-based: turns are numbered, their count is open
    ROUND_WORD = "turn"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int | None] = 4
    STATE_TYPE = PhotoState
    OPTIONS: ClassVar[dict[str, OptionSpec]] = {
        "wind_required": OptionSpec("wind_required", True, parse_bool, "P4: a turn must wind one card"),
        "row_points": OptionSpec(
            "row_points", dict(DEFAULT_ROW_POINTS), parse_row_points, "P8: points by film-row length 1..7"
        ),
        "end_trigger": OptionSpec(
            "end_trigger", "deck_empty", parse_end_trigger, "deck_empty or sunset",
            fixed_because="the deck was built for it at creation",
        ),
        "hand_scored": OptionSpec(
            "hand_scored", False, parse_bool, "the host enters the results with `outcome --announced` (none computed)"
        ),
    }

    # ------------------------------------------------------------------ creation

    def build_setup(self, cmd: CreateMatch, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """P2: exactly one of {"seed": N} or {"deck": <deck file text>}; the stored setup
        always holds the explicit deck order, top card first."""
        setup = dict(cmd.setup or {})
        unknown = sorted(set(setup) - {"seed", "deck"})
        if unknown:
            raise MalformedInput(f"photographer takes --seed N or --deck FILE, not {', '.join(repr(k) for k in unknown)}")
        n = len(cmd.players)
        trigger = options["end_trigger"]
        if "seed" in setup and "deck" in setup:
            raise MalformedInput("give either --seed or --deck, not both")
        if "seed" in setup:
            seed = parse_seed(setup["seed"])
            return list(cmd.players), {"seed": seed, "deck": deck_from_seed(seed, n, trigger)}
        if "deck" in setup:
            return list(cmd.players), {"deck": parse_deck_text(setup["deck"], n, trigger)}
        raise MalformedInput("photographer needs --seed N or --deck FILE (the deck order is fixed at creation, P2)")

    def init_game(self, state: MatchState) -> PhotoState:
        return deal(state.players, list(state.setup["deck"]))  # P3

    # ------------------------------------------------------------------ decide

    def require_open(self, state: MatchState) -> None:
        if state.finished or state.g.phase == "finished":
            raise IllegalMove(f"match {state.match_id!r} is finished; nothing more can be recorded")

    def decide_contract(self, state: MatchState, cmd) -> list[Event]:
        raise IllegalMove("photographer has no contracts")

    def decide_close(self, state: MatchState, cmd: CloseRound) -> list[Event]:
        raise IllegalMove("photographer has no close: a turn is resolved as soon as it is submitted")

    def decide_void(self, state: MatchState, cmd: Void) -> list[Event]:
        raise IllegalMove(self._no_undo(state, cmd.seq, "voided"))

    def decide_correct(self, state: MatchState, cmd: Correct) -> list[Event]:
        raise IllegalMove(self._no_undo(state, cmd.seq, "corrected"))

    def _no_undo(self, state: MatchState, seq: int, verb: str) -> str:
        if state.submission_at(seq) is None:
            return f"event {seq} of {state.match_id!r} is not a submission; only submissions can be {verb}"
        return f"submission {seq} is a resolved photographer turn; a resolved turn cannot be {verb}"

    def results_due(self, state: MatchState) -> bool:
        return state.g.phase == "finished"

    def _check_turn(self, state: MatchState, participant: str) -> None:
        current = state.g.current
        if participant != current:
            what = "wind and shoot (end phase)" if state.g.phase == "end" else "play"
            raise IllegalMove(f"it is {current}'s turn to {what} (turn {state.round}), not {participant}'s")

    def _move(self, state: MatchState, participant: str, turn: int, tokens: list[str]) -> notation.Move:
        g = state.g
        self._check_turn(state, participant)  # P1: seat order
        move = notation.parse(tokens, end_phase=g.phase == "end")
        # options_for(turn) copies every option; with no amendment it is the options themselves.
        options = state.options_for(turn) if state.amendments else state.options
        validate(g, participant, move, options["wind_required"])
        return move

    def _resolve(self, state: MatchState, turn: int, participant: str, move) -> tuple[PhotoState, TurnResolved]:
        g = state.g.fork(participant)  # a copy of all the turn changes; state.g stays as it is
        public, private = resolve(g, turn, participant, move)
        return g, TurnResolved(turn=turn, participant=participant, public=public, private={participant: private})

    def decide_submit(self, state: MatchState, cmd: Submit) -> list[Event]:
        self.require_open(state)
        state.require_participant(cmd.participant)
        turn = state.round
        move = self._move(state, cmd.participant, turn, list(cmd.tokens))
        events: list[Event] = [SubmissionRecorded(participant=cmd.participant, round=turn, tokens=move.tokens())]
        g_after, resolved = self._resolve(state, turn, cmd.participant, move)
        events.append(resolved)
        if g_after.phase == "finished" and not state.options.get("hand_scored", False):
            after = dataclasses.replace(state, g=g_after, round=turn + 1)
            outcome, public = self.final_outcome(after)
            events.append(OutcomeAnnounced(outcome=outcome, public=public))
        return events

    # ------------------------------------------------------------------ apply

    def resolve_round(self, state: MatchState, round_no: int) -> Any:
        raise CorruptLog(f"photographer has no rounds to close (a RoundClosed for round {round_no} in the log)")

    def apply(self, state: MatchState, seq: int, event: Event) -> MatchState:
        # Half the events of a match are turns: they skip BaseGame.apply's tests for the
        # event kinds of round-based games (it would come to apply_other all the same).
        if type(event) is TurnResolved:
            state.last_seq = seq
            self.apply_other(state, seq, event)
            return state
        return super().apply(state, seq, event)

    def apply_other(self, state: MatchState, seq: int, event: Event) -> None:
        if not isinstance(event, TurnResolved):
            raise CorruptLog(f"photographer cannot apply {type(event).__name__} (seq {seq})")
        submission = state.current_submission(event.turn, event.participant)
        if event.turn != state.round or submission is None:
            raise CorruptLog(
                f"seq {seq}: TurnResolved for turn {event.turn} by {event.participant!r} does not follow "
                f"that turn's submission (next turn is {state.round})"
            )
        try:
            move = self._move(state, event.participant, event.turn, submission.tokens)
        except MatchledgerError as exc:
            raise CorruptLog(f"seq {seq}: the recorded turn {event.turn} is not legal: {exc}") from None
        public, private = resolve(state.g, event.turn, event.participant, move)
        state.g.turns.append(
            {"turn": event.turn, "participant": event.participant, "public": public, "private": {event.participant: private}}
        )
        state.turns.append(event)
        state.round = event.turn + 1

    def apply_and_rederive(self, state: MatchState, seq: int, event: Event) -> Event | None:
        if isinstance(event, TurnResolved):
            # applying a turn resolves it: what it announced is what rederive would give
            self.apply(state, seq, event)
            turn = state.g.turns[-1]
            return TurnResolved(
                turn=turn["turn"], participant=turn["participant"], public=turn["public"], private=turn["private"]
            )
        return super().apply_and_rederive(state, seq, event)

    def rederive(self, state_before: MatchState, event: Event) -> Event | None:
        if isinstance(event, TurnResolved):
            submission = state_before.current_submission(event.turn, event.participant)
            if submission is None or event.turn != state_before.round:
                return None  # replay itself reports the broken log
            move = self._move(state_before, event.participant, event.turn, submission.tokens)
            return self._resolve(state_before, event.turn, event.participant, move)[1]
        if isinstance(event, OutcomeAnnounced):
            outcome, public = self.final_outcome(state_before)
            return OutcomeAnnounced(outcome=outcome, public=public)
        return None

    # ------------------------------------------------------------------ read models

    def _scoring_options(self, state: MatchState) -> dict:
        g = state.g
        turn = state.round - 1 if g.phase == "finished" else state.round
        return state.options_for(max(turn, 1))

    def status(self, state: MatchState, view: View) -> dict:
        g = state.g
        viewer = view.participant if view.kind == "participant" else None
        data = views.common_view(state, g, view.is_host, viewer)
        if view.is_host:
            data["hands"] = {p: list(g.hands[p]) for p in g.players}
            data["deck_order"] = list(g.deck)
        elif viewer is not None:
            data["hand"] = list(g.hands[viewer])
        return data

    def scores(self, state: MatchState, view: View) -> dict:
        # Every component (face-up row lengths, blurred count, missing colours, successful
        # shots) is public, so provisional points are the same in every view.
        g = state.g
        return {
            "match": state.match_id,
            "game": state.game,
            "finished": g.phase == "finished",
            "scores": views.score_rows(g, self._scoring_options(state)["row_points"]),
        }

    def outcome(self, state: MatchState, view: View) -> dict:
        # The same in every view: every component of the points is public.
        return self._outcome(state, self._standings(state))

    def _standings(self, state: MatchState) -> list[dict]:
        g = state.g
        return views.final_standings(g, self._scoring_options(state)["row_points"]) if g.phase == "finished" else []

    def _outcome(self, state: MatchState, standings: list[dict]) -> dict:
        return {
            "match": state.match_id,
            "game": state.game,
            "finished": state.g.phase == "finished",
            "standings": standings,
            "awards": [],
        }

    def final_outcome(self, state: MatchState) -> tuple[dict, dict]:
        # outcome(state, HOST), outcome(state, PUBLIC): the same standings, scored once;
        # the public copy shares no object with the host's.
        standings = self._standings(state)
        copy = [dict(row, scores=dict(row["scores"])) for row in standings]
        return self._outcome(state, standings), self._outcome(state, copy)

    def reveals(self, state: MatchState, view: View) -> dict:
        g = state.g
        turns = []
        for record in g.turns:
            entry = {"turn": record["turn"], "participant": record["participant"], "public": record["public"]}
            if view.is_host:
                entry["private"] = record["private"]
            elif view.kind == "participant" and record["participant"] == view.participant:
                entry["private"] = record["private"][view.participant]
            turns.append(entry)
        return {
            "match": state.match_id,
            "game": state.game,
            "turns": turns,
            "outcome": self.outcome(state, PUBLIC) if g.phase == "finished" else None,
        }

    def knowledge(self, state: MatchState, participant: str) -> dict:
        state.require_participant(participant)
        g = state.g
        data = views.common_view(state, g, host=False, viewer=participant)
        data["participant"] = participant
        data["hand"] = list(g.hands[participant])
        turns = []
        for record in g.turns:
            entry = {"turn": record["turn"], "participant": record["participant"], "public": record["public"]}
            if record["participant"] == participant:
                submission = state.current_submission(record["turn"], participant)
                entry["tokens"] = list(submission.tokens) if submission else []
                entry["private"] = record["private"][participant]
            turns.append(entry)
        data["turns"] = turns
        data["outcome"] = self.outcome(state, PUBLIC)
        return data

    def render(self, model: str, data: dict, view: View) -> str | None:
        from .render import render

        return render(model, data, view)

    def explain(self, state: MatchState, participant: str) -> dict:
        from .explain import explain

        return explain(state, participant, self._scoring_options(state)["row_points"])

    def sample(self, rng: random.Random, match_id: str = "m1", **knobs) -> Sample:
        """A random legal match of this game (knobs: :func:`.sample.sample`'s)."""
        from .sample import sample

        return sample(rng, match_id, **knobs)
