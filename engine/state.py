"""A match as the fold leaves it, and who is looking at it.

:class:`MatchState` is what every game shares: players, options and amendments, the
submissions of every round or turn, corrections, announcements, notes, and ``g``, the
game's own derived state.  The fold owns it and mutates it event by event; ``decide``
only reads it.  A :class:`View` says who is looking: the host (everything), the public,
or one participant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matchledger.ledger.errors import UnknownParticipant, UnknownViewer
from matchledger.ledger.events import (
    OutcomeAnnounced,
    RoundClosed,
    RoundReopened,
    RuleAmended,
    SubmissionCorrected,
    SubmissionVoided,
    TurnResolved,
)


@dataclass(frozen=True)
class View:
    """Who is looking: the host (everything), the public, or one participant."""

    kind: str  # "host" | "public" | "participant"
    participant: str | None = None

    @property
    def is_host(self) -> bool:
        return self.kind == "host"

    @property
    def is_public(self) -> bool:
        return self.kind == "public"

    def label(self) -> str:
        return self.participant if self.kind == "participant" and self.participant is not None else self.kind


HOST = View("host")
PUBLIC = View("public")


def as_participant(name: str) -> View:
    return View("participant", name)


@dataclass
class Submission:
    seq: int
    participant: str
    round: int
    tokens: list[str]


@dataclass
class MatchState:
    match_id: str
    game: str
    players: list[str]
    participants: list[str]
    options: dict[str, Any]
    setup: dict[str, Any]
    amendments: list[RuleAmended] = field(default_factory=list)
    round: int = 1  # the round now open; rounds + 1 once every round is closed
    submissions: dict[int, dict[str, list[Submission]]] = field(default_factory=dict)
    voided: set[int] = field(default_factory=set)
    contracts: dict[str, list[str]] = field(default_factory=dict)
    announcements: dict[int, RoundClosed] = field(default_factory=dict)
    superseded: list[RoundClosed] = field(default_factory=list)  # reopened rounds' old reveals
    turns: list[TurnResolved] = field(default_factory=list)
    outcome: OutcomeAnnounced | None = None
    corrections: list[tuple[int, SubmissionVoided | SubmissionCorrected | RoundReopened]] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)
    #: the seq of each player's contract record now in force
    contract_seqs: dict[str, int] = field(default_factory=dict)
    #: seq of a resubmission or a later contract record -> seq of the record it superseded
    supersedes: dict[int, int] = field(default_factory=dict)
    #: (seq, reason) of the event that abandoned the match, once it is abandoned
    abandoned: tuple[int, str] | None = None
    #: round (or turn) -> its deadline in force (UTC text), as the log set it
    deadlines: dict[int, str] = field(default_factory=dict)
    #: seconds after which each round opened from now on gets its deadline (0: none)
    deadline_each: int = 0
    #: seconds before each deadline at which a reminder is posted (0: none)
    deadline_remind: int = 0
    last_seq: int = 0
    g: Any = None  # the game's own derived state

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def deadline(self) -> str | None:
        """The open round's (or turn's) deadline, if it has one."""
        return self.deadlines.get(self.round)

    def options_for(self, round_no: int) -> dict[str, Any]:
        """The ruleset in force for ``round_no``: creation options plus amendments
        that take effect at or before it, in log order."""
        result = dict(self.options)
        for amendment in self.amendments:
            if amendment.from_round <= round_no:
                result[amendment.option] = amendment.value
        return result

    def current_submission(self, round_no: int, participant: str) -> Submission | None:
        """The latest submission of ``participant`` for ``round_no`` that is not voided."""
        by_participant = self.submissions.get(round_no)
        listed = by_participant.get(participant) if by_participant else None
        if listed:
            voided = self.voided
            for submission in reversed(listed):
                if submission.seq not in voided:
                    return submission
        return None

    def round_submissions(self, round_no: int) -> dict[str, Submission]:
        """Every participant's counting submission for ``round_no``, in participant order."""
        result = {}
        for participant in self.participants:
            submission = self.current_submission(round_no, participant)
            if submission is not None:
                result[participant] = submission
        return result

    def require_participant(self, name: str | None, parameter: str | None = None) -> str:
        """The one participant check: ``name`` itself when it is a participant of this
        match.  ``parameter``: the one that named it to choose a view (``as``), which
        makes a name that is none bad input rather than a rules error."""
        if name in self.participants:
            return name
        if parameter is not None:
            raise UnknownViewer(self.match_id, name, self.participants, parameter)
        raise UnknownParticipant(self.match_id, name, self.participants)

    def canonical(self, names) -> list[str]:
        """``names`` in the order every list shown to anyone uses: players, then the
        other participants (pw's guests), each sorted by name; an order that tells
        nothing the rules do not (not the listed order of guests, which follows pairs)."""
        chosen = set(names)
        players = sorted(p for p in self.players if p in chosen)
        others = sorted(p for p in self.participants if p in chosen and p not in self.players)
        return players + others

    def submission_at(self, seq: int) -> Submission | None:
        for by_participant in self.submissions.values():
            for history in by_participant.values():
                for submission in history:
                    if submission.seq == seq:
                        return submission
        return None
