"""One error hierarchy for the whole project.

Every error a user can cause derives from :class:`MatchledgerError`; the CLI turns
each into one line on stderr and an exit code, never a traceback.  Messages quote the
offending value so a host can fix the line they typed.
"""


class MatchledgerError(Exception):
    """Root of every error matchledger raises on purpose."""

    exit_code = 1


class MalformedInput(MatchledgerError):
    """Input that cannot be understood: a bad token, option, file or JSON body."""


class IllegalMove(MatchledgerError):
    """Well-formed input that the game's rules forbid at this point of the match."""


class UnknownMatch(MatchledgerError):
    """A match id that the database does not hold."""


class LogConflict(MatchledgerError):
    """Another writer appended to the match first (optimistic concurrency lost)."""


class CorruptLog(MatchledgerError):
    """The stored log cannot be read: an undecodable body, an unknown tag, a bad file."""


class ForeignDatabase(CorruptLog):
    """A file that is not a matchledger database (not SQLite, another program's, empty),
    or a database whose tables are not ours or of a schema version this matchledger
    does not read: refused before anything could change it."""


class DatabaseBusy(MatchledgerError):
    """Another connection held the database's write lock for longer than the lock timeout."""


class DatabaseUnavailable(MatchledgerError):
    """A database server that cannot be reached, refuses the login, has no such
    database, or lost the connection."""


class UnwritableDatabase(MatchledgerError):
    """A write asked of a database this process cannot write: a read-only file or
    folder, or a full disk."""


class Unavailable(MatchledgerError):
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


class VerificationFailed(MatchledgerError):
    """`verify` found a discrepancy; carries the findings."""

    exit_code = 3

    def __init__(self, message: str, findings=()):
        super().__init__(message)
        self.findings = list(findings)
