"""Files named on a command line, written atomically.

Whoever reads what we write may be hostile.  An output file is written to a temporary
file beside it and renamed into place, so a reader never sees half of it; never onto the
database in use or its -wal, -shm or -journal files, and never through a symbolic link.
"""

from __future__ import annotations

import os
from pathlib import Path

from matchledger.ledger.errors import MalformedInput

from .session import session

#: The files SQLite keeps beside a database while it is in use.
_DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")


def _file_name(text: str) -> str:
    if "\0" in text:  # no system call takes it, and Python raises ValueError
        raise MalformedInput(f"{text!r} is not a file name: it holds a NUL character")
    return text


# --------------------------------------------------------------------------- writing


def write_output(text: str, data: bytes) -> None:
    """Write ``data`` to the file named ``text``, all at once (a temporary file beside
    it, then a rename)."""
    path = Path(_file_name(text))
    try:
        refusal = _why_not_write(path)
        if refusal:
            raise MalformedInput(f"cannot write {text!r}: {refusal}")
        _replace_atomically(path, data)
    except OSError as exc:
        raise MalformedInput(f"cannot write {text!r}: {exc.strerror or exc}") from None


def _why_not_write(path: Path) -> str | None:
    if path.is_symlink():
        return "it is a symbolic link, and matchledger never writes through one"
    if path.is_dir():
        return "it is a folder"
    folder = path.absolute().parent
    if not folder.is_dir():
        return f"there is no folder {str(path.parent)!r}"
    if _is_database_file(path):
        return f"it is the database in use ({session().db!r}) or one of its files"
    return None


def _is_database_file(path: Path) -> bool:
    """Whether ``path`` is the database in use or a file SQLite keeps beside it, by real
    path or as the same file under another name."""
    real = os.path.realpath(path)
    for suffix in _DATABASE_COMPANIONS:
        companion = session().db + suffix
        if real == os.path.realpath(companion):
            return True
        try:
            if os.path.samefile(path, companion):
                return True
        except OSError:  # one of the two does not exist
            continue
    return False


def _replace_atomically(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    # O_EXCL: never onto a file or link someone put there; 0o666 less the umask, as for
    # any file a command writes.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)  # replaces a link put there meanwhile, never its target
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
