"""Games of sequential turns, each resolved as soon as it is submitted (photographer).

There is no round to close: a ``submit`` by the participant whose turn it is records the
submission, then ``TurnResolved`` with what the turn announced publicly and privately,
and, when the game ends, the outcome.  ``state.round`` is the number of the next turn.

Resolving a turn has one path, :meth:`TurnsGame.resolve_move`, applied to a game state
in place: ``decide`` applies it to a fork (the state it is given stays as it is) and
hands the fork to the fold as the decision's work; the fold given no work (a replay)
applies it to the state itself, from the recorded submission; verify's single pass
folds the turn and compares what it announced with the record.  A game fills in the
hooks below.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from matchledger.ledger.errors import CorruptLog, IllegalMove, MatchledgerError
from matchledger.ledger.events import Event, OutcomeAnnounced, SubmissionRecorded, TurnResolved

from .commands import CloseRound, Correct, RecordContract, Submit, Void
from .game import Decision, Game, applies, decides, rederives
from .state import MatchState


class Played(NamedTuple):
    """A turn resolved on a fork of the game state: the fork, and the announcements."""

    game_state: Any
    public: dict
    private: dict


class TurnsGame(Game):
    """Hooks (all pure): ``parse_move(state, participant, turn, tokens)`` -> a move (it
    checks that it is the participant's turn and that the move is legal now),
    ``move_tokens(move)`` (the normalized tokens recorded), ``fork(g, participant)`` (a
    copy of ``state.g`` that resolving that participant's turn on leaves the original of
    untouched), ``resolve_move(g, turn, participant, move)`` -> (public, private),
    ``game_over(g)``; ``init_game``; the read models.  The game state keeps ``turns``,
    the engine's own record of every turn (what the read models show)."""

    ROUND_WORD = "turn"

    # ------------------------------------------------------------------ hooks

    def parse_move(self, state: MatchState, participant: str, turn: int, tokens: list[str]) -> Any:
        raise NotImplementedError

    def move_tokens(self, move: Any) -> list[str]:
        raise NotImplementedError

    def fork(self, g: Any, participant: str) -> Any:
        raise NotImplementedError

    def resolve_move(self, g: Any, turn: int, participant: str, move: Any) -> tuple[dict, dict]:
        raise NotImplementedError

    def game_over(self, g: Any) -> bool:
        raise NotImplementedError

    # ------------------------------------------------------------------ the turn

    def play_is_over(self, state: MatchState) -> bool:
        return self.game_over(state.g)

    def play(self, state: MatchState, turn: int, participant: str, move: Any) -> Played:
        """``move`` resolved on a fork of the game state (``state`` stays as it is)."""
        g = self.fork(state.g, participant)
        public, private = self.resolve_move(g, turn, participant, move)
        return Played(g, public, private)

    def _record_turn(self, state: MatchState, event: TurnResolved, public: dict, private: dict) -> None:
        record = {"turn": event.turn, "participant": event.participant, "public": public, "private": {event.participant: private}}
        state.g.turns.append(record)
        state.turns.append(event)
        state.round = event.turn + 1

    # ------------------------------------------------------------------ deciding

    @decides(Submit)
    def decide_submit(self, state: MatchState, cmd: Submit) -> Decision:
        self.require_open(state)
        state.require_participant(cmd.participant)
        turn = state.round
        move = self.parse_move(state, cmd.participant, turn, list(cmd.tokens))
        played = self.play(state, turn, cmd.participant, move)
        events: list[Event] = [
            SubmissionRecorded(participant=cmd.participant, round=turn, tokens=self.move_tokens(move)),
            TurnResolved(turn=turn, participant=cmd.participant, public=played.public, private={cmd.participant: played.private}),
        ]
        work: list[Any] = [None, played]
        if self.game_over(played.game_state) and not state.options.get("hand_scored", False):
            outcome, public = self.final_outcome(dataclasses.replace(state, g=played.game_state, round=turn + 1))
            events.append(OutcomeAnnounced(outcome=outcome, public=public))
            work.append(None)
        return Decision(events, work)

    @decides(CloseRound)
    def decide_close(self, state: MatchState, cmd: CloseRound) -> list[Event]:
        raise IllegalMove(f"{self.name} has no close: a turn is resolved as soon as it is submitted")

    @decides(RecordContract)
    def decide_contract(self, state: MatchState, cmd: RecordContract) -> list[Event]:
        raise IllegalMove(f"{self.name} has no contracts")

    @decides(Void)
    def decide_void(self, state: MatchState, cmd: Void) -> list[Event]:
        raise IllegalMove(self._no_undo(state, cmd.seq, "voided"))

    @decides(Correct)
    def decide_correct(self, state: MatchState, cmd: Correct) -> list[Event]:
        raise IllegalMove(self._no_undo(state, cmd.seq, "corrected"))

    def _no_undo(self, state: MatchState, seq: int, verb: str) -> str:
        if state.submission_at(seq) is None:
            return f"event {seq} of {state.match_id!r} is not a submission; only submissions can be {verb}"
        return f"submission {seq} is a resolved {self.name} turn; a resolved turn cannot be {verb}"

    # ------------------------------------------------------------------ folding

    @applies(TurnResolved)
    def _apply_turn(self, state: MatchState, seq: int, event: TurnResolved, work: Played | None) -> None:
        if work is not None:
            state.g = work.game_state
            self._record_turn(state, event, work.public, work.private)
            return
        submission = state.current_submission(event.turn, event.participant)
        if event.turn != state.round or submission is None:
            raise CorruptLog(
                f"seq {seq}: TurnResolved for turn {event.turn} by {event.participant!r} does not follow "
                f"that turn's submission (next turn is {state.round})"
            )
        try:
            move = self.parse_move(state, event.participant, event.turn, submission.tokens)
        except MatchledgerError as exc:
            raise CorruptLog(f"seq {seq}: the recorded turn {event.turn} is not legal: {exc}") from None
        public, private = self.resolve_move(state.g, event.turn, event.participant, move)
        self._record_turn(state, event, public, private)

    @rederives(TurnResolved)
    def _rederive_turn(self, state: MatchState, seq: int, event: TurnResolved) -> Event:
        # folding a turn resolves it: what it announced is what the engine records
        self.apply(state, seq, event)
        turn = state.g.turns[-1]
        return TurnResolved(turn=turn["turn"], participant=turn["participant"], public=turn["public"], private=turn["private"])
