"""What the global options decided, shared by every subcommand and every `script` line:
the database, the actor, the log format, and the folder of the script being run."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from matchledger.ledger.limits import LOCK_TIMEOUT_SECONDS

if TYPE_CHECKING:
    from matchledger.projections.application import Application

#: How long a command waits for another writer's lock, in seconds, when not
#: LOCK_TIMEOUT_SECONDS (a test holding a lock need not wait that long).
LOCK_TIMEOUT_VARIABLE = "MATCHLEDGER_LOCK_TIMEOUT"


class Session:
    def __init__(self, db: str, actor: str, log_json: bool):
        self.db = db
        self.actor = actor
        self.log_json = log_json
        self.lock_timeout = _lock_timeout()
        #: the folder of the script being run, if any: files it names are looked up there too
        self.script_folder: Path | None = None
        self._application: Application | None = None

    def application(self, create: bool = False, write: bool = False) -> Application:
        """The application on the --db file or PostgreSQL database.  A read opens it
        read-only and never changes it; a command that writes passes ``write``, and only
        commands that may start a file (init, new, import, script, demo) pass ``create``."""
        if self._application is None:
            # The store, the engines and the fold are loaded here, when a command first
            # needs them, not when the command line starts (`--help` needs none of them).
            from matchledger.projections.application import Application

            self._application = Application.open(
                self.db,
                create=create,
                read_only=not (create or write),
                lock_timeout=self.lock_timeout,
                actor=self.actor,
            )
        return self._application

    def close(self) -> None:
        """The command is done: the store may let go of its connection."""
        if self._application is not None:
            application, self._application = self._application, None
            application.command_ended()

    @contextlib.contextmanager
    def running_script(self, folder: Path) -> Iterator[None]:
        before, self.script_folder = self.script_folder, folder
        try:
            yield
        finally:
            self.script_folder = before


def _lock_timeout() -> float:
    text = os.environ.get(LOCK_TIMEOUT_VARIABLE)
    if text is None:
        return LOCK_TIMEOUT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise click.UsageError(f"{LOCK_TIMEOUT_VARIABLE} must be a number of seconds above 0, got {text!r}")
    return seconds


def session() -> Session:
    return click.get_current_context().find_root().obj


def app(create: bool = False, write: bool = False) -> Application:
    return session().application(create, write)
