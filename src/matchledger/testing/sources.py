"""Where histories come from: a matchledger database, an exported JSON Lines file, or a
folder of them; each opened the way the command line opens it for reading.

A database is opened as read commands open it (never created, and through the store
that refuses a file that is not a matchledger database).  An export is verified before
anything of it is used, as `import` verifies it, then replayed from a database in
memory: the file itself is only read.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import EXPORT_FILE_MAX_BYTES
from matchledger.ledger.portable import parse_lines
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from matchledger.projections.verification import verify_export

EXPORT_SUFFIX = ".jsonl"
SQLITE_HEADER = b"SQLite format 3\x00"


def history_files(path: Path) -> list[Path]:
    """``path`` itself, or the histories in the folder ``path`` (not its subfolders):
    its ``.jsonl`` files and its SQLite databases, by name."""
    if not path.is_dir():
        return [path]
    return sorted(entry for entry in path.iterdir() if entry.is_file() and _looks_like_history(entry))


def match_ids(path: Path) -> list[str]:
    """The matches a history file holds (an export holds one)."""
    if path.suffix == EXPORT_SUFFIX:
        return [parse_lines(_export_bytes(path), str(path))[0].match_id]
    with opened(path) as application:
        return application.match_ids()


@contextlib.contextmanager
def opened(path: Path) -> Iterator[Application]:
    """The application on the history file ``path``."""
    if path.suffix == EXPORT_SUFFIX:
        export = verify_export(_export_bytes(path), str(path))  # a broken chain stops here
        store = Store(":memory:")
        application = Application(store)
        application.import_verified(export)
    else:
        store = Store(path, read_only=True)
        application = Application(store)
    try:
        yield application
    finally:
        store.close()


def _export_bytes(path: Path) -> bytes:
    try:
        if path.stat().st_size > EXPORT_FILE_MAX_BYTES:
            raise MalformedInput(f"{path} is larger than an export may be ({EXPORT_FILE_MAX_BYTES} bytes)")
        return path.read_bytes()
    except OSError as exc:
        raise MalformedInput(f"cannot read {path}: {exc.strerror or exc}") from None


def _looks_like_history(path: Path) -> bool:
    if path.suffix == EXPORT_SUFFIX:
        return True
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False
