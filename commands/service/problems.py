"""What the service answers for an error: an HTTP status and an RFC 9457 problem
(``application/problem+json``), worded with the service's own parameters.

A problem is ``{"type", "title", "status", "detail", "error", ...}``: ``error`` repeats
``detail``, so that a client of the ``{"error": MESSAGE}`` answers of earlier releases
reads it where it always did; the other members are the error's fields that are safe
to show (``match``, ``parameter``, the ``at`` that was sent).  ``type`` names the kind of problem (``urn:matchledger:problem:…``, listed
in docs/service.md), or is ``about:blank`` for an answer that HTTP's status says all of.

What a problem tells is what the refusal told before it, no more: never the database's
name (the command line's messages name it, for the host), never a head or a count a
viewer may not know (``?at`` outside what they may know of is one and the same answer,
naming no range), never a finding's details (they may quote a body the viewer may not
see), and an error the service did not expect says only that it happened.
"""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any

import msgspec

from matchledger.ledger.errors import (
    BUSY_LOCK,
    BUSY_POOL,
    ConnectionLost,
    CorruptLog,
    DatabaseBusy,
    DatabaseUnavailable,
    IllegalMove,
    InvalidToken,
    LogConflict,
    MalformedInput,
    MatchFinished,
    MatchledgerError,
    OutsideLog,
    OutsideView,
    TooManyTokens,
    Unavailable,
    UnknownMatch,
    UnwritableDatabase,
    VerificationFailed,
)

PROBLEM_JSON = "application/problem+json"

#: The kinds of problem, each with its ``type`` and ``title`` (the same for every
#: problem of the kind: ``detail`` says what happened this time).
PROBLEM_KINDS = {
    "malformed-input": "The request cannot be understood",
    "outside-view": "Not an event this viewer may know of",
    "refused-by-the-rules": "The rules refuse it",
    "unknown-match": "No such match",
    "log-does-not-verify": "The match's log does not verify",
    "log-conflict": "The match moved on meanwhile",
    "too-many-submissions": "As many submissions as a link may make in a round",
    "past-deadline": "The round's deadline has passed",
    "busy": "The ledger is busy",
    "unwritable": "The ledger cannot record anything",
    "unreachable": "The ledger's database cannot be reached",
    "unavailable": "Not available on this server",
    "unreadable": "The ledger cannot be read",
    "schema-too-new": "The database is of a newer matchledger than this server",
    "not-a-matchledger-database": "The database is not a matchledger database",
    "no-database": "There is no matchledger database to read",
    "over-capacity": "The server is answering as many requests as it may",
}
TYPE_PREFIX = "urn:matchledger:problem:"

#: What the access log says of a refusal of each kind that is the server's trouble, not
#: the client's (a 503): fixed words, never the error's message, which may name the
#: database (a URL, its user) where the host's terminal shows it.
LOG_REASONS = {
    "busy": "database busy",
    "unwritable": "database unwritable",
    "unreachable": "database unreachable",
    "unavailable": "game not installed",
    "unreadable": "database unreadable",
    "schema-too-new": "database schema too new",
    "not-a-matchledger-database": "not a matchledger database",
    "no-database": "no matchledger database",
    "over-capacity": "concurrency limit",
}

#: The access log's reason for a busy database, by its cause (``DatabaseBusy.cause``): a
#: lock another connection held is another writer's doing, no free connection in the
#: pool is this process's own load, and an operator acts on each differently.
BUSY_REASONS = {BUSY_LOCK: "database busy: lock timeout", BUSY_POOL: "database busy: no free connection"}

#: What the service calls a parameter the core names (a submission's tokens are the
#: body's ``tokens``); a parameter it does not take is not named in a problem.
_PARAMETERS = {"at": "at", "submission": "tokens"}

_json = msgspec.json.Encoder()


class Refused(Exception):
    """An HTTP answer other than success, raised by a handler: ``status``, ``message``
    (the problem's ``detail``, and the text of an HTML page), ``headers``, the
    problem's ``kind`` (one of the kinds above; None: ``about:blank``) and ``members``,
    and the ``reason`` the access log gives (by default the kind's, ``LOG_REASONS``)."""

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        *,
        kind: str | None = None,
        members: dict[str, Any] | None = None,
        reason: str | None = None,
    ):
        super().__init__(message)
        if kind is not None and kind not in PROBLEM_KINDS:
            raise ValueError(f"no kind of problem {kind!r}")
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.kind = kind
        self.members = members or {}
        self.reason = reason if reason is not None else LOG_REASONS.get(kind or "")

    def problem(self) -> dict[str, Any]:
        """The problem's members, in the order they are sent."""
        if self.kind is None:
            kind, title = "about:blank", _phrase(self.status)
        else:
            kind, title = TYPE_PREFIX + self.kind, PROBLEM_KINDS[self.kind]
        return {
            "type": kind,
            "title": title,
            "status": self.status,
            "detail": self.message,
            "error": self.message,
            **self.members,
        }

    def body(self) -> bytes:
        return _json.encode(self.problem())


def _phrase(status: int) -> str:
    """HTTP's phrase for ``status`` (what RFC 9457 asks of an ``about:blank`` title)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Client Closed Request" if status == 499 else "Error"


def refused(exc: MatchledgerError, *, match_id: str | None = None, rules: bool = False) -> Refused:
    """The answer for ``exc`` (``match_id``: the match the request named).  ``rules``: the
    error judges a submission, so bad input is a rules error too (422, its message)."""
    about = {"match": match_id} if match_id is not None else {}
    if isinstance(exc, UnknownMatch):
        return Refused(
            404, f"no match {match_id!r}" if match_id else "no such match", kind="unknown-match", members=about
        )
    if isinstance(exc, DatabaseBusy):
        return Refused(
            503, "the ledger is busy; try again in a moment", {"Retry-After": "2"}, kind="busy", reason=_busy(exc)
        )
    if isinstance(exc, UnwritableDatabase):
        return Refused(503, "the ledger cannot record anything at the moment", kind="unwritable")
    if isinstance(exc, DatabaseUnavailable):  # its message names the server: for the host's terminal only
        return Refused(
            503,
            "the ledger's database cannot be reached at the moment; try again shortly",
            {"Retry-After": "5"},
            kind="unreachable",
            reason="database connection lost" if isinstance(exc, ConnectionLost) else None,
        )
    if isinstance(exc, VerificationFailed):
        # No seq: the first bad one may lie past what this viewer may know of, and its
        # number would tell them how many events they may not see.  The host's `verify`
        # names it.
        return Refused(409, _unverified(exc, match_id), kind="log-does-not-verify", members=about)
    if isinstance(exc, CorruptLog):
        return Refused(500, "the ledger cannot be read", kind="unreadable")
    if isinstance(exc, LogConflict):
        return Refused(409, str(exc), kind="log-conflict", members=about)
    if isinstance(exc, Unavailable):  # a match of a game not installed here: said, not an internal error
        return Refused(503, str(exc), kind="unavailable", members=about)
    if isinstance(exc, (OutsideView, OutsideLog)):
        return Refused(400, _outside(exc), kind="outside-view", members={**about, "parameter": "at", "at": exc.at})
    if isinstance(exc, (MalformedInput, IllegalMove)):
        status = 422 if rules or isinstance(exc, IllegalMove) else 400
        kind = "refused-by-the-rules" if status == 422 else "malformed-input"
        return Refused(status, _detail(exc), kind=kind, members={**about, **_parameter(exc)})
    return Refused(500, "internal error")


def _busy(exc: DatabaseBusy) -> str:
    return BUSY_REASONS.get(getattr(exc, "cause", ""), LOG_REASONS["busy"])


def _outside(exc: OutsideView | OutsideLog) -> str:
    """``?at`` outside what the viewer may know of: the service's own refusal names the
    viewer; the core's (the whole log's range, a host's) names no range."""
    if isinstance(exc, OutsideView):
        return f"at={exc.at} is not the seq of an event {exc.viewer} may know of in match {exc.match!r}"
    return f"at={exc.at} is outside match {exc.match!r}"


#: A rules error that opens by citing its ruling, as the rules documents number them
#: (``W2: 'ann' cannot target their partner``).
_CITED = re.compile(r"([A-Z][0-9]{1,3}[a-z]?): (\S.*)", re.DOTALL)


def _detail(exc: MatchledgerError) -> str:
    if isinstance(exc, MatchFinished):  # the way back is the host's to take, from the command line
        return f"match {exc.match!r} is finished; nothing more can be recorded"
    return rule_last(str(exc))


def rule_last(message: str) -> str:
    """A rules error as the service words it: what is wrong first, the ruling it cites
    last (``'ann' cannot target their partner ('gift:zed') (rule W2)``).  A participant
    reads the sentence; a code as its opening word reads as a fault.  The command line
    keeps the code first, where hosts and auditors cite it."""
    cited = _CITED.fullmatch(message)
    return f"{cited[2]} (rule {cited[1]})" if cited else message


def _parameter(exc: MatchledgerError) -> dict[str, str]:
    named = _PARAMETERS.get(getattr(exc, "parameter", None) or "")
    return {"parameter": named} if named is not None and isinstance(exc, (TooManyTokens, InvalidToken)) else {}


def _unverified(exc: VerificationFailed, match_id: str | None) -> str:
    """That the log does not verify, and no more: where it stops, and a finding's details
    (which may quote an event's body), are for the host's `verify`."""
    match = match_id if match_id is not None else next((f.match_id for f in exc.findings), "this match")
    return (
        f"the log of {match!r} does not verify, so nothing from it is shown or decided "
        f"(the host's `matchledger verify {match}` tells more)"
    )
