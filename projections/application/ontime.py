"""Closing on time (issue 28, part 3): what a door with a clock does once a deadline it
saw in :meth:`Application.due` has passed.

The door reads the time and hands it in; nothing here reads a clock.  Whatever the door
saw is decided again under the match's write lock, against the log as it then stands
(``Writes.execute_when``): the round whose deadline passed must still be the open one,
its deadline still the one in force, and set since the round last opened.  So two
processes racing one deadline close the round once, a close decided on a stale reading
never closes the round after it, and a round the host reopened after its deadline is
left to the host (its old deadline passed before it opened again).
"""

from __future__ import annotations

import msgspec

from matchledger.engine.commands import CloseRound
from matchledger.engine.rounds import RoundsGame
from matchledger.engine.state import MatchState
from matchledger.ledger.errors import CorruptLog, GameNotInstalled, MalformedInput, VerificationFailed
from matchledger.ledger.events import DeadlineSet, RoundClosed, RoundReopened, TurnResolved
from matchledger.ledger.hooks import DEADLINE, REMINDER

from ..deadlines import before, is_past
from .results import Recorded
from .wiring import Wiring, game_of

#: Who records a close made at a deadline (the envelope's actor), and the reason a forced
#: one gives: the deadline itself, not a host.
DEADLINE_ACTOR = "deadline"
DEADLINE_REASON = "deadline"


class Notice(msgspec.Struct, frozen=True):
    """A deadline the host is told of (a hook's ``deadline`` or ``reminder`` post): the
    open ``round`` of ``match`` and its deadline ``at``, set by the event ``seq`` (what
    the post is claimed by: one post per deadline and kind, whichever process sends it)."""

    match: str
    game: str
    kind: str
    seq: int
    round: int
    round_word: str
    at: str


class Upcoming(msgspec.Struct, frozen=True):
    """An open round whose reminder time has come and whose deadline has not passed."""

    match: str
    round: int
    deadline: str


class OnTime:
    """Closes and notices at deadlines (each method's contract is written on the
    facade, ``Application``)."""

    def __init__(self, wiring: Wiring, writes):
        self._wiring = wiring
        self._writes = writes

    def close_when_due(self, match_id: str, now: str, round_no: int, deadline: str) -> Recorded | None:
        def command_for(state: MatchState) -> CloseRound | None:
            if not self._still_due(match_id, state, now, round_no, deadline):
                return None
            game = game_of(state)
            if not isinstance(game, RoundsGame):
                return None  # a turn ends when it is played, never by a close
            missing = game.waiting_for(state)
            if missing and game.ALL_MUST_SUBMIT is not None:
                return None  # everyone must submit (ALL_MUST_SUBMIT): the host decides, told by a notice
            # Everyone in: a plain close; else as `close --force` does, naming who was missing.
            return CloseRound(force=True, reason=DEADLINE_REASON) if missing else CloseRound()

        return self._writes.execute_when(match_id, command_for, actor=DEADLINE_ACTOR, now=now)

    def reminders_due(self, now: str) -> list[Upcoming]:
        # As ``due``: from each match's kept state, so a door may ask it every few seconds.
        found = []
        reader = self._wiring.reader
        for match_id in self._wiring.store.match_ids():
            try:
                state = reader.cursor(match_id).state
            except (VerificationFailed, CorruptLog, GameNotInstalled):
                continue  # nothing is posted of a log no one can vouch for
            deadline = state.deadline()
            if (
                deadline is None
                or not state.deadline_remind
                or state.finished
                or state.abandoned is not None
                or game_of(state).play_is_over(state)
                or is_past(deadline, now)
                or not is_past(before(deadline, state.deadline_remind), now)
            ):
                continue
            found.append(Upcoming(match_id, state.round, deadline))
        return found

    def deadline_notice(self, match_id: str, kind: str, round_no: int, deadline: str) -> Notice | None:
        if kind not in (DEADLINE, REMINDER):
            raise MalformedInput(f"{kind!r} is no notice of a deadline: {DEADLINE} or {REMINDER}")
        state = self._wiring.reader.cursor(match_id).state
        if state.round != round_no or state.deadline() != deadline:
            return None
        seq = self._set_since_opened(match_id, round_no)
        if seq is None:
            return None
        return Notice(match_id, state.game, kind, seq, round_no, game_of(state).ROUND_WORD, deadline)

    # ------------------------------------------------------------------ internals

    def _still_due(self, match_id: str, state: MatchState, now: str, round_no: int, deadline: str) -> bool:
        """Whether ``deadline`` of round ``round_no``, seen passed at ``now``, is still
        what the match stands at: the same round open, the same deadline in force and
        passed, play not over, and the deadline set since the round last opened."""
        return (
            state.round == round_no
            and state.deadline() == deadline
            and is_past(deadline, now)
            and not state.finished
            and state.abandoned is None
            and not game_of(state).play_is_over(state)
            and self._set_since_opened(match_id, round_no) is not None
        )

    def _set_since_opened(self, match_id: str, round_no: int) -> int | None:
        """The seq of the event that set the open round's deadline in force, where it was
        set after the round last opened (else None: the round was reopened after the
        deadline its first opening had, and only the host closes it now)."""
        events = self._wiring.reader.checked(match_id)[1]
        set_at, opened = None, 0
        for seq, event in events:
            if type(event) is DeadlineSet and event.round == round_no and event.at is not msgspec.UNSET:
                set_at = seq
            elif (type(event) is RoundReopened and event.round == round_no) or (
                type(event) in (RoundClosed, TurnResolved) and _number(event) == round_no - 1
            ):
                opened = seq
        return set_at if set_at is not None and set_at > opened else None


def _number(event: RoundClosed | TurnResolved) -> int:
    return event.round if isinstance(event, RoundClosed) else event.turn
