"""What the global options decided, shared by every subcommand and every `script` line:
the database, the actor, the log format, and where files named on a line are found."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import click

if TYPE_CHECKING:
    from matchledger.projections.application import Application


class Session:
    def __init__(self, db: str, actor: str, log_json: bool):
        self.db = db
        self.actor = actor
        self.log_json = log_json
        #: the folder of the script being run, if any: files it names are looked up there too
        self.script_folder: Path | None = None
        self._application: Application | None = None

    def application(self, create: bool = False) -> Application:
        """The application on the --db file.  Only commands that may start a file (init,
        new, import, script, demo) pass ``create``: a read never leaves a file behind."""
        if self._application is None:
            # The store, the engines and the fold are loaded here, when a command first
            # needs them, not when the command line starts (`--help` needs none of them).
            from matchledger.ledger.store import Store
            from matchledger.projections.application import Application

            self._application = Application(Store(self.db, create=create), actor=self.actor)
        return self._application

    @contextlib.contextmanager
    def running_script(self, folder: Path) -> Iterator[None]:
        before, self.script_folder = self.script_folder, folder
        try:
            yield
        finally:
            self.script_folder = before

    def resolve_path(self, text: str) -> Path:
        """A file named on a command line.  Inside `script FILE`, a relative name that does
        not exist from the current folder is looked up beside the script, then in the
        folders above it (so a fixture naming `fixtures/lca/studio.txt` runs from anywhere)."""
        path = Path(text)
        if path.exists() or path.is_absolute() or self.script_folder is None:
            return path
        for folder in (self.script_folder, *self.script_folder.parents):
            if (folder / path).exists():
                return folder / path
        return path


def session() -> Session:
    return click.get_current_context().find_root().obj


def app(create: bool = False) -> Application:
    return session().application(create)
