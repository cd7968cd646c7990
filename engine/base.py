"""Shared machinery of the round-based games: match state, options, views, and the
generic half of ``decide``/``apply`` (contracts, submissions, amendments, voids,
corrections, notes).  A game subclasses :class:`BaseGame` and fills in the hooks.

Purity: nothing here reads a clock, a file or a random source.  ``apply`` mutates and
returns the state it is given (the fold owns that state); ``decide`` never mutates.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from matchledger.ledger.errors import IllegalMove, MalformedInput
from matchledger.ledger.events import (
    ANNOUNCEMENTS,
    ContractRecorded,
    Event,
    MatchCreated,
    NoteAdded,
    OutcomeAnnounced,
    RoundClosed,
    RoundReopened,
    RuleAmended,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
    TurnResolved,
)

from .commands import (
    AddNote,
    Amend,
    CloseRound,
    Correct,
    CreateMatch,
    RecordContract,
    RecordOutcome,
    Submit,
    Void,
)

# --------------------------------------------------------------------------- views


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
        return self.participant if self.kind == "participant" else self.kind


HOST = View("host")
PUBLIC = View("public")


def as_participant(name: str) -> View:
    return View("participant", name)


# --------------------------------------------------------------------------- options


def parse_bool(text: str) -> bool:
    lowered = str(text).strip().lower()
    if lowered in ("true", "yes", "1", "on"):
        return True
    if lowered in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def parse_int(text: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise ValueError(f"expected a whole number, got {text!r}") from None


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    parse: Callable[[str], Any]
    help: str = ""
    # The last round whose resolution reads this option (None: any round may).  An
    # amendment taking effect after it could change nothing, so it is refused.
    last_round_used: int | None = None
    # Why the option can never be amended (None: it can), e.g. it shaped the set-up.
    fixed_because: str | None = None


# --------------------------------------------------------------------------- state


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
    last_seq: int = 0
    g: Any = None  # the game's own derived state

    @property
    def finished(self) -> bool:
        return self.outcome is not None

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
        for submission in reversed(self.submissions.get(round_no, {}).get(participant, [])):
            if submission.seq not in self.voided:
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

    def require_participant(self, name: str, flag: str | None = None) -> str:
        """The one participant check: ``name`` itself when it is a participant of this
        match.  ``flag``: the option that named it, for the message (``--as``)."""
        if name in self.participants:
            return name
        listing = ", ".join(self.participants)
        if flag is not None:
            raise MalformedInput(f"{flag} {name!r}: not a participant of {self.match_id!r} (participants: {listing})")
        raise IllegalMove(f"{name!r} is not a participant of {self.match_id!r} (participants: {listing})")

    def submission_at(self, seq: int) -> Submission | None:
        for by_participant in self.submissions.values():
            for history in by_participant.values():
                for submission in history:
                    if submission.seq == seq:
                        return submission
        return None


# --------------------------------------------------------------------------- the game


class BaseGame:
    """A round-based game: participants submit, the host closes each round.

    Hooks a game fills in (all pure):
      - ``OPTIONS``, ``ROUNDS``, ``CONTRACTS_ALLOWED``
      - ``build_setup(cmd) -> (participants, setup_json)``
      - ``init_game(state) -> game state`` (``state.g``)
      - ``parse_submission(state, participant, round_no, tokens) -> normalized tokens``
      - ``parse_contract(state, participant, names) -> normalized names``
      - ``check_can_close(state)`` (raise IllegalMove if a round may not close yet)
      - ``resolve_round(state, round_no) -> result``; ``store_round(state, round_no, result)``
      - ``announce_round(state, round_no, result) -> (public, private)``
      - ``final_outcome(state) -> (outcome, public_outcome)``
      - read models: ``status``, ``scores``, ``outcome``, ``reveals``, ``knowledge``
    """

    name: ClassVar[str] = ""
    ROUNDS: ClassVar[int] = 3
    OPTIONS: ClassVar[dict[str, OptionSpec]] = {}
    ROUND_WORD: ClassVar[str] = "round"  # what --from-round counts
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int | None] = None
    #: A module with the read models as functions ``status(state, view)``, ``scores``,
    #: ``outcome``, ``reveals`` and ``knowledge(state, participant)``, or None when the
    #: game overrides the methods below itself.
    views: ClassVar[Any] = None
    #: The type of ``state.g`` with every field annotated exactly (msgspec-decodable), so
    #: that a state snapshot can be decoded back into an equal state; None: no snapshots.
    STATE_TYPE: ClassVar[type | None] = None

    # ---- creation

    def parse_options(self, raw: dict[str, str]) -> dict[str, Any]:
        options = {name: copy.deepcopy(spec.default) for name, spec in self.OPTIONS.items()}
        for key, text in raw.items():
            options[key] = self.parse_option(key, text)
        return options

    def parse_option(self, key: str, text: str) -> Any:
        spec = self.OPTIONS.get(key)
        if spec is None:
            known = ", ".join(sorted(self.OPTIONS)) or "none"
            raise MalformedInput(f"unknown option {key!r} for {self.name} (options: {known})")
        try:
            return spec.parse(text)
        except ValueError as exc:
            raise MalformedInput(f"option {key}={text!r}: {exc}") from None

    def check_players(self, players: list[str]) -> None:
        if len(players) < self.MIN_PLAYERS:
            raise MalformedInput(f"{self.name} needs at least {self.MIN_PLAYERS} players, got {len(players)}")
        if self.MAX_PLAYERS is not None and len(players) > self.MAX_PLAYERS:
            raise MalformedInput(f"{self.name} takes at most {self.MAX_PLAYERS} players, got {len(players)}")
        seen = set()
        for name in players:
            if not name or not name.replace("-", "").replace("_", "").replace(".", "").isalnum():
                raise MalformedInput(f"bad participant name {name!r} (letters, digits, - _ . only)")
            if name in seen:
                raise MalformedInput(f"participant {name!r} is listed twice")
            seen.add(name)

    def create(self, cmd: CreateMatch) -> list[Event]:
        self.check_players(cmd.players)
        options = self.parse_options(cmd.options)
        _participants, setup = self.build_setup(cmd, options)
        return [MatchCreated(game=self.name, players=list(cmd.players), options=options, setup=setup)]

    def build_setup(self, cmd: CreateMatch, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        if cmd.setup:
            raise MalformedInput(f"{self.name} takes no {', '.join('--' + k for k in cmd.setup)}")
        return list(cmd.players), {}

    def initial(self, match_id: str, created: MatchCreated) -> MatchState:
        participants, _ = self.participants_from(created)
        state = MatchState(
            match_id=match_id,
            game=created.game,
            players=list(created.players),
            participants=participants,
            options=dict(created.options),
            setup=created.setup,
        )
        state.g = self.init_game(state)
        return state

    def participants_from(self, created: MatchCreated) -> tuple[list[str], None]:
        return list(created.players), None

    def init_game(self, state: MatchState) -> Any:
        return None

    # ---- decide

    def decide(self, state: MatchState, cmd) -> list[Event]:
        if isinstance(cmd, Submit):
            return self.decide_submit(state, cmd)
        if isinstance(cmd, CloseRound):
            return self.decide_close(state, cmd)
        if isinstance(cmd, RecordOutcome):
            return self.decide_record_outcome(state, cmd)
        if isinstance(cmd, RecordContract):
            return self.decide_contract(state, cmd)
        if isinstance(cmd, Amend):
            return self.decide_amend(state, cmd)
        if isinstance(cmd, Void):
            return self.decide_void(state, cmd)
        if isinstance(cmd, Correct):
            return self.decide_correct(state, cmd)
        if isinstance(cmd, AddNote):
            if not cmd.text.strip():
                raise MalformedInput("a note needs some text")
            return [NoteAdded(text=cmd.text)]
        raise MalformedInput(f"{self.name} does not understand {type(cmd).__name__}")

    def require_open(self, state: MatchState) -> None:
        if state.finished or state.round > self.ROUNDS:
            raise IllegalMove(f"match {state.match_id!r} is finished; nothing more can be recorded")

    def decide_submit(self, state: MatchState, cmd: Submit) -> list[Event]:
        self.require_open(state)
        state.require_participant(cmd.participant)
        tokens = self.parse_submission(state, cmd.participant, state.round, list(cmd.tokens))
        return [SubmissionRecorded(participant=cmd.participant, round=state.round, tokens=tokens)]

    def decide_contract(self, state: MatchState, cmd: RecordContract) -> list[Event]:
        self.require_open(state)
        if cmd.participant not in state.players:
            raise IllegalMove(f"{cmd.participant!r} is not a player of {state.match_id!r}; only players hold contracts")
        if state.round > 1:
            raise IllegalMove(f"contracts are recorded before Round 1 closes; round 1 of {state.match_id!r} is closed")
        names = self.parse_contract(state, cmd.participant, list(cmd.names))
        return [ContractRecorded(participant=cmd.participant, contracts=names)]

    def decide_amend(self, state: MatchState, cmd: Amend) -> list[Event]:
        self.require_open(state)
        value = self.parse_option(cmd.option, cmd.value)
        spec = self.OPTIONS[cmd.option]
        unit = self.ROUND_WORD
        if spec.fixed_because is not None:
            raise IllegalMove(f"{cmd.option} cannot be amended: {spec.fixed_because}")
        if cmd.from_round < state.round:
            raise IllegalMove(
                f"--from-round {cmd.from_round}: {unit} {cmd.from_round} is already over; amendments take "
                f"effect from the open {unit} ({state.round}) on"
            )
        if cmd.from_round > self.ROUNDS:
            raise MalformedInput(f"--from-round {cmd.from_round}: {self.name} has {self.ROUNDS} rounds")
        if spec.last_round_used is not None and cmd.from_round > spec.last_round_used:
            raise IllegalMove(
                f"{cmd.option} is only read when {unit} {spec.last_round_used} closes; an amendment from "
                f"{unit} {cmd.from_round} would change nothing"
            )
        if not cmd.reason.strip():
            raise MalformedInput("an amendment needs a --reason")
        return [RuleAmended(option=cmd.option, value=value, from_round=cmd.from_round, reason=cmd.reason)]

    def _correctable(self, state: MatchState, seq: int, verb: str, reopen: bool, reason: str) -> tuple[Submission, list[Event]]:
        """The submission at ``seq`` if it may be corrected now, and the events that must
        precede the correction (a RoundReopened when it belongs to the last closed round)."""
        target = state.submission_at(seq)
        if target is None:
            raise IllegalMove(f"event {seq} of {state.match_id!r} is not a submission; only submissions can be {verb}")
        if target.seq in state.voided:
            raise IllegalMove(f"submission {seq} is already voided or corrected")
        if target.round == state.round and not state.finished:
            return target, []
        last_closed = state.round - 1
        if target.round != last_closed:
            raise IllegalMove(
                f"submission {seq} belongs to round {target.round}; only the open round "
                f"({state.round if state.round <= self.ROUNDS else 'none'}) or, with --reopen, the last closed "
                f"round ({last_closed}) can be corrected"
            )
        if not reopen:
            raise IllegalMove(
                f"submission {seq} belongs to round {target.round}, which is closed; add --reopen to supersede "
                f"that round's announcements (the round must then be closed again)"
            )
        return target, [RoundReopened(round=target.round, reason=reason)]

    def results_due(self, state: MatchState) -> bool:
        """Whether play is over, so that final results may be recorded."""
        return state.round > self.ROUNDS

    def decide_record_outcome(self, state: MatchState, cmd: RecordOutcome) -> list[Event]:
        if not self.results_due(state):
            raise IllegalMove(f"{state.match_id!r} is still being played; results come after its last round or turn")
        if state.outcome is not None:
            raise IllegalMove(f"the outcome of {state.match_id!r} is already recorded")
        if not isinstance(cmd.announced, dict) or "standings" not in cmd.announced:
            raise MalformedInput("an announced outcome is a JSON object in the shape of `outcome --json` (with 'standings')")
        return [OutcomeAnnounced(outcome=cmd.announced, public={}, source="host")]

    def decide_void(self, state: MatchState, cmd: Void) -> list[Event]:
        if not cmd.reason.strip():
            raise MalformedInput("a void needs a --reason")
        _target, before = self._correctable(state, cmd.seq, "voided", cmd.reopen, cmd.reason)
        return before + [SubmissionVoided(target_seq=cmd.seq, reason=cmd.reason)]

    def decide_correct(self, state: MatchState, cmd: Correct) -> list[Event]:
        if not cmd.reason.strip():
            raise MalformedInput("a correction needs a --reason")
        target, before = self._correctable(state, cmd.seq, "corrected", cmd.reopen, cmd.reason)
        if before:  # validate against the match as it will stand once the round is reopened
            state = copy.deepcopy(state)
            for event in before:
                self.apply(state, state.last_seq + 1, event)
        tokens = self.parse_submission(state, target.participant, target.round, list(cmd.tokens), replacing=target.seq)
        return before + [SubmissionCorrected(target_seq=cmd.seq, tokens=tokens, reason=cmd.reason)]

    def decide_close(self, state: MatchState, cmd: CloseRound) -> list[Event]:
        self.require_open(state)
        self.check_can_close(state)
        round_no = state.round
        result = self.resolve_round(state, round_no)
        public, private = self.announce_round(state, round_no, result)
        source = "computed"
        if cmd.announced is not None:
            public = cmd.announced.get("public", {})
            private = cmd.announced.get("private", {})
            source = "host"
        events: list[Event] = [RoundClosed(round=round_no, public=public, private=private, source=source)]
        # A hand-scored match records its results with `outcome --announced`; the
        # computed outcome is never written in their place.
        if round_no == self.ROUNDS and source == "computed":
            after = copy.deepcopy(state)
            self.apply(after, state.last_seq + 1, events[0])
            outcome, public_outcome = self.final_outcome(after)
            events.append(OutcomeAnnounced(outcome=outcome, public=public_outcome))
        return events

    # ---- apply

    def apply(self, state: MatchState, seq: int, event: Event) -> MatchState:
        state.last_seq = seq
        if isinstance(event, SubmissionRecorded):
            state.submissions.setdefault(event.round, {}).setdefault(event.participant, []).append(
                Submission(seq, event.participant, event.round, list(event.tokens))
            )
        elif isinstance(event, RoundClosed):
            self._store_close(state, event, self.resolve_round(state, event.round))
        elif isinstance(event, OutcomeAnnounced):
            state.outcome = event
        elif isinstance(event, ContractRecorded):
            state.contracts[event.participant] = list(event.contracts)
        elif isinstance(event, RuleAmended):
            state.amendments.append(event)
        elif isinstance(event, SubmissionVoided):
            state.voided.add(event.target_seq)
            state.corrections.append((seq, event))
        elif isinstance(event, SubmissionCorrected):
            target = state.submission_at(event.target_seq)
            state.voided.add(event.target_seq)
            if target is not None:
                state.submissions[target.round][target.participant].append(
                    Submission(seq, target.participant, target.round, list(event.tokens))
                )
            state.corrections.append((seq, event))
        elif isinstance(event, RoundReopened):
            old = state.announcements.pop(event.round, None)
            if old is not None:
                state.superseded.append(old)
            state.round = event.round
            state.outcome = None
            self.unstore_round(state, event.round)
            state.corrections.append((seq, event))
        elif isinstance(event, NoteAdded):
            state.notes.append((seq, event.text))
        else:
            self.apply_other(state, seq, event)
        return state

    def _store_close(self, state: MatchState, event: RoundClosed, result: Any) -> None:
        state.announcements[event.round] = event
        self.store_round(state, event.round, result)
        state.round = event.round + 1

    def apply_and_rederive(self, state: MatchState, seq: int, event: Event) -> Event | None:
        """``apply``, also returning what ``rederive`` gives for an announcement event
        (None for any other): verify's single pass resolves each round once."""
        if isinstance(event, RoundClosed) and event.round == state.round:
            self.require_open(state)
            self.check_can_close(state)
            result = self.resolve_round(state, event.round)
            public, private = self.announce_round(state, event.round, result)
            state.last_seq = seq
            self._store_close(state, event, result)
            return RoundClosed(round=event.round, public=public, private=private)
        expected = self.rederive(state, event) if isinstance(event, ANNOUNCEMENTS) else None
        self.apply(state, seq, event)
        return expected

    def apply_other(self, state: MatchState, seq: int, event: Event) -> None:
        raise MalformedInput(f"{self.name} cannot apply {type(event).__name__}")

    # ---- hooks with defaults

    def parse_submission(
        self, state: MatchState, participant: str, round_no: int, tokens: list[str], replacing: int | None = None
    ) -> list[str]:
        raise NotImplementedError

    def parse_contract(self, state: MatchState, participant: str, names: list[str]) -> list[str]:
        raise IllegalMove(f"{self.name} has no contracts")

    def check_can_close(self, state: MatchState) -> None:
        return None

    def resolve_round(self, state: MatchState, round_no: int) -> Any:
        raise NotImplementedError

    def store_round(self, state: MatchState, round_no: int, result: Any) -> None:
        raise NotImplementedError

    def unstore_round(self, state: MatchState, round_no: int) -> None:
        """Forget what closing ``round_no`` stored; by default rebuild the game state
        from the rounds still closed (a game may do it more cheaply)."""
        state.g = self.init_game(state)
        for earlier in sorted(r for r in state.announcements if r < round_no):
            self.store_round(state, earlier, self.resolve_round(state, earlier))

    def announce_round(self, state: MatchState, round_no: int, result: Any) -> tuple[dict, dict]:
        raise NotImplementedError

    def rederive(self, state_before: MatchState, event: Event) -> Event | None:
        """What the engine itself would have recorded in place of the announcement
        ``event``, given the state just before it (verify compares the two)."""
        if isinstance(event, RoundClosed):
            # Only the round's announcement is compared: skip the outcome that
            # decide_close computes (and deep-copies the state for) on the last round.
            self.require_open(state_before)
            self.check_can_close(state_before)
            round_no = state_before.round
            public, private = self.announce_round(state_before, round_no, self.resolve_round(state_before, round_no))
            return RoundClosed(round=round_no, public=public, private=private)
        if isinstance(event, OutcomeAnnounced):
            outcome, public = self.final_outcome(state_before)
            return OutcomeAnnounced(outcome=outcome, public=public)
        return None

    def final_outcome(self, state: MatchState) -> tuple[dict, dict]:
        # A views module may offer both at once (``final_outcome(state)``), sharing the
        # scoring that the two views have in common.
        both = getattr(self.views, "final_outcome", None)
        if both is not None:
            return both(state)
        return self.outcome(state, HOST), self.outcome(state, PUBLIC)

    # ---- read models (JSON-ready dicts)

    def status(self, state: MatchState, view: View) -> dict:
        return self.views.status(state, view)

    def scores(self, state: MatchState, view: View) -> dict:
        return self.views.scores(state, view)

    def outcome(self, state: MatchState, view: View) -> dict:
        return self.views.outcome(state, view)

    def reveals(self, state: MatchState, view: View) -> dict:
        return self.views.reveals(state, view)

    def knowledge(self, state: MatchState, participant: str) -> dict:
        return self.views.knowledge(state, participant)
