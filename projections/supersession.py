"""The one account of what became of each event that no longer counts, read from the
replayed state: a submission superseded by a later one of the same participant for the
same round, voided or corrected; a contract record superseded by a later one; a
round's close (and the outcome after it) superseded by reopening that round; a
photographer turn (and the outcome it ended the match with) taken back by voiding its
submission.  `log` marks its rows with it, `audit` lists it, the void's report and the
participant's page tell it: it is never stored, so it always says what the log says.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from matchledger import engine
from matchledger.engine.state import MatchState, Submission, View
from matchledger.ledger.events import SubmissionCorrected, SubmissionVoided

#: How a submission stopped counting, by the kind of the event that stopped it.
_UNDONE = {SubmissionVoided: "voided", SubmissionCorrected: "corrected"}

#: The kinds of the events whose order tells which announcement a reopening or a turn
#: taken back undid; everyone is shown every one of them that does (a photographer
#: void is public: projections.views), so the account of any view can be read from the
#: events that view is shown.
ANNOUNCEMENT_KINDS = frozenset({"RoundClosed", "TurnResolved", "OutcomeAnnounced", "RoundReopened", "SubmissionVoided"})


class Fate(NamedTuple):
    """How an event stopped counting (``superseded``, ``voided``, ``corrected``,
    ``reopened``, ``taken_back``) and the seq of the event that did it."""

    how: str
    by: int

    @property
    def key(self) -> str:
        """Its field in `log --json`: ``superseded_by``, ``voided_by``, ``corrected_by``,
        ``reopened_by``, ``taken_back_by``."""
        return f"{self.how}_by"

    def describe(self) -> str:
        return f"{self.how.replace('_', ' ')} by {self.by}"


class VoidEffect(NamedTuple):
    """What a void did besides voiding its target: the earlier submission of the same
    participant and round that counts again in its place (None: none does), and the
    announcements it took back (a photographer turn, and the outcome it had ended the
    match with)."""

    target: Submission
    counts_again: int | None
    takes_back: list[tuple[int, str]]  # (seq, kind)

    def describe(self) -> str:
        """What the void did besides voiding, for its report ("" when nothing)."""
        parts = []
        if self.counts_again is not None:
            parts.append(f"{self.target.participant}'s submission {self.counts_again} counts again")
        if self.takes_back:
            parts.append("takes back " + ", ".join(f"seq {seq} ({kind})" for seq, kind in self.takes_back))
        return "; ".join(parts)


def fates(state: MatchState, view: View, kinds: Iterable[tuple[int, str]] = ()) -> dict[int, Fate]:
    """The fate of every event ``view`` may see (seq -> Fate) that no longer counts.

    Submissions and contract records: all of them for the host, a participant's own
    for that participant (each marked by an event they are shown too), none for the
    public.  A submission whose later resubmission was voided counts again, and so has
    none; following the marks from any submission leads to the one that counts.

    Announcements (``kinds``: (seq, kind) of the events shown, in log order, as many as
    hold those of ``ANNOUNCEMENT_KINDS``): a close superseded by reopening its round, a
    turn taken back, and an outcome undone by either, for every view: everyone is shown
    those events and the ones that undid them."""
    result: dict[int, Fate] = {}
    if not view.is_public:
        result.update(_submission_fates(state, view))
        result.update(_contract_fates(state, view))
    result.update(_announcement_fates(state, kinds))
    return dict(sorted(result.items()))


def void_effect(state: MatchState, void_seq: int, kinds: Iterable[tuple[int, str]] = ()) -> VoidEffect | None:
    """What the void at ``void_seq`` did (None when that seq is no void the match holds):
    read from the same account, as the log stood just before it and right after it."""
    event = next((e for seq, e in state.corrections if seq == void_seq), None)
    if not isinstance(event, SubmissionVoided):
        return None
    target = state.submission_at(event.target_seq)
    if target is None:
        return None
    undone = _undone(state)
    history = state.submissions.get(target.round, {}).get(target.participant, [])
    before = _fates_of(history, undone, upto=void_seq - 1)
    after = _fates_of(history, undone, upto=void_seq)
    again = [seq for seq, fate in before.items() if fate == Fate("superseded", target.seq) and seq not in after]
    kinds = list(kinds)
    kind_of = dict(kinds)
    taken = [(seq, kind_of[seq]) for seq, fate in _announcement_fates(state, kinds).items() if fate.by == void_seq]
    return VoidEffect(target, again[0] if again else None, taken)


def _undone(state: MatchState) -> dict[int, Fate]:
    return {
        event.target_seq: Fate(_UNDONE[type(event)], seq)
        for seq, event in state.corrections
        if isinstance(event, (SubmissionVoided, SubmissionCorrected))  # _UNDONE's kinds
    }


def _submission_fates(state: MatchState, view: View) -> dict[int, Fate]:
    undone = _undone(state)
    result: dict[int, Fate] = {}
    for by_participant in state.submissions.values():
        for participant, history in by_participant.items():
            if view.is_host or participant == view.participant:
                result.update(_fates_of(history, undone))
    return result


def _fates_of(history: list[Submission], undone: dict[int, Fate], upto: int | None = None) -> dict[int, Fate]:
    """One participant's submissions for one round, in log order, as the log stood at
    ``upto`` (None: as it stands): each voided or corrected one by that event, any
    other by the next one that replaced it (a later submission not taken back: one
    voided is skipped, as if never made; one corrected stays in the chain, marked with
    its correction)."""
    if upto is not None:
        history = [s for s in history if s.seq <= upto]
        undone = {seq: fate for seq, fate in undone.items() if fate.by <= upto}
    result = {}
    later: int | None = None  # the next submission not voided, walking back from the last
    for submission in reversed(history):
        fate = undone.get(submission.seq)
        if fate is None and later is not None:
            fate = Fate("superseded", later)
        if fate is not None:
            result[submission.seq] = fate
        if getattr(undone.get(submission.seq), "how", None) != "voided":
            later = submission.seq
    return result


def _contract_fates(state: MatchState, view: View) -> dict[int, Fate]:
    """Each contract record that a later one of the same player replaced."""
    result = {}
    for participant, seq in state.contract_seqs.items():
        if not (view.is_host or participant == view.participant):
            continue
        while seq in state.supersedes:
            earlier = state.supersedes[seq]
            result[earlier] = Fate("superseded", seq)
            seq = earlier
    return result


def _announcement_fates(state: MatchState, kinds: Iterable[tuple[int, str]]) -> dict[int, Fate]:
    """Closes and turns in force form a stack: reopening a round undoes the last close
    in force, voiding a photographer submission takes back the last turn (only the last
    can be: engine.turns), and either undoes the outcome in force."""
    turns = engine.get(state.game).ROUND_WORD == "turn"
    result: dict[int, Fate] = {}
    in_force: list[int] = []
    outcome: int | None = None
    for seq, kind in kinds:
        if seq > state.last_seq:
            break
        if kind in ("RoundClosed", "TurnResolved"):
            in_force.append(seq)
        elif kind == "OutcomeAnnounced":
            outcome = seq
        elif (kind == "RoundReopened" or (turns and kind == "SubmissionVoided")) and in_force:
            how = "reopened" if kind == "RoundReopened" else "taken_back"
            result[in_force.pop()] = Fate(how, seq)
            if outcome is not None:
                result[outcome] = Fate(how, seq)
                outcome = None
    return result
