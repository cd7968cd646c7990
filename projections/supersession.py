"""What became of each submission, read from the replayed state: superseded by a later
submission of the same participant for the same round, voided, or corrected.  `log`
marks its rows with it; it is never stored, so it always says what the log says."""

from __future__ import annotations

from typing import NamedTuple

from matchledger.engine.state import MatchState, Submission, View
from matchledger.ledger.events import SubmissionCorrected, SubmissionVoided

#: How a submission stopped counting, by the kind of the event that stopped it.
_UNDONE = {SubmissionVoided: "voided", SubmissionCorrected: "corrected"}


class Fate(NamedTuple):
    """How a submission stopped counting (``superseded``, ``voided``, ``corrected``) and
    the seq of the event that did it."""

    how: str
    by: int

    @property
    def key(self) -> str:
        """Its field in `log --json`: ``superseded_by``, ``voided_by``, ``corrected_by``."""
        return f"{self.how}_by"

    def describe(self) -> str:
        return f"{self.how} by {self.by}"


def fates(state: MatchState, view: View) -> dict[int, Fate]:
    """The fate of every submission ``view`` may see (seq -> Fate): all of them for the
    host, a participant's own for that participant (each marked by an event they are
    shown too), none for the public.  A submission that still counts has none; one whose
    later resubmission was voided counts again, and so has none either; following the
    marks from any submission leads to the one that counts."""
    if view.is_public:
        return {}
    undone = {
        event.target_seq: Fate(_UNDONE[type(event)], seq)
        for seq, event in state.corrections
        if type(event) in _UNDONE
    }
    result: dict[int, Fate] = {}
    for by_participant in state.submissions.values():
        for participant, history in by_participant.items():
            if view.is_host or participant == view.participant:
                result.update(_fates_of(history, undone, state.voided))
    return result


def _fates_of(history: list[Submission], undone: dict[int, Fate], voided: set[int]) -> dict[int, Fate]:
    """One participant's submissions for one round, in log order: each voided or
    corrected one by that event, any other by the next one that replaced it (a later
    submission not taken back: one voided is skipped, as if never made; one corrected
    stays in the chain, marked with its correction)."""
    result = {}
    for index, submission in enumerate(history):
        fate = undone.get(submission.seq)
        if fate is None:
            later = next((s.seq for s in history[index + 1 :] if not _taken_back(s.seq, undone, voided)), None)
            fate = Fate("superseded", later) if later is not None else None
        if fate is not None:
            result[submission.seq] = fate
    return result


def _taken_back(seq: int, undone: dict[int, Fate], voided: set[int]) -> bool:
    return seq in voided and getattr(undone.get(seq), "how", None) != "corrected"
