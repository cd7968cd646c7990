"""What the service answers for each error of the one hierarchy: an HTTP status and a
message for whoever asked.  A message never names the database file (the CLI's do,
for the host), and an error the service did not expect says only that it happened."""

from __future__ import annotations

from matchledger.ledger.errors import (
    CorruptLog,
    DatabaseBusy,
    DatabaseUnavailable,
    IllegalMove,
    LogConflict,
    MalformedInput,
    MatchledgerError,
    Unavailable,
    UnknownMatch,
    UnwritableDatabase,
    VerificationFailed,
)


class Refused(Exception):
    """An HTTP answer other than success, raised by a handler: ``status`` and ``message``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


#: Status by error class, most specific first.
_STATUS = [
    (VerificationFailed, 409),  # the log does not verify: nothing from it is shown or decided
    (LogConflict, 409),
    (UnknownMatch, 404),
    (MalformedInput, 400),
    (IllegalMove, 422),
    (DatabaseBusy, 503),
    (DatabaseUnavailable, 503),
    (UnwritableDatabase, 503),
    (Unavailable, 503),  # a match of a game not installed here: said, not an internal error
    (CorruptLog, 500),
]


def refused(exc: MatchledgerError, *, match_id: str | None = None, rules: bool = False) -> Refused:
    """The answer for ``exc``.  ``rules``: the error judges a submission, so bad input
    is a rules error too (422, the CLI's message)."""
    if isinstance(exc, UnknownMatch):
        return Refused(404, f"no match {match_id!r}" if match_id else "no such match")
    if isinstance(exc, DatabaseBusy):
        return Refused(503, "the ledger is busy; try again in a moment", {"Retry-After": "2"})
    if isinstance(exc, UnwritableDatabase):
        return Refused(503, "the ledger cannot record anything at the moment")
    if isinstance(exc, DatabaseUnavailable):  # its message names the server: for the host's terminal only
        return Refused(
            503, "the ledger's database cannot be reached at the moment; try again shortly", {"Retry-After": "5"}
        )
    if isinstance(exc, VerificationFailed):
        return Refused(409, _unverified(exc, match_id))
    if isinstance(exc, CorruptLog) and not isinstance(exc, VerificationFailed):
        return Refused(500, "the ledger cannot be read")
    if rules and isinstance(exc, (MalformedInput, IllegalMove)):
        return Refused(422, str(exc))
    status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 500)
    return Refused(status, str(exc) if status != 500 else "internal error")


def _unverified(exc: VerificationFailed, match_id: str | None) -> str:
    """Where the log stops verifying, and no more: a finding's details may quote an
    event's body (one a viewer may not see), and those are for the host's `verify`."""
    seqs = [finding.seq for finding in getattr(exc, "findings", ()) if getattr(finding, "seq", None) is not None]
    match = match_id if match_id is not None else next((f.match_id for f in exc.findings), "this match")
    where = f"{match} seq {min(seqs)}: " if seqs else ""
    return (
        f"{where}the log of {match!r} does not verify, so nothing from it is shown or decided "
        f"(the host's `matchledger verify {match}` tells more)"
    )
