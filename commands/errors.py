"""The command line's words for every error of the one hierarchy: the message a host
reads (naming the flags and commands they type) and the exit code.

The core raises errors with fields and neutral words (``ledger/errors.py``); this is
where they become what the command line has always printed: ``--at 99 is outside
match 'm1' (events 1 to 3)``, a way back spelled as the command to type.  An error with
nothing door-specific about it is printed as it is.  Exit codes (docs/design.md, "Command
line"): 1 for a rules or input error, 3 when the log does not verify (a finding); click
gives 2 to usage errors.
"""

from __future__ import annotations

from collections.abc import Callable

from matchledger.ledger.errors import (
    ConnectionLost,
    EveryoneMustSubmit,
    ExclusiveParameters,
    InvalidActor,
    MalformedHead,
    MatchFinished,
    MatchledgerError,
    MissingSetup,
    NoDatabase,
    NoRoundsToReopen,
    NoRoundToReopenForVoid,
    NothingToForce,
    OutcomeShape,
    OutOfReach,
    ParameterError,
    ReopenBlocked,
    RevivalRefused,
    RoundNeedsReopening,
    SubmissionsMissing,
    TurnNotCorrectable,
    UnexpectedSetup,
    UnknownParticipant,
    UnverifiedLog,
    VerificationFailed,
)

#: Rules and input errors.
EXIT_ERROR = 1
#: The log does not verify: what `verify` exits with on a finding, and any read refused for one.
EXIT_FINDING = 3

#: The flag that gives each parameter of a command, by the name the core knows it by.  A
#: name not listed is an argument, named as it is (``note``, ``submission``); a game's
#: setup parameters are flags of its own declaration (``SetupParameter.flag``).
FLAGS = {
    "actor": "--actor",
    "as": "--as",
    "at": "--at",
    "each": "--each",
    "force": "--force",
    "from_round": "--from-round",
    "option": "--option",
    "public": "--public",
    "reason": "--reason",
    "receipt": "--receipt",
    "reopen": "--reopen",
    "round": "--round",
}

#: How a flag reads where the message shows the value it takes.
_WITH_VALUE = {"as": "--as PARTICIPANT"}


def exit_code(error: MatchledgerError) -> int:
    return EXIT_FINDING if isinstance(error, VerificationFailed) else EXIT_ERROR


def message(error: MatchledgerError) -> str:
    """``error`` in the command line's words."""
    for kind in type(error).__mro__:
        wording = _WORDING.get(kind)
        if wording is not None:
            return wording(error)
    return str(error)


def flag(parameter: str, game: str | None = None) -> str:
    """How a host types ``parameter`` (of ``game``'s setup, when a game is named)."""
    declared = _setup_parameter(game, parameter) if game is not None else None
    if declared is not None:
        return declared.flag
    return FLAGS.get(parameter, parameter)


def _setup_parameter(game: str, parameter: str):
    from matchledger import engine  # the registry reads the declarations only once asked

    try:
        return engine.spec(game).parameter(parameter)
    except MatchledgerError:
        return None


def _typed(parameter: str, game: str | None) -> str:
    """A flag with the value it takes (``--studio FILE``, ``--as PARTICIPANT``)."""
    declared = _setup_parameter(game, parameter) if game is not None else None
    if declared is not None:
        return f"{declared.flag} {declared.metavar}"
    return _WITH_VALUE.get(parameter, flag(parameter))


# --------------------------------------------------------------------------- the wordings


def _parameter(error: ParameterError) -> str:
    return error.worded(flag(error.parameter, error.game))


def _unknown_participant(error: UnknownParticipant) -> str:
    if error.parameter is None:
        return str(error)
    return (
        f"{flag(error.parameter)} {error.name!r}: not a participant of {error.match!r} "
        f"(participants: {', '.join(error.participants)})"
    )


def _exclusive(error: ExclusiveParameters) -> str:
    first, second = (
        flag(name, error.game) if error.game is not None else _WITH_VALUE.get(name, flag(name))
        for name in error.parameters
    )
    return f"give either {first} or {second}, not both"


def _missing_setup(error: MissingSetup) -> str:
    if _setup_parameter(error.game, error.parameter) is None:
        return str(error)
    return f"{error.game} needs {_typed(error.parameter, error.game)}" + (f" {error.scope}" if error.scope else "")


def _unexpected_setup(error: UnexpectedSetup) -> str:
    takes = " or ".join(_typed(name, error.game) for name in error.accepted) or "no setup option"
    return f"{error.game} takes only {takes}, not {', '.join(map(repr, error.given))}"


def _finished(error: MatchFinished) -> str:
    match = error.match
    if error.reopenable_round is not None:
        way_back = (
            f"`reopen {match} --reason TEXT` reopens round {error.reopenable_round}, and `void`/`correct` with "
            "--reopen take back one of its submissions"
        )
    elif error.turns:
        seq = "SEQ" if error.last_turn_seq is None else error.last_turn_seq
        way_back = f"`void {match} {seq} --reason TEXT` takes back its last turn"
    else:
        way_back = "it cannot be reopened"
    return f"match {match!r} is finished; nothing more can be recorded ({way_back})"


def _missing(error: SubmissionsMissing) -> str:
    return (
        f"round {error.round} of {error.match!r} cannot close; no submission from {', '.join(error.missing)}. "
        f"Record theirs, or close anyway with `close {error.match} --force --reason TEXT` ({error.without})"
    )


def _everyone(error: EveryoneMustSubmit) -> str:
    even = ", not even with --force (every participant must submit)" if error.forced else ""
    return (
        f"{error.ruling}: round {error.round} of {error.match!r} cannot close{even}; "
        f"no submission from {', '.join(error.missing)}"
    )


def _nothing_to_force(error: NothingToForce) -> str:
    return f"every participant has submitted in round {error.round} of {error.match!r}; close it without --force"


def _reopen_blocked(error: ReopenBlocked) -> str:
    return (
        f"round {error.round} of {error.match!r} holds submissions ({error.listed()}); round {error.round - 1} "
        f"cannot be reopened under them. Void each first (`void {error.match} SEQ --reason TEXT`), then reopen"
    )


def _needs_reopening(error: RoundNeedsReopening) -> str:
    return (
        f"submission {error.seq} belongs to round {error.round}, which is closed; add --reopen to supersede that "
        "round's announcements (the round must then be closed again)"
    )


def _out_of_reach(error: OutOfReach) -> str:
    return (
        f"submission {error.seq} belongs to round {error.round}; only the open round ({error.open()}) or, with "
        f"--reopen, the last closed round ({error.last_closed}) can be corrected"
    )


def _revival(error: RevivalRefused) -> str:
    return error.worded(message(error.cause), f"`correct {error.target}`")


def _no_rounds(error: NoRoundsToReopen) -> str:
    return (
        f"{error.game} has no rounds to reopen: a turn is resolved as soon as it is submitted, and "
        f"`void {error.match} SEQ --reason TEXT` takes back the last one"
    )


def _no_round_for_void(error: NoRoundToReopenForVoid) -> str:
    return f"{error.for_game} has no rounds to reopen: drop --reopen; `void` alone takes back the last turn"


def _turn_not_correctable(error: TurnNotCorrectable) -> str:
    return (
        f"submission {error.seq} is {error.game} turn {error.turn}, resolved when it was submitted; a turn cannot "
        f"be corrected, but the last one can be taken back (`void {error.match} SEQ --reason TEXT`) and submitted "
        "again"
    )


def _outcome_shape(error: OutcomeShape) -> str:
    return "an announced outcome is a JSON object in the shape of `outcome --json` (with 'standings')"


def _actor(error: InvalidActor) -> str:
    return f"actor {error.shown} (--actor, MATCHLEDGER_ACTOR or $USER): {error.rule()}"


def _head(error: MalformedHead) -> str:
    return f"{error.text!r} is not SEQ:HASH (a seq and a hex hash, as `head` prints them)"


def _no_database(error: NoDatabase) -> str:
    return f"{error.missing()} (run `matchledger init` or `new` first)"


def _connection_lost(error: ConnectionLost) -> str:
    return (
        f"lost the connection to {error.location!r} ({error.reason}); a command in progress may not have been "
        "recorded: `matchledger log` shows what was"
    )


def _unverified(error: UnverifiedLog) -> str:
    return f"{error.refusal()} (`matchledger verify {error.match}` tells more)"


#: The wording of each kind of error that the command line words its own way; the most
#: specific kind of an error that is listed words it.
_WORDING: dict[type, Callable] = {
    ParameterError: _parameter,
    UnknownParticipant: _unknown_participant,
    ExclusiveParameters: _exclusive,
    MissingSetup: _missing_setup,
    UnexpectedSetup: _unexpected_setup,
    MatchFinished: _finished,
    SubmissionsMissing: _missing,
    EveryoneMustSubmit: _everyone,
    NothingToForce: _nothing_to_force,
    ReopenBlocked: _reopen_blocked,
    RoundNeedsReopening: _needs_reopening,
    OutOfReach: _out_of_reach,
    RevivalRefused: _revival,
    NoRoundsToReopen: _no_rounds,
    NoRoundToReopenForVoid: _no_round_for_void,
    TurnNotCorrectable: _turn_not_correctable,
    OutcomeShape: _outcome_shape,
    InvalidActor: _actor,
    MalformedHead: _head,
    NoDatabase: _no_database,
    ConnectionLost: _connection_lost,
    UnverifiedLog: _unverified,
}
