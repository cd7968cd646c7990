"""Where histories come from: a matchledger database (a SQLite file or a PostgreSQL URL),
an exported JSON Lines file, or a folder of them; each opened the way the command line
opens it for reading.

A database is opened as read commands open it, through the one factory that chooses a
back end (``open_store``): never created, read-only, and a file that is not a
matchledger database is refused.  An export is verified before anything of it is used,
as `import` verifies it, then replayed from a database in memory: the file itself is
only read.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard
from urllib.parse import unquote, urlsplit

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import EXPORT_FILE_MAX_BYTES
from matchledger.ledger.portable import parse_lines
from matchledger.ledger.postgres_urls import is_postgres_url, printable_url
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from matchledger.projections.verification import verify_export

EXPORT_SUFFIX = ".jsonl"
SQLITE_HEADER = b"SQLite format 3\x00"
#: The database an export is replayed from: SQLite's, in memory.
IN_MEMORY = ":memory:"

#: A history: a file or folder, or a database's URL.
Source = Path | str


def source_of(text: str | Path) -> Source:
    """What a PATH given on the command line names: a URL stays text, anything else is a path."""
    return text if isinstance(text, str) and is_url(text) else Path(text)


def is_url(source: Source) -> TypeGuard[str]:
    return isinstance(source, str) and is_postgres_url(source)


def source_name(source: Source) -> str:
    """How messages name ``source``: a file by its name, a URL without its password."""
    return printable_url(source) if is_url(source) else Path(source).name


def database_name(url: str) -> str:
    """The name of the database ``url`` names (``league`` for ``postgresql://host/league``),
    or ``postgresql`` when it names none (the server's default), made a safe folder name:
    its snapshots are kept in a folder so named, so a name such as ``../../x`` (a
    database may be called anything) must not reach outside the run's root folder."""
    try:
        name = unquote(urlsplit(url).path.lstrip("/"))
    except ValueError:
        name = ""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".")
    return safe or "postgresql"


def history_files(path: Path) -> list[Path]:
    """``path`` itself, or the histories in the folder ``path`` (not its subfolders):
    its ``.jsonl`` files and its SQLite databases, by name."""
    if not path.is_dir():
        return [path]
    return sorted(entry for entry in path.iterdir() if entry.is_file() and _looks_like_history(entry))


def match_ids(source: Source) -> list[str]:
    """The matches a history holds (an export holds one)."""
    if _is_export(source):
        return [parse_lines(_export_bytes(Path(source)), str(source))[0].match_id]
    with opened(source) as application:
        return application.match_ids()


@contextlib.contextmanager
def opened(source: Source) -> Iterator[Application]:
    """The application on the history ``source``, as a read command opens it."""
    if _is_export(source):
        path = Path(source)
        export = verify_export(_export_bytes(path), str(path))  # a broken chain stops here
        store = open_store(IN_MEMORY)
        application = Application(store)
        application.import_verified(export)
    else:
        store = open_store(str(source), create=False, read_only=True)
        application = Application(store)
    try:
        yield application
    finally:
        store.close()


def _is_export(source: Source) -> bool:
    return not is_url(source) and Path(source).suffix == EXPORT_SUFFIX


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
