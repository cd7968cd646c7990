"""The game protocol, and what every game shares whatever its kind.

A game is one object (registered by name in :mod:`matchledger.engine`) that offers::

    [created] = game.create(CreateMatch(...))      # validate a new match
    state = game.initial(match_id, created)         # the state before any move
    decision = game.decision(state, command)        # validate a command -> new events
    events = game.decide(state, command)            # the same, the events only
    game.apply(state, seq, event, work=None)        # fold one event into the state
    expected = game.apply_and_rederive(state, seq, event)   # verify's single pass
    game.status/scores/outcome/reveals(state, view) # read models, JSON-ready dicts
    game.knowledge(state, participant)              # one participant's allow-listed view
    game.explain(state, participant)                # a score line by line
    game.final_outcome(state)                       # (host outcome, public outcome)

Two kinds of game build on :class:`Game`: simultaneous rounds that the host closes
(:class:`~matchledger.engine.rounds.RoundsGame`: lca, pw) and sequential turns resolved
as each is submitted (:class:`~matchledger.engine.turns.TurnsGame`: photographer).

``decide`` raises :class:`MalformedInput` or :class:`IllegalMove` and never mutates;
``apply`` mutates and returns the state it is given (the fold owns it) and never raises
on an event ``decide`` produced.  What deciding already worked out for an event (a
closed round's resolution, a resolved turn) travels with the decision as its ``work``,
so that folding the recorded events does not work it out again; the fold given no work
(a replay) works it out itself, by the same code.  Nothing here reads a clock, a file or
a random source.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from matchledger.ledger.errors import (
    AmendmentTooLate,
    CorruptLog,
    IllegalMove,
    InvalidParameter,
    MalformedInput,
    MatchFinished,
    MatchledgerError,
    MissingReason,
    OutcomeShape,
)
from matchledger.ledger.events import (
    ContractRecorded,
    DeadlineCleared,
    DeadlineSet,
    Event,
    MatchAbandoned,
    MatchCreated,
    NoteAdded,
    OutcomeAnnounced,
    RoundClosed,
    RoundReopened,
    RuleAmended,
    StateCheckpointed,
    SubmissionCorrected,
    SubmissionRecorded,
    SubmissionVoided,
)
from matchledger.ledger.limits import ANNOUNCED_FILE_MAX_BYTES
from matchledger.ledger.validation import check_distinct_names, check_json, check_match_id, check_name

from .commands import (
    Abandon,
    AddNote,
    Amend,
    ClearDeadline,
    CloseRound,
    Correct,
    CreateMatch,
    RecordContract,
    RecordOutcome,
    Reopen,
    SetDeadline,
    Submit,
    Void,
)
from .options import OptionSpec
from .state import HOST, PUBLIC, MatchState, Submission, View

#: The work a decision hands the fold for an announcement it made itself: that it was
#: checked when decided, so the fold does not check its shape again (a replay does).
CHECKED = "checked"

#: Option defaults of these types need no copy: nothing can change them in place.
_IMMUTABLE = frozenset({bool, int, float, str, type(None)})


class Decision:
    """The events a command gives, and for each what deciding it already worked out
    (None where nothing was): the fold is handed it instead of working it out again.

    ``rules``: for each event whose content the host entered (an announcement they
    made, ``close``/``outcome --announced``), what the rules give in its place (None
    where the event is the rules' own): re-derivation compares the two."""

    __slots__ = ("events", "work", "rules")

    def __init__(self, events: list[Event], work: list[Any] | None = None, rules: list[Event | None] | None = None):
        self.events = events
        self.work = work if work is not None else [None] * len(events)
        self.rules = rules if rules is not None else [None] * len(events)


def decides(command_type: type) -> Callable:
    """Marks the method that decides commands of ``command_type``."""

    def mark(method: Any) -> Callable:  # Any: a function object takes the mark as an attribute
        method.decides = command_type
        return method

    return mark


def applies(event_type: type) -> Callable:
    """Marks the method that folds events of ``event_type`` into a state:
    ``method(self, state, seq, event, work)``."""

    def mark(method: Any) -> Callable:  # Any: a function object takes the mark as an attribute
        method.applies = event_type
        return method

    return mark


def rederives(event_type: type) -> Callable:
    """Marks the method that folds an announcement of ``event_type`` and returns what
    the engine itself would have recorded in its place: ``method(self, state, seq, event)``."""

    def mark(method: Any) -> Callable:  # Any: a function object takes the mark as an attribute
        method.rederives = event_type
        return method

    return mark


class Game:
    name: ClassVar[str] = ""
    OPTIONS: ClassVar[dict[str, OptionSpec]] = {}
    ROUND_WORD: ClassVar[str] = "round"  # what --from-round counts
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int | None] = None
    #: The type of ``state.g`` with every field annotated exactly (msgspec-decodable), so
    #: that a state snapshot can be decoded back into an equal state; None: no snapshots.
    STATE_TYPE: ClassVar[type | None] = None
    #: A module with the read models as functions ``status(state, view)``, ``scores``,
    #: ``outcome``, ``reveals``, ``knowledge(state, participant)`` and optionally
    #: ``final_outcome(state)`` (the host's and the public's outcome, sharing the work).
    views: ClassVar[Any] = None
    #: Whether everyone may see whom the match waits for (``waiting_for``): true where the
    #: rules announce it (whose turn it is), false where only the host knows who has
    #: submitted (simultaneous rounds).
    WAITING_IS_PUBLIC: ClassVar[bool] = False
    #: A module with the types of what the game announces (:mod:`.announced`) and their
    #: checks ``check_round(state, round_no, announcement)``, ``check_outcome(state,
    #: outcome)`` and ``check_public_outcome(state, outcome)``; None: an announcement
    #: must be a JSON object (an outcome one with ``standings``).
    announcement_shapes: ClassVar[Any] = None
    #: The rulings by which a submission the game's choices offer may still be refused,
    #: because what they check is hidden from the participant (another participant's
    #: submission): the choices never reveal it (:mod:`.choices`).
    CHOICES_HIDDEN: ClassVar[tuple[str, ...]] = ()

    _deciders: ClassVar[dict[type, Callable]] = {}
    _appliers: ClassVar[dict[type, Callable]] = {}
    _rederivers: ClassVar[dict[type, Callable]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # The marked methods, the most derived one for each type.
        found: dict[str, dict[type, str]] = {"decides": {}, "applies": {}, "rederives": {}}
        for klass in reversed(cls.__mro__):
            for attribute, value in vars(klass).items():
                for mark, table in found.items():
                    if hasattr(value, mark):
                        table[getattr(value, mark)] = attribute
        cls._deciders = {kind: getattr(cls, name) for kind, name in found["decides"].items()}
        cls._appliers = {kind: getattr(cls, name) for kind, name in found["applies"].items()}
        cls._rederivers = {kind: getattr(cls, name) for kind, name in found["rederives"].items()}

    # ------------------------------------------------------------------ creation

    def parse_options(self, raw: dict[str, str]) -> dict[str, Any]:
        # a default of an immutable type is shared as it is; any other is copied
        options = {
            name: spec.default if spec.default.__class__ in _IMMUTABLE else copy.deepcopy(spec.default)
            for name, spec in self.OPTIONS.items()
        }
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
        except MatchledgerError:
            raise  # already worded (a matchledger error is a ValueError too)
        except ValueError as exc:
            raise MalformedInput(f"option {key}={text!r}: {exc}") from None

    def check_players(self, players: list[str]) -> None:
        if len(players) < self.MIN_PLAYERS:
            raise MalformedInput(f"{self.name} needs at least {self.MIN_PLAYERS} players, got {len(players)}")
        if self.MAX_PLAYERS is not None and len(players) > self.MAX_PLAYERS:
            raise MalformedInput(f"{self.name} takes at most {self.MAX_PLAYERS} players, got {len(players)}")
        for name in players:
            check_name(name)
        check_distinct_names(players)

    def create(self, cmd: CreateMatch) -> list[MatchCreated]:
        self.check_players(cmd.players)
        options = self.parse_options(cmd.options)
        participants, setup = self.build_setup(cmd, options)
        check_distinct_names(participants)  # players and whoever else takes part (pw's guests)
        return [MatchCreated(game=self.name, players=list(cmd.players), options=options, setup=setup)]

    def seed_to_draw(self, setup: dict[str, Any]) -> str | None:
        """The setup key under which the application records a random seed it draws for
        a match created with ``setup`` (None: the game needs none).  The engine draws
        nothing itself: a drawn seed is recorded, so replay never draws again."""
        return None

    def build_setup(self, cmd: CreateMatch, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        if cmd.setup:
            raise MalformedInput(f"{self.name} takes no {', '.join('--' + k for k in cmd.setup)}")
        return list(cmd.players), {}

    def initial(self, match_id: str, created: MatchCreated) -> MatchState:
        state = MatchState(
            match_id=match_id,
            game=created.game,
            players=list(created.players),
            participants=self.participants_from(created),
            options=dict(created.options),
            setup=created.setup,
        )
        state.g = self.init_game(state)
        return state

    def participants_from(self, created: MatchCreated) -> list[str]:
        return list(created.players)

    def init_game(self, state: MatchState) -> Any:
        return None

    # ------------------------------------------------------------------ deciding

    def decide(self, state: MatchState, cmd) -> list[Event]:
        return self.decision(state, cmd).events

    def decision(self, state: MatchState, cmd) -> Decision:
        decider = self._deciders.get(type(cmd))
        if decider is None:
            raise MalformedInput(f"{self.name} does not understand {type(cmd).__name__}")
        if state.abandoned is not None:
            seq, reason = state.abandoned
            raise IllegalMove(
                f"match {state.match_id!r} was abandoned at seq {seq}: {reason}; nothing more can be recorded"
            )
        decided = decider(self, state, cmd)
        return decided if isinstance(decided, Decision) else Decision(decided)

    def require_open(self, state: MatchState) -> None:
        """Refuse anything more once the match is over, saying what can still be done."""
        if state.finished or self.play_is_over(state):
            raise MatchFinished(state.match_id, **self.way_back(state))

    def way_back(self, state: MatchState) -> dict[str, Any]:
        """How the host takes back the end of a finished match, as the fields of the
        refusal (:class:`MatchFinished`): none here, it cannot be reopened."""
        return {}

    def submission_to_undo(self, state: MatchState, seq: int, verb: str) -> Submission:
        """The submission recorded at ``seq``, which the host asks to be ``verb``
        (voided, corrected); refused, saying what it is, when there is none."""
        if not 1 <= seq <= state.last_seq:
            raise IllegalMove(f"no event {seq} in match {state.match_id!r} (events 1 to {state.last_seq})")
        target = state.submission_at(seq)
        if target is None:
            raise IllegalMove(f"event {seq} of {state.match_id!r} is not a submission; only submissions can be {verb}")
        return target

    def waiting_for(self, state: MatchState) -> list[str]:
        """Who the match waits for now, in the canonical order (nobody once it is over)."""
        return []

    def play_is_over(self, state: MatchState) -> bool:
        """Whether every round or turn has been played (final results may then be recorded)."""
        raise NotImplementedError

    def last_round(self) -> int | None:
        """The last round an amendment may take effect from (None: no fixed number)."""
        return None

    @decides(AddNote)
    def decide_note(self, state: MatchState, cmd: AddNote) -> list[Event]:
        if not cmd.text.strip():
            raise MalformedInput("a note needs some text")
        return [NoteAdded(text=cmd.text)]

    @decides(Abandon)
    def decide_abandon(self, state: MatchState, cmd: Abandon) -> list[Event]:
        if not cmd.reason.strip():
            raise MissingReason("abandoning a match")
        return [MatchAbandoned(reason=cmd.reason)]

    @decides(Amend)
    def decide_amend(self, state: MatchState, cmd: Amend) -> list[Event]:
        self.require_open(state)
        value = self.parse_option(cmd.option, cmd.value)
        spec = self.OPTIONS[cmd.option]
        unit = self.ROUND_WORD
        if spec.fixed_because is not None:
            raise IllegalMove(f"{cmd.option} cannot be amended: {spec.fixed_because}")
        if cmd.from_round < state.round:
            raise AmendmentTooLate(cmd.from_round, unit, state.round)
        last = self.last_round()
        if last is not None and cmd.from_round > last:
            raise InvalidParameter("from_round", cmd.from_round, f"{self.name} has {last} rounds")
        if spec.last_round_used is not None and cmd.from_round > spec.last_round_used:
            raise IllegalMove(
                f"{cmd.option} is only read when {unit} {spec.last_round_used} closes; an amendment from "
                f"{unit} {cmd.from_round} would change nothing"
            )
        if not cmd.reason.strip():
            raise MissingReason("an amendment")
        return [RuleAmended(option=cmd.option, value=value, from_round=cmd.from_round, reason=cmd.reason)]

    @decides(SetDeadline)
    def decide_deadline(self, state: MatchState, cmd: SetDeadline) -> list[Event]:
        """A deadline for the open round or turn, whatever the game: the core names it,
        since a game declares only its rounds or turns.  Later than the time it is set."""
        from .deadlines import check_ahead, check_period  # here: not every command's start-up

        self.require_open(state)
        if cmd.at is None and cmd.each is None and cmd.remind is None:
            raise MalformedInput(
                "a deadline needs a time (at), a period for every later round (each) or a reminder (remind)"
            )
        fields: dict[str, Any] = {}
        if cmd.at is not None:
            fields["at"] = check_ahead(cmd.at, cmd.now)
        else:
            check_ahead("9999-12-31T23:59:59Z", cmd.now)  # the time it was set, checked alike
        if cmd.each is not None:
            fields["each"] = check_period(cmd.each)
        if cmd.reason:
            fields["reason"] = cmd.reason
        if cmd.remind is not None:
            fields["remind"] = check_period(cmd.remind, "remind")
        return [DeadlineSet(round=state.round, now=cmd.now, **fields)]

    @decides(ClearDeadline)
    def decide_clear_deadline(self, state: MatchState, cmd: ClearDeadline) -> list[Event]:
        self.require_open(state)
        if state.deadline() is None and not state.deadline_each and not state.deadline_remind:
            unit = self.ROUND_WORD
            raise IllegalMove(
                f"{unit} {state.round} of {state.match_id!r} has no deadline, and no later {unit} gets one"
            )
        if cmd.reason:
            return [DeadlineCleared(round=state.round, reason=cmd.reason)]
        return [DeadlineCleared(round=state.round)]

    @decides(RecordOutcome)
    def decide_record_outcome(self, state: MatchState, cmd: RecordOutcome) -> Decision:
        if not self.play_is_over(state):
            raise IllegalMove(f"{state.match_id!r} is still being played; results come after its last round or turn")
        if state.outcome is not None:
            raise IllegalMove(f"the outcome of {state.match_id!r} is already recorded")
        check_json(cmd.announced, "the announced outcome", ANNOUNCED_FILE_MAX_BYTES)
        self.check_outcome(state, cmd.announced)
        outcome, public = self.final_outcome(state)
        return Decision(
            [OutcomeAnnounced(outcome=cmd.announced, public={}, source="host")],
            [CHECKED],
            rules=[OutcomeAnnounced(outcome=outcome, public=public)],
        )

    # ------------------------------------------------------------------ re-deciding a log

    def recreation(self, match_id: str, created: MatchCreated) -> MatchCreated:
        """What `new` records for the match ``created`` says was made, checked as `new`
        checks it (the match id, the players, the options, the set-up): re-derivation
        compares the two, so a log from elsewhere enters only as `new` would have made it."""
        check_match_id(match_id)
        [made] = self.create(self.creation_command(match_id, created))
        return made

    def creation_command(self, match_id: str, created: MatchCreated) -> CreateMatch:
        """The `new` command that would have recorded ``created``."""
        options = {}
        for key, value in created.options.items():
            spec = self.OPTIONS.get(key)
            options[key] = str(value) if spec is None else spec.text(value)  # an unknown one: refused by create
        return CreateMatch(match_id, created.game, list(created.players), options, self.setup_command(created.setup))

    def setup_command(self, setup: dict[str, Any]) -> dict[str, Any]:
        """The set-up as the command line hands it to ``create``, given as recorded."""
        return dict(setup)

    def recorded_command(self, state: MatchState, event: Event) -> Any:
        """The command that would have recorded ``event`` as the first event of its
        decision, as the command line builds it (building it checks its text); None for
        an event that only follows from another's decision (a resolved turn, a computed
        outcome) or records no decision (a checkpoint).  Re-derivation decides it
        against the state before ``event`` and compares."""
        if type(event) is SubmissionRecorded:
            if event.round != state.round:
                unit = self.ROUND_WORD
                now = f"every {unit} is over" if self.play_is_over(state) else f"{unit} {state.round} is the one open"
                raise IllegalMove(f"a submission by {event.participant!r} for {unit} {event.round}, but {now}")
            return Submit(event.participant, list(event.tokens))
        if type(event) is RoundClosed:
            announced = None if event.source == "computed" else {"public": event.public, "private": event.private}
            forced = event.reason is not msgspec.UNSET
            return CloseRound(announced, force=forced, reason=event.reason if event.reason is not msgspec.UNSET else "")
        if type(event) is OutcomeAnnounced:
            return None if event.source == "computed" else RecordOutcome(event.outcome)
        if type(event) is ContractRecorded:
            return RecordContract(event.participant, list(event.contracts))
        if type(event) is RoundReopened:
            return Reopen(event.reason)
        if type(event) is SubmissionVoided:
            return Void(event.target_seq, event.reason)
        if type(event) is SubmissionCorrected:
            return Correct(event.target_seq, list(event.tokens), event.reason)
        if type(event) is NoteAdded:
            return AddNote(event.text)
        if type(event) is MatchAbandoned:
            return Abandon(event.reason)
        if type(event) is DeadlineSet:
            return SetDeadline(
                event.now,
                None if event.at is msgspec.UNSET else event.at,
                None if event.each is msgspec.UNSET else event.each,
                "" if event.reason is msgspec.UNSET else event.reason,
                None if event.remind is msgspec.UNSET else event.remind,
            )
        if type(event) is DeadlineCleared:
            return ClearDeadline("" if event.reason is msgspec.UNSET else event.reason)
        if type(event) is RuleAmended:
            spec = self.OPTIONS.get(event.option)
            value = str(event.value) if spec is None else spec.text(event.value)
            return Amend(event.option, value, event.from_round, event.reason)
        return None

    def check_outcome(self, state: MatchState, outcome: Any) -> None:
        """Refuse results that are not in the shape of this game's `outcome --json`."""
        if self.announcement_shapes is not None:
            self.announcement_shapes.check_outcome(state, outcome)
        elif not isinstance(outcome, dict) or "standings" not in outcome:
            raise OutcomeShape()

    def check_recorded(self, seq: int, check: Callable[[], None]) -> None:
        """Run ``check`` on an announcement a log holds: one of another shape (from an
        older version, or another tool) makes the log corrupt, so no read meets it."""
        try:
            check()
        except MalformedInput as exc:
            raise CorruptLog(f"seq {seq}: the recorded announcement does not fit the game: {exc}") from None

    # ------------------------------------------------------------------ folding

    def apply(self, state: MatchState, seq: int, event: Event, work: Any = None) -> MatchState:
        state.last_seq = seq
        applier = self._appliers.get(type(event))
        if applier is None:
            raise CorruptLog(f"{self.name} cannot apply {type(event).__name__} (seq {seq})")
        applier(self, state, seq, event, work)
        return state

    def apply_and_rederive(self, state: MatchState, seq: int, event: Event) -> Event | None:
        """``apply``, also returning what the engine itself would have recorded in place
        of an announcement (None for any other event): verify compares the two, and one
        pass serves both."""
        rederiver = self._rederivers.get(type(event))
        if rederiver is None:
            self.apply(state, seq, event)
            return None
        return rederiver(self, state, seq, event)

    @applies(SubmissionRecorded)
    def _apply_submission(self, state: MatchState, seq: int, event: SubmissionRecorded, work) -> None:
        earlier = state.current_submission(event.round, event.participant)
        if earlier is not None:
            state.supersedes[seq] = earlier.seq
        state.submissions.setdefault(event.round, {}).setdefault(event.participant, []).append(
            Submission(seq, event.participant, event.round, list(event.tokens))
        )

    @applies(OutcomeAnnounced)
    def _apply_outcome(self, state: MatchState, seq: int, event: OutcomeAnnounced, work) -> None:
        if work is not CHECKED:
            self.check_recorded(seq, lambda: self.check_outcome(state, event.outcome))
            if event.public and self.announcement_shapes is not None:
                self.check_recorded(seq, lambda: self.announcement_shapes.check_public_outcome(state, event.public))
        state.outcome = event

    @rederives(OutcomeAnnounced)
    def _rederive_outcome(self, state: MatchState, seq: int, event: OutcomeAnnounced) -> Event:
        # in the recorded outcome's shape: one recorded before contract results were
        # announced is re-derived without them (announced.in_recorded_shape)
        from .announced import in_recorded_shape  # here: not every command's start-up

        outcome, public = in_recorded_shape(event.outcome, *self.final_outcome(state))
        # folded unchecked: verify reports where it differs from the rules, whatever its shape
        state.last_seq = seq
        state.outcome = event
        return OutcomeAnnounced(outcome=outcome, public=public)

    @applies(RuleAmended)
    def _apply_amendment(self, state: MatchState, seq: int, event: RuleAmended, work) -> None:
        state.amendments.append(event)

    @applies(NoteAdded)
    def _apply_note(self, state: MatchState, seq: int, event: NoteAdded, work) -> None:
        state.notes.append((seq, event.text))

    @applies(MatchAbandoned)
    def _apply_abandoned(self, state: MatchState, seq: int, event: MatchAbandoned, work) -> None:
        state.abandoned = (seq, event.reason)

    @applies(DeadlineSet)
    def _apply_deadline(self, state: MatchState, seq: int, event: DeadlineSet, work) -> None:
        if event.at is not msgspec.UNSET:
            state.deadlines[event.round] = event.at
        if event.each is not msgspec.UNSET:
            state.deadline_each = event.each
        if event.remind is not msgspec.UNSET:
            state.deadline_remind = event.remind

    @applies(DeadlineCleared)
    def _apply_deadline_cleared(self, state: MatchState, seq: int, event: DeadlineCleared, work) -> None:
        state.deadlines.pop(event.round, None)
        state.deadline_each = 0
        state.deadline_remind = 0

    @applies(StateCheckpointed)
    def _apply_checkpoint(self, state: MatchState, seq: int, event: StateCheckpointed, work) -> None:
        pass  # a record about the state, not a change of it

    # ------------------------------------------------------------------ read models

    def status(self, state: MatchState, view: View) -> dict:
        """The game's status, and for every game alike: whom the match waits for (where
        the view may know it) and whether it was abandoned."""
        data = self.views.status(state, view)
        if view.is_host or self.WAITING_IS_PUBLIC:
            data["waiting_for"] = self.waiting_for(state)
        if state.abandoned is not None:
            seq, reason = state.abandoned
            data["abandoned"] = {"seq": seq, "reason": reason} if view.is_host else {"seq": seq}
        deadline = self.deadline_status(state)
        if deadline is not None:  # public: everyone plays to it
            data["deadline"] = deadline
        return data

    def deadline_status(self, state: MatchState) -> dict | None:
        """The open round's (or turn's) deadline and the period every later one gets, as
        the log set them; None where neither is set (or play is over)."""
        if (not state.deadlines and not state.deadline_each) or state.abandoned is not None:
            return None
        if state.finished or self.play_is_over(state):
            return None
        at = state.deadline()
        if at is None and not state.deadline_each:
            return None
        shown: dict[str, Any] = {"round": state.round, "unit": self.ROUND_WORD, "at": at}
        if state.deadline_each:
            shown["each_seconds"] = state.deadline_each
        if state.deadline_remind:
            shown["remind_seconds"] = state.deadline_remind
        return shown

    def scores(self, state: MatchState, view: View) -> dict:
        return self.views.scores(state, view)

    def outcome(self, state: MatchState, view: View) -> dict:
        return self.views.outcome(state, view)

    def reveals(self, state: MatchState, view: View) -> dict:
        return self.views.reveals(state, view)

    def knowledge(self, state: MatchState, participant: str) -> dict:
        return self.views.knowledge(state, participant)

    def choices(self, state: MatchState, participant: str) -> dict | None:
        """What ``participant`` may submit now, as the data of :mod:`.choices` (computed
        only from what they may know), or ``{"none": why}``; None: the game describes
        nothing, and only its typed notation can be submitted."""
        return None

    def explain(self, state: MatchState, participant: str) -> dict:
        """``participant``'s points line by line, with the rule behind each (host view)."""
        raise MalformedInput(f"{self.name} cannot explain its scores")

    def final_outcome(self, state: MatchState) -> tuple[dict, dict]:
        """The outcome for the host and for the public (a views module may compute both
        at once, sharing the scoring the two views have in common)."""
        both = getattr(self.views, "final_outcome", None)
        if both is not None:
            return both(state)
        return self.outcome(state, HOST), self.outcome(state, PUBLIC)
