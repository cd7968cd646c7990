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

The last resolved turn can be taken back (``void`` of its submission): the deck is
recorded, so the fold deals again and resolves the turns that still count, and the match
stands exactly as if that turn had never been played.  An earlier turn cannot be taken
back: every later turn was played on the table it left.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from matchledger.ledger.errors import (
    CorruptLog,
    IllegalMove,
    MatchledgerError,
    MissingReason,
    NoRoundsToReopen,
    NoRoundToReopenForVoid,
    TurnNotCorrectable,
)
from matchledger.ledger.events import Event, OutcomeAnnounced, SubmissionRecorded, SubmissionVoided, TurnResolved

from .commands import CloseRound, Correct, RecordContract, Reopen, Submit, Void
from .game import CHECKED, Decision, Game, applies, decides, rederives
from .state import MatchState, Submission


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
    WAITING_IS_PUBLIC = True  # whose turn it is: everyone sees it

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

    def waiting_for(self, state: MatchState) -> list[str]:
        """The player whose turn it is."""
        if state.abandoned is not None or self.play_is_over(state):
            return []
        return [state.g.current]

    def way_back(self, state: MatchState) -> dict[str, Any]:
        last = self.last_turn_submission(state)
        return {"turns": True, "last_turn_seq": None if last is None else last.seq}

    def last_turn_submission(self, state: MatchState) -> Submission | None:
        """The submission of the last resolved turn (None before the first)."""
        if not state.turns:
            return None
        last = state.turns[-1]
        return state.current_submission(last.turn, last.participant)

    def play(self, state: MatchState, turn: int, participant: str, move: Any) -> Played:
        """``move`` resolved on a fork of the game state (``state`` stays as it is)."""
        g = self.fork(state.g, participant)
        public, private = self.resolve_move(g, turn, participant, move)
        return Played(g, public, private)

    def _record_turn(self, state: MatchState, event: TurnResolved, public: dict, private: dict) -> None:
        record = {
            "turn": event.turn,
            "participant": event.participant,
            "public": public,
            "private": {event.participant: private},
        }
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
            TurnResolved(
                turn=turn, participant=cmd.participant, public=played.public, private={cmd.participant: played.private}
            ),
        ]
        work: list[Any] = [None, played]
        if self.game_over(played.game_state) and not state.options.get("hand_scored", False):
            outcome, public = self.final_outcome(dataclasses.replace(state, g=played.game_state, round=turn + 1))
            events.append(OutcomeAnnounced(outcome=outcome, public=public))
            work.append(CHECKED)
        return Decision(events, work)

    @decides(CloseRound)
    def decide_close(self, state: MatchState, cmd: CloseRound) -> list[Event]:
        raise IllegalMove(f"{self.name} has no close: a turn is resolved as soon as it is submitted")

    @decides(Reopen)
    def decide_reopen(self, state: MatchState, cmd: Reopen) -> list[Event]:
        raise NoRoundsToReopen(self.name, state.match_id)

    @decides(RecordContract)
    def decide_contract(self, state: MatchState, cmd: RecordContract) -> list[Event]:
        raise IllegalMove(f"{self.name} has no contracts")

    @decides(Void)
    def decide_void(self, state: MatchState, cmd: Void) -> list[Event]:
        """Take back the last turn: voiding its submission."""
        if not cmd.reason.strip():
            raise MissingReason("taking back a turn", kept=True)
        if cmd.reopen:
            raise NoRoundToReopenForVoid(self.name)
        target = self.submission_to_undo(state, cmd.seq, "voided")
        last = self.last_turn_submission(state)
        if target.seq in state.voided:
            raise IllegalMove(f"submission {cmd.seq} (turn {target.round}) is already taken back")
        # a submission that still counts is a resolved turn's: there is a last turn
        assert last is not None
        if target.seq != last.seq:
            raise IllegalMove(
                f"submission {cmd.seq} is turn {target.round}; only the last turn can be taken back; "
                f"turn {last.round} at seq {last.seq} is the last"
            )
        return [SubmissionVoided(target_seq=cmd.seq, reason=cmd.reason)]

    @decides(Correct)
    def decide_correct(self, state: MatchState, cmd: Correct) -> list[Event]:
        target = self.submission_to_undo(state, cmd.seq, "corrected")
        raise TurnNotCorrectable(self.name, state.match_id, cmd.seq, target.round)

    # ------------------------------------------------------------------ folding

    @applies(TurnResolved)
    def _apply_turn(self, state: MatchState, seq: int, event: TurnResolved, work: Played | None) -> None:
        if work is not None:
            state.g = work.game_state
            self._record_turn(state, event, work.public, work.private)
            return
        self._resolve_recorded(state, seq, event)

    @applies(SubmissionVoided)
    def _apply_take_back(self, state: MatchState, seq: int, event: SubmissionVoided, work) -> None:
        """The last turn taken back: deal again and resolve every turn before it."""
        last = self.last_turn_submission(state)
        if last is None or last.seq != event.target_seq:
            raise CorruptLog(
                f"seq {seq}: SubmissionVoided of seq {event.target_seq}, which is not the last turn's submission"
            )
        state.voided.add(event.target_seq)
        state.corrections.append((seq, event))
        kept = state.turns[:-1]
        state.outcome = None
        state.g = self.init_game(state)
        state.turns = []
        state.round = 1
        for turn in kept:
            self._resolve_recorded(state, seq, turn)

    def _resolve_recorded(self, state: MatchState, seq: int, event: TurnResolved) -> None:
        """Resolve the recorded turn ``event`` (at ``seq``) from its submission."""
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
        return TurnResolved(
            turn=turn["turn"], participant=turn["participant"], public=turn["public"], private=turn["private"]
        )
