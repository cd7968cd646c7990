"""Games of simultaneous rounds that the host closes (lca, pw).

Every participant submits for the open round (a later submission supersedes an earlier
one); the host closes the round, which resolves it and records what is announced.  A
submission of the open round, or with ``--reopen`` of the last closed round, can be
voided or corrected; reopening supersedes that round's announcements until it is closed
again.

Closing a round has one path, :meth:`RoundsGame.closing`: ``decide`` records what it
announces and hands its resolution to the fold as the decision's work; the fold given
no work (a replay) resolves the round itself; verify's single pass resolves and
announces it once and compares.  A game fills in the hooks below.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, NamedTuple

import msgspec

from matchledger.ledger.errors import (
    EveryoneMustSubmit,
    IllegalMove,
    MalformedInput,
    MissingReason,
    NothingToForce,
    OutOfReach,
    ReopenBlocked,
    RevivalRefused,
    RoundNeedsReopening,
    SubmissionsMissing,
)
from matchledger.ledger.events import (
    ContractRecorded,
    Event,
    OutcomeAnnounced,
    RoundClosed,
    RoundReopened,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
)
from matchledger.ledger.limits import ANNOUNCED_FILE_MAX_BYTES
from matchledger.ledger.validation import check_json

from .commands import CloseRound, Correct, RecordContract, Reopen, Submit, Void
from .game import CHECKED, Decision, Game, applies, decides, rederives
from .state import MatchState, Submission


class Closing(NamedTuple):
    """What closing the open round gives: its resolution and what it announces."""

    round: int
    result: Any
    public: dict
    private: dict


class RoundsGame(Game):
    """Hooks (all pure): ``ROUNDS``; ``parse_submission``, ``parse_contract``,
    ``check_can_close``; ``resolve_round`` -> result, ``announce_round`` -> (public,
    private), ``store_round``/``unstore_round`` (the result into ``state.g`` and out),
    ``fork_game_state`` (a copy of ``state.g`` that storing a round leaves the original
    of untouched); ``init_game``; the read models."""

    ROUNDS: ClassVar[int] = 3
    #: The ruling by which a round closes only once every participant has submitted
    #: (pw: W5); None: the host may close it without some, with ``close --force``.
    ALL_MUST_SUBMIT: ClassVar[str | None] = None
    #: What a missing submission means when the host closes the round anyway.
    WITHOUT_SUBMISSION: ClassVar[str] = "a participant with no submission takes no part in the round"

    # ------------------------------------------------------------------ hooks

    def parse_submission(
        self, state: MatchState, participant: str, round_no: int, tokens: list[str], replacing: int | None = None
    ) -> list[str]:
        raise NotImplementedError

    def parse_contract(self, state: MatchState, participant: str, names: list[str]) -> list[str]:
        raise IllegalMove(f"{self.name} has no contracts")

    def check_can_close(self, state: MatchState) -> None:
        """Refuse to close the open round (decided or replayed) where the rules forbid it."""
        if self.ALL_MUST_SUBMIT is not None:
            missing = self.waiting_for(state)
            if missing:
                raise IllegalMove(
                    f"{self.ALL_MUST_SUBMIT}: round {state.round} of {state.match_id!r} cannot close; "
                    f"no submission from {', '.join(missing)}"
                )

    def resolve_round(self, state: MatchState, round_no: int) -> Any:
        raise NotImplementedError

    def announce_round(self, state: MatchState, round_no: int, result: Any) -> tuple[dict, dict]:
        raise NotImplementedError

    def store_round(self, state: MatchState, round_no: int, result: Any) -> None:
        raise NotImplementedError

    def unstore_round(self, state: MatchState, round_no: int) -> None:
        """Forget what closing ``round_no`` stored; by default rebuild the game state
        from the rounds still closed (a game may do it more cheaply)."""
        state.g = self.init_game(state)
        for earlier in sorted(r for r in state.announcements if r < round_no):
            self.store_round(state, earlier, self.resolve_round(state, earlier))

    def fork_game_state(self, g: Any) -> Any:
        return copy.deepcopy(g)

    # ------------------------------------------------------------------ the round

    def play_is_over(self, state: MatchState) -> bool:
        return state.round > self.ROUNDS

    def last_round(self) -> int:
        return self.ROUNDS

    def waiting_for(self, state: MatchState) -> list[str]:
        """The participants with no counting submission in the open round."""
        if state.finished or state.abandoned is not None or self.play_is_over(state):
            return []
        return state.canonical(p for p in state.participants if state.current_submission(state.round, p) is None)

    def way_back(self, state: MatchState) -> dict[str, Any]:
        return {"reopenable_round": state.round - 1}

    def closing(self, state: MatchState) -> Closing:
        """Close the open round (without changing ``state``): the one path every close
        takes, whether decided, folded or re-derived."""
        self.require_open(state)
        self.check_can_close(state)
        round_no = state.round
        result = self.resolve_round(state, round_no)
        public, private = self.announce_round(state, round_no, result)
        return Closing(round_no, result, public, private)

    def _store_close(self, state: MatchState, event: RoundClosed, result: Any) -> None:
        state.announcements[event.round] = event
        self.store_round(state, event.round, result)
        state.round = event.round + 1

    def _after_close(self, state: MatchState, event: RoundClosed, result: Any) -> MatchState:
        """The match as it stands once ``event`` closes the round with ``result``,
        ``state`` itself untouched (storing a round changes only these parts)."""
        after = copy.copy(state)
        after.announcements = dict(state.announcements)
        after.g = self.fork_game_state(state.g)
        after.last_seq = state.last_seq + 1
        self._store_close(after, event, result)
        return after

    # ------------------------------------------------------------------ deciding

    @decides(Submit)
    def decide_submit(self, state: MatchState, cmd: Submit) -> list[Event]:
        self.require_open(state)
        state.require_participant(cmd.participant)
        tokens = self.parse_submission(state, cmd.participant, state.round, list(cmd.tokens))
        return [SubmissionRecorded(participant=cmd.participant, round=state.round, tokens=tokens)]

    @decides(RecordContract)
    def decide_contract(self, state: MatchState, cmd: RecordContract) -> list[Event]:
        self.require_open(state)
        if cmd.participant not in state.players:
            raise IllegalMove(f"{cmd.participant!r} is not a player of {state.match_id!r}; only players hold contracts")
        if state.round > 1:
            raise IllegalMove(f"contracts are recorded before Round 1 closes; round 1 of {state.match_id!r} is closed")
        names = self.parse_contract(state, cmd.participant, list(cmd.names))
        return [ContractRecorded(participant=cmd.participant, contracts=names)]

    def check_missing(self, state: MatchState, cmd: CloseRound) -> list[str]:
        """Who has not submitted, when the host may close the round all the same:
        nobody (a plain close), or by force and with a reason where the rules let a
        missing submission count as none.  Refused otherwise, naming them."""
        missing = self.waiting_for(state)
        if cmd.force and not cmd.reason.strip():
            raise MissingReason("a forced close", kept=True)
        if cmd.force and not missing:
            raise NothingToForce(state.match_id, state.round)
        if not missing:
            return []
        if self.ALL_MUST_SUBMIT is not None:
            raise EveryoneMustSubmit(self.ALL_MUST_SUBMIT, state.match_id, state.round, missing, forced=cmd.force)
        self.check_can_close(state)  # the game's own refusal comes before the host's safety net
        if not cmd.force:
            raise SubmissionsMissing(state.match_id, state.round, missing, self.WITHOUT_SUBMISSION)
        return missing

    @decides(CloseRound)
    def decide_close(self, state: MatchState, cmd: CloseRound) -> Decision:
        self.require_open(state)
        if cmd.announced is not None:
            check_json(cmd.announced, f"the announcement of round {state.round}", ANNOUNCED_FILE_MAX_BYTES)
            self.check_round_announcement(state, state.round, cmd.announced)
        missing = self.check_missing(state, cmd)
        forced: dict[str, Any] = {"reason": cmd.reason, "missing": missing} if missing else {}
        closing = self.closing(state)
        if cmd.announced is None:
            closed = RoundClosed(round=closing.round, public=closing.public, private=closing.private, **forced)
        else:
            closed = RoundClosed(
                round=closing.round,
                public=cmd.announced.get("public", {}),
                private=cmd.announced.get("private", {}),
                source="host",
                **forced,
            )
        events: list[Event] = [closed]
        # A hand-scored match records its results with `outcome --announced`; the
        # computed outcome is never written in their place.
        if closing.round == self.ROUNDS and closed.source == "computed":
            outcome, public_outcome = self.final_outcome(self._after_close(state, closed, closing.result))
            events.append(OutcomeAnnounced(outcome=outcome, public=public_outcome))
        rules: list[Event | None] = [None] * len(events)
        if closed.source != "computed":  # what the rules announce, for re-derivation to compare
            rules[0] = RoundClosed(round=closing.round, public=closing.public, private=closing.private, **forced)
        return Decision(events, [closing.result] + [CHECKED] * (len(events) - 1), rules)

    def check_round_announcement(self, state: MatchState, round_no: int, announcement: Any) -> None:
        """Refuse a round's announcement (``{"public": ..., "private": ...}``, the round's
        entry in `reveals --json`) that is not in the shape the game announces."""
        if self.announcement_shapes is not None:
            self.announcement_shapes.check_round(state, round_no, announcement)
        elif not isinstance(announcement, dict) or not all(
            isinstance(announcement.get(part, {}), dict) for part in ("public", "private")
        ):
            raise MalformedInput('an announcement is a JSON object {"public": {...}, "private": {...}}')

    def _correctable(
        self, state: MatchState, seq: int, verb: str, reopen: bool, reason: str
    ) -> tuple[Submission, list[Event]]:
        """The submission at ``seq`` if it may be corrected now, and the events that must
        precede the correction (a RoundReopened when it belongs to the last closed round)."""
        target = self.submission_to_undo(state, seq, verb)
        if target.seq in state.voided:
            raise IllegalMove(f"submission {seq} is already voided or corrected")
        if target.round == state.round and not state.finished:
            return target, []
        last_closed = state.round - 1
        if target.round != last_closed:
            open_round = state.round if state.round <= self.ROUNDS else None
            raise OutOfReach(seq, target.round, open_round, last_closed)
        if not reopen:
            raise RoundNeedsReopening(seq, target.round)
        self.check_reopenable(state)
        return target, [RoundReopened(round=target.round, reason=reason)]

    def check_reopenable(self, state: MatchState) -> None:
        """Refuse to reopen the last closed round while the open one holds submissions
        that count: they were decided on the rounds before it as they stood, and would
        be resolved on rounds changed under them (a light moved under a Round-3 action;
        a pw pair's types counted again, W4).  The host voids them first."""
        live = [
            submission
            for by_participant in state.submissions.get(state.round, {}).values()
            for submission in by_participant
            if submission.seq not in state.voided
        ]
        if not live:
            return
        live.sort(key=lambda submission: submission.seq)
        held = [(submission.seq, submission.participant) for submission in live]
        raise ReopenBlocked(state.match_id, state.round, held)

    @decides(Reopen)
    def decide_reopen(self, state: MatchState, cmd: Reopen) -> list[Event]:
        if not cmd.reason.strip():
            raise MissingReason("reopening a round", kept=True)
        if state.round == 1:
            raise IllegalMove(f"no round of {state.match_id!r} is closed yet; round 1 is open")
        self.check_reopenable(state)
        return [RoundReopened(round=state.round - 1, reason=cmd.reason)]

    @decides(Void)
    def decide_void(self, state: MatchState, cmd: Void) -> list[Event]:
        if not cmd.reason.strip():
            raise MissingReason("a void")
        target, before = self._correctable(state, cmd.seq, "voided", cmd.reopen, cmd.reason)
        events = before + [SubmissionVoided(target_seq=cmd.seq, reason=cmd.reason)]
        self.check_revived(state, target, events)
        return events

    def check_revived(self, state: MatchState, target: Submission, events: list[Event]) -> None:
        """Voiding ``target`` makes its participant's earlier submission of that round
        count again: refused unless the rules accept that submission in the match as it
        will stand, as they would a resubmission (W3: the partner may have taken its
        action type since)."""
        current = state.current_submission(target.round, target.participant)
        if current is None or current.seq != target.seq:
            return  # a submission that no longer counted: voiding it brings nothing back
        earlier = [s for s in state.submissions[target.round][target.participant] if s.seq < target.seq]
        if not any(s.seq not in state.voided for s in earlier):
            return  # nothing of theirs counts again
        try:
            if len(events) > 1:  # reopened first: judged in the match as it will then stand
                after = copy.deepcopy(state)
                for event in events:
                    self.apply(after, after.last_seq + 1, event)
                revived = after.current_submission(target.round, target.participant)
                assert revived is not None  # an earlier submission of theirs counts again (checked above)
                self.parse_submission(
                    after, revived.participant, revived.round, list(revived.tokens), replacing=revived.seq
                )
            else:
                # The open round: the void's whole effect on what counts is that one seq
                # (a copy of the match would cost more than the check), put back at once.
                state.voided.add(target.seq)
                try:
                    revived = state.current_submission(target.round, target.participant)
                    assert revived is not None  # an earlier submission of theirs counts again (checked above)
                    self.parse_submission(
                        state, revived.participant, revived.round, list(revived.tokens), replacing=revived.seq
                    )
                finally:
                    state.voided.discard(target.seq)
        except (IllegalMove, MalformedInput) as exc:
            assert revived is not None  # the refusal is of the submission that counts again
            raise RevivalRefused(target.seq, revived.participant, revived.seq, revived.tokens, exc) from None

    @decides(Correct)
    def decide_correct(self, state: MatchState, cmd: Correct) -> list[Event]:
        if not cmd.reason.strip():
            raise MissingReason("a correction")
        target, before = self._correctable(state, cmd.seq, "corrected", cmd.reopen, cmd.reason)
        if before:  # validate against the match as it will stand once the round is reopened
            state = copy.deepcopy(state)
            for event in before:
                self.apply(state, state.last_seq + 1, event)
        tokens = self.parse_submission(state, target.participant, target.round, list(cmd.tokens), replacing=target.seq)
        return before + [SubmissionCorrected(target_seq=cmd.seq, tokens=tokens, reason=cmd.reason)]

    # ------------------------------------------------------------------ folding

    @applies(RoundClosed)
    def _apply_close(self, state: MatchState, seq: int, event: RoundClosed, work: Any) -> None:
        if work is not None:  # decided: checked, and resolved, then
            self._store_close(state, event, work)
            return
        announcement = {"public": event.public, "private": event.private}
        self.check_recorded(seq, lambda: self.check_round_announcement(state, event.round, announcement))
        self._store_close(state, event, self.resolve_round(state, event.round))

    @rederives(RoundClosed)
    def _rederive_close(self, state: MatchState, seq: int, event: RoundClosed) -> Event:
        closing = self.closing(state)
        # Why the host forced a close is theirs to say; who was missing, the rules'.
        forced: dict[str, Any] = (
            {} if event.reason is msgspec.UNSET else {"reason": event.reason, "missing": self.waiting_for(state)}
        )
        if event.round == closing.round:
            state.last_seq = seq
            self._store_close(state, event, closing.result)
        else:  # the log closes another round than the open one: fold what it says
            self.apply(state, seq, event)
        return RoundClosed(round=closing.round, public=closing.public, private=closing.private, **forced)

    @applies(ContractRecorded)
    def _apply_contract(self, state: MatchState, seq: int, event: ContractRecorded, work) -> None:
        if event.participant in state.contract_seqs:
            state.supersedes[seq] = state.contract_seqs[event.participant]
        state.contracts[event.participant] = list(event.contracts)
        state.contract_seqs[event.participant] = seq

    @applies(SubmissionVoided)
    def _apply_void(self, state: MatchState, seq: int, event: SubmissionVoided, work) -> None:
        state.voided.add(event.target_seq)
        state.corrections.append((seq, event))

    @applies(SubmissionCorrected)
    def _apply_correction(self, state: MatchState, seq: int, event: SubmissionCorrected, work) -> None:
        target = state.submission_at(event.target_seq)
        state.voided.add(event.target_seq)
        if target is not None:
            state.submissions[target.round][target.participant].append(
                Submission(seq, target.participant, target.round, list(event.tokens))
            )
        state.corrections.append((seq, event))

    @applies(RoundReopened)
    def _apply_reopen(self, state: MatchState, seq: int, event: RoundReopened, work) -> None:
        old = state.announcements.pop(event.round, None)
        if old is not None:
            state.superseded.append(old)
        state.round = event.round
        state.outcome = None
        self.unstore_round(state, event.round)
        state.corrections.append((seq, event))
