"""One error hierarchy for the whole project.

Every error matchledger raises on purpose derives from :class:`MatchledgerError`, and
also from the builtin that says what kind of trouble it is, so that code knowing
nothing of matchledger catches it as it would the builtin (python-chess's move errors
are ``ValueError``\\ s the same way): input and rules errors are ``ValueError``, an
unknown match a ``LookupError``, a database's troubles ``TimeoutError``,
``ConnectionError`` or ``OSError``, what this installation cannot do a ``RuntimeError``.

An error carries what went wrong as fields (the match, the parameter, the value given,
the range allowed), and its message says it in neutral words: the core speaks no front
door's language (``tests/architecture/test_no_cli_words.py``).  Each door words an error its
own way from its fields: the command line with its flags, commands and exit codes
(``matchledger.commands.errors``), the service with its query parameters and HTTP
statuses (``matchledger.commands.service.problems``).  A parameter is named as the core
knows it: ``at``, ``reason``, ``from_round``, a game's setup parameter ``pairs``.

Messages quote the offending value so a host can fix the line they typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


class MatchledgerError(Exception):
    """Root of every error matchledger raises on purpose."""

    def __reduce__(self):
        # An error crosses process boundaries (`verify --all --jobs`) pickled: rebuilt
        # from its message and fields, not by calling a constructor that takes fields.
        return (_restored, (type(self), self.args, self.__dict__))


def _restored(kind: type[MatchledgerError], args: tuple, fields: dict[str, Any]) -> MatchledgerError:
    error = kind.__new__(kind)
    error.args = args
    error.__dict__.update(fields)
    return error


# --------------------------------------------------------------------------- the kinds


class MalformedInput(MatchledgerError, ValueError):
    """Input that cannot be understood: a bad token, option, file or JSON body."""


class IllegalMove(MatchledgerError, ValueError):
    """Well-formed input that the game's rules forbid at this point of the match."""


class UnknownMatch(MatchledgerError, LookupError):
    """A match id that the database (at ``location``) does not hold."""

    def __init__(self, match: str, location: str | None = None):
        self.match, self.location = match, location
        where = f" in {location!r}" if location is not None else ""
        super().__init__(f"no match {match!r}{where}")


class LogConflict(MatchledgerError, RuntimeError):
    """Another writer appended to the match first (optimistic concurrency lost)."""


class CorruptLog(MatchledgerError, ValueError):
    """The stored log cannot be read: an undecodable body, an unknown tag, a bad file."""


class ForeignDatabase(CorruptLog):
    """A file that is not a matchledger database (not SQLite, another program's, empty),
    or a database whose tables are not ours or of a schema version this matchledger
    does not read: refused before anything could change it."""


#: Why the database was busy (:attr:`DatabaseBusy.cause`).
BUSY_LOCK = "lock"
BUSY_POOL = "pool"


class DatabaseBusy(MatchledgerError, TimeoutError):
    """The database did not serve within the lock timeout, for a ``cause``:
    :data:`BUSY_LOCK` (the default), another connection held a lock it needed for longer;
    :data:`BUSY_POOL`, no connection of this process's pool came free (or could be
    opened) in time.  An operator tells the two apart: the first is another writer, the
    second this process's own load."""

    def __init__(self, message: str, *, cause: str = BUSY_LOCK):
        if cause not in (BUSY_LOCK, BUSY_POOL):
            raise ValueError(f"no cause of a busy database {cause!r}")
        super().__init__(message)
        self.cause = cause


class DatabaseUnavailable(MatchledgerError, ConnectionError):
    """A database server that cannot be reached, refuses the login, has no such
    database, or lost the connection."""


class UnwritableDatabase(MatchledgerError, OSError):
    """A write asked of a database this process cannot write: a read-only file or
    folder, or a full disk."""


class Unavailable(MatchledgerError, RuntimeError):
    """What this installation cannot do: a system library a command needs is missing.
    The message names it and how to install it, or what to do instead."""


class GameNotInstalled(Unavailable):
    """A match of a game this installation does not have (a plugin since removed, or a
    database from a site with more games): not a broken log, a game to install."""

    def __init__(self, match_id: str, game: str, installed: list[str]):
        self.match_id, self.game = match_id, game
        super().__init__(
            f"match {match_id!r} is of the game {game!r}, which is not installed here (games: "
            f"{', '.join(installed) or 'none'}); install the distribution that provides it to read the match"
        )


class VerificationFailed(MatchledgerError, ValueError):
    """`verify` found a discrepancy; carries the findings."""

    def __init__(self, message: str, findings=()):
        super().__init__(message)
        self.findings = list(findings)


# --------------------------------------------------------------------------- a parameter given


class ParameterError(MatchledgerError, ValueError):
    """An error about the value given for one parameter of what was asked: its message
    starts with the parameter (``worded``), which each door names as it takes it (the
    command line a flag, ``--at``; the service a query parameter, ``at``).  ``game``: the
    game whose setup parameter it is (None: a parameter of the command itself)."""

    parameter: str
    game: str | None = None

    def _named(self, parameter: str, game: str | None = None) -> None:
        self.parameter, self.game = parameter, game
        # in words: "from round"; what is not a parameter's name (a phrase) is left as it is
        MatchledgerError.__init__(
            self, self.worded(parameter.replace("_", " ") if parameter.isidentifier() else parameter)
        )

    def worded(self, name: str) -> str:
        """The message, with the parameter called ``name``."""
        raise NotImplementedError


class InvalidParameter(ParameterError, MalformedInput):
    """The value given for ``parameter`` cannot be taken: ``problem`` says why.
    ``shown``: how the message quotes the value (by default as it was typed)."""

    def __init__(self, parameter: str, value: Any, problem: str, *, shown: str | None = None, game: str | None = None):
        self.value, self.problem = value, problem
        self.shown = str(value) if shown is None else shown
        self._named(parameter, game)

    def worded(self, name: str) -> str:
        return f"{name} {self.shown}: {self.problem}"


class InvalidToken(InvalidParameter):
    """One token given for ``parameter`` (a submission's, a contract's, an option's) that
    no token can be."""

    def worded(self, name: str) -> str:
        return f"{name} token {self.shown}: {self.problem}"


class TooManyTokens(InvalidParameter):
    """More tokens given for ``parameter`` than ``limit``."""

    def __init__(self, parameter: str, count: int, limit: int):
        self.count, self.limit = count, limit
        super().__init__(parameter, count, f"at most {limit}")

    def worded(self, name: str) -> str:
        return f"{name} of {self.count} tokens: {self.problem}"


class MalformedReceipt(InvalidParameter):
    """A receipt that is not ``SEQ:HASH`` with the whole hash."""

    def __init__(self, text: str):
        super().__init__("receipt", text, "it must be SEQ:HASH with a 64-digit hex hash", shown=repr(text))

    def worded(self, name: str) -> str:
        return f"{name} must be SEQ:HASH with a 64-digit hex hash, got {self.value!r}"


class MissingReason(ParameterError, MalformedInput):
    """A command that records why it was made (``action``: what it does, in a noun
    phrase) given no reason; ``kept``: the message adds that the reason is kept."""

    def __init__(self, action: str, *, kept: bool = False):
        self.action, self.kept = action, kept
        self._named("reason")

    def worded(self, name: str) -> str:
        return f"{self.action} needs a {name}" + (" (kept in the log)" if self.kept else "")


class OutsideLog(ParameterError, MalformedInput):
    """``at`` names no event of ``match``, whose events are 1 to ``last``."""

    def __init__(self, match: str, at: int, last: int):
        self.match, self.at, self.last = match, at, last
        self._named("at")

    def worded(self, name: str) -> str:
        return f"{name} {self.at} is outside match {self.match!r} (events 1 to {self.last})"


class OutsideView(ParameterError, MalformedInput):
    """``at`` is not the seq of an event ``viewer`` (``the public``, a participant's
    name) may know of: one and the same refusal whatever ``at`` is otherwise (hidden,
    or past the head), which names no head."""

    def __init__(self, match: str, at: int, viewer: str):
        self.match, self.at, self.viewer = match, at, viewer
        self._named("at")

    def worded(self, name: str) -> str:
        return f"{name} {self.at} is not the seq of an event {self.viewer} may know of in match {self.match!r}"


class AmendmentTooLate(ParameterError, IllegalMove):
    """An amendment from ``from_round``, a round or turn (``unit``) already over: the
    open one is ``open_round``."""

    def __init__(self, from_round: int, unit: str, open_round: int):
        self.from_round, self.unit, self.open_round = from_round, unit, open_round
        self._named("from_round")

    def worded(self, name: str) -> str:
        unit, first = self.unit, self.from_round
        return (
            f"{name} {first}: {unit} {first} is already over; amendments take effect from the open {unit} "
            f"({self.open_round}) on"
        )


class ExclusiveParameters(MalformedInput):
    """Two parameters given together that exclude each other (``game``: the game whose
    setup parameters they are)."""

    def __init__(self, first: str, second: str, *, game: str | None = None):
        self.parameters, self.game = (first, second), game
        super().__init__(f"give either {first} or {second}, not both")


# --------------------------------------------------------------------------- a game's setup


class MissingSetup(MalformedInput):
    """A match of ``game`` created without its setup parameter ``parameter``; ``scope``:
    what it is needed for, in neutral words (``for every player``)."""

    def __init__(self, game: str, parameter: str, scope: str = ""):
        self.game, self.parameter, self.scope = game, parameter, scope
        super().__init__(f"{game} needs the setup parameter {parameter!r}" + (f" {scope}" if scope else ""))


class IncompleteSetup(ParameterError, MalformedInput):
    """A setup parameter given, but not for everything it must cover: ``problem`` says
    what is left out, ``example`` is the value that would add it (``bob=GUEST``)."""

    def __init__(self, game: str, parameter: str, problem: str, example: str):
        self.problem, self.example = problem, example
        self._named(parameter, game)

    def worded(self, name: str) -> str:
        return f"{self.problem} (add {name} {self.example})"


class UnexpectedSetup(MalformedInput):
    """Setup parameters ``given`` that ``game`` does not take (it takes ``accepted``)."""

    def __init__(self, game: str, given: Iterable[str], accepted: Sequence[str]):
        self.game, self.given, self.accepted = game, sorted(given), list(accepted)
        super().__init__(
            f"{game} takes only the setup parameter{'s' if len(self.accepted) != 1 else ''} "
            f"{', '.join(map(repr, self.accepted)) or 'none'}, not {', '.join(map(repr, self.given))}"
        )


# --------------------------------------------------------------------------- who is asked for


class UnknownParticipant(IllegalMove):
    """``name`` is not one of ``participants`` of ``match``."""

    def __init__(self, match: str, name: str | None, participants: Sequence[str], parameter: str | None = None):
        self.match, self.name, self.participants, self.parameter = match, name, list(participants), parameter
        super().__init__(f"{name!r} is not a participant of {match!r} (participants: {', '.join(participants)})")


class UnknownViewer(UnknownParticipant, MalformedInput):
    """A view asked for through ``parameter`` (the participant whose view it is) naming
    someone who is not a participant: bad input, never the host's view."""


# --------------------------------------------------------------------------- the rounds and turns


class MatchFinished(IllegalMove):
    """Nothing more can be recorded in ``match``.  What can still be done: reopen
    ``reopenable_round`` (a game of rounds), take back the last turn (``turns``; its
    submission's seq ``last_turn_seq`` when there is one), or nothing."""

    def __init__(
        self,
        match: str,
        *,
        reopenable_round: int | None = None,
        turns: bool = False,
        last_turn_seq: int | None = None,
    ):
        self.match, self.reopenable_round = match, reopenable_round
        self.turns, self.last_turn_seq = turns, last_turn_seq
        if reopenable_round is not None:
            way_back = (
                f"round {reopenable_round} can be reopened, with a reason, or one of its submissions voided or "
                "corrected, reopening it"
            )
        elif turns:
            way_back = "voiding the last turn's submission, with a reason, takes it back"
        else:
            way_back = "it cannot be reopened"
        super().__init__(f"match {match!r} is finished; nothing more can be recorded ({way_back})")


class SubmissionsMissing(IllegalMove):
    """The open ``round`` of ``match`` cannot close while ``missing`` have not
    submitted; closing by force, with a reason, would let it (``without``: what the
    rules make of a missing submission)."""

    def __init__(self, match: str, round: int, missing: Sequence[str], without: str):
        self.match, self.round, self.missing, self.without = match, round, list(missing), without
        super().__init__(
            f"round {round} of {match!r} cannot close; no submission from {', '.join(missing)}. Record theirs, "
            f"or close it anyway by force, with a reason ({without})"
        )


class EveryoneMustSubmit(IllegalMove):
    """The open ``round`` of ``match`` cannot close while ``missing`` have not submitted,
    not even by force (``forced``: it was asked): the rules (``ruling``) make every
    participant submit."""

    def __init__(self, ruling: str, match: str, round: int, missing: Sequence[str], *, forced: bool):
        self.ruling, self.match, self.round, self.missing, self.forced = ruling, match, round, list(missing), forced
        super().__init__(
            f"{ruling}: round {round} of {match!r} cannot close"
            + (", not even by force (every participant must submit)" if forced else "")
            + f"; no submission from {', '.join(missing)}"
        )


class NothingToForce(IllegalMove):
    """A close by force of ``round`` of ``match``, where everyone has submitted."""

    def __init__(self, match: str, round: int):
        self.match, self.round = match, round
        super().__init__(f"every participant has submitted in round {round} of {match!r}; close it without force")


class ReopenBlocked(IllegalMove):
    """The last closed round of ``match`` cannot be reopened under the open round
    ``round``'s submissions that count (``held``: their (seq, participant))."""

    def __init__(self, match: str, round: int, held: Sequence[tuple[int, str]]):
        self.match, self.round, self.held = match, round, [tuple(pair) for pair in held]
        super().__init__(
            f"round {round} of {match!r} holds submissions ({self.listed()}); round {round - 1} cannot be reopened "
            "under them. Void each first, then reopen"
        )

    def listed(self) -> str:
        return ", ".join(f"seq {seq} ({participant})" for seq, participant in self.held)


class RoundNeedsReopening(IllegalMove):
    """A void or correction of submission ``seq`` of the last closed ``round``, not
    asked to reopen it."""

    def __init__(self, seq: int, round: int):
        self.seq, self.round = seq, round
        super().__init__(
            f"submission {seq} belongs to round {round}, which is closed; reopening it supersedes that round's "
            "announcements (the round must then be closed again)"
        )


class OutOfReach(IllegalMove):
    """A void or correction of submission ``seq`` of ``round``: only the open round
    (``open_round``; None once the match is over) or, reopened, the last closed round
    (``last_closed``) can be corrected."""

    def __init__(self, seq: int, round: int, open_round: int | None, last_closed: int):
        self.seq, self.round, self.open_round, self.last_closed = seq, round, open_round, last_closed
        super().__init__(
            f"submission {seq} belongs to round {round}; only the open round ({self.open()}) or, reopened, the "
            f"last closed round ({last_closed}) can be corrected"
        )

    def open(self) -> str:
        return "none" if self.open_round is None else str(self.open_round)


class RevivalRefused(IllegalMove):
    """Voiding ``target`` would make ``participant``'s earlier submission ``revived``
    (``tokens``) count again, which the rules refuse now (``cause``, their refusal)."""

    def __init__(self, target: int, participant: str, revived: int, tokens: Sequence[str], cause: MatchledgerError):
        self.target, self.participant, self.revived, self.tokens = target, participant, revived, list(tokens)
        self.cause = cause
        super().__init__(self.worded(str(cause), f"correct {target}"))

    def worded(self, refusal: str, correcting: str) -> str:
        """The message with the rules' ``refusal`` and the way to correct ``correcting``
        as a door words them."""
        return (
            f"voiding {self.target} would make {self.participant}'s submission {self.revived} "
            f"({' '.join(self.tokens)}) count again, which the rules refuse now: {refusal}. Void {self.revived} "
            f"first (then nothing counts again), or {correcting} with tokens the rules accept"
        )


class NoRoundsToReopen(IllegalMove):
    """``game`` (of ``match``) plays turns: there is no round to reopen; voiding the last
    turn's submission takes it back."""

    def __init__(self, game: str, match: str):
        self.game, self.match = game, match
        super().__init__(
            f"{game} has no rounds to reopen: a turn is resolved as soon as it is submitted, and voiding the last "
            "turn's submission takes it back"
        )


class NoRoundToReopenForVoid(ParameterError, MalformedInput):
    """A void asked to reopen a round (``parameter``) in ``game``, which plays turns."""

    def __init__(self, game: str):
        self.for_game = game
        self._named("reopen")

    def worded(self, name: str) -> str:
        return f"{self.for_game} has no rounds to reopen: leave out {name}; a void alone takes back the last turn"


class TurnNotCorrectable(IllegalMove):
    """A correction of submission ``seq``, ``game``'s ``turn`` in ``match``: a turn is
    resolved when submitted, so only the last can be taken back, by a void."""

    def __init__(self, game: str, match: str, seq: int, turn: int):
        self.game, self.match, self.seq, self.turn = game, match, seq, turn
        super().__init__(
            f"submission {seq} is {game} turn {turn}, resolved when it was submitted; a turn cannot be corrected, "
            "but the last one can be taken back (by voiding its submission) and submitted again"
        )


class OutcomeShape(MalformedInput):
    """An announced outcome not in the shape of the game's outcome as JSON."""

    def __init__(self):
        super().__init__(
            "an announced outcome is a JSON object in the shape of the game's outcome read model as JSON "
            "(with 'standings')"
        )


# --------------------------------------------------------------------------- who records, and where


class InvalidActor(MalformedInput):
    """``actor`` (``shown`` as quoted) is not 1 to ``limit`` printable characters."""

    def __init__(self, actor: Any, shown: str, limit: int):
        self.actor, self.shown, self.limit = actor, shown, limit
        super().__init__(f"actor {shown}: {self.rule()}")

    def rule(self) -> str:
        return f"the actor is 1 to {self.limit} printable characters, with no control characters"


class MalformedHead(MalformedInput):
    """``text`` is not a published head, ``SEQ:HASH``."""

    def __init__(self, text: str):
        self.text = text
        super().__init__(f"{text!r} is not SEQ:HASH (a seq and a hex hash, as a head is published)")


class NoDatabase(CorruptLog):
    """No database at ``location`` to read (``tables``: the server holds a database,
    but not matchledger's tables): a write makes one."""

    def __init__(self, location: str, *, tables: bool = False):
        self.location, self.tables = location, tables
        super().__init__(f"{self.missing()} (a write creates it: initialise it, or create a match)")

    def missing(self) -> str:
        return f"no matchledger tables in {self.location!r}" if self.tables else f"no database at {self.location!r}"


class ConnectionLost(DatabaseUnavailable):
    """The connection to the database server at ``location`` was lost (``reason``):
    what was under way may not have been recorded."""

    def __init__(self, location: str, reason: str):
        self.location, self.reason = location, reason
        super().__init__(
            f"lost the connection to {location!r} ({reason}); a command in progress may not have been recorded: "
            "the match's log shows what was"
        )


class UnverifiedLog(VerificationFailed):
    """A read refused: the chain of ``match`` does not vouch for what it would show
    (``finding``, the first place it breaks)."""

    def __init__(self, match: str, finding):
        self.match, self.finding = match, finding
        super().__init__(f"{self.refusal()} (verifying it tells more)", [finding])

    def refusal(self) -> str:
        return (
            f"{self.finding.describe()}; the log of {self.match!r} does not verify, so nothing from it is shown "
            "or decided"
        )
