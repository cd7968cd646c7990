"""Files named on a command line: read bounded and as UTF-8 text, written atomically.

Whoever hands us a file (or a script naming files) may be hostile, and so may whoever
reads what we write.  So a file read is refused past its size limit without being read
through, and must be UTF-8 (a leading byte-order mark, which some editors add, is
dropped).  An output file is written to a temporary file beside it and renamed into
place, so a reader never sees half of it; never onto the database in use or its -wal,
-shm or -journal files, and never through a symbolic link.  Inside `script FILE`, files
are read and written only within the script's folder and the current folder.
A folder on the way to an output that is a symbolic link is refused too, and the
database's own files are found by its real path (a ``--db`` that is a link writes its
-wal beside the link's target).
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.postgres_urls import is_postgres_url

from .session import session

_BOM = b"\xef\xbb\xbf"
#: The files SQLite keeps beside a database while it is in use.
_DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")


# --------------------------------------------------------------------------- reading


def read_bytes(text: str, what: str, max_bytes: int) -> bytes:
    """The UTF-8 bytes of the file named ``text`` (a ``what``, e.g. "studio file"),
    without a leading byte-order mark; a file larger than ``max_bytes`` is refused."""
    try:
        with _opened(input_path(text, what)) as file:
            data = file.read(max_bytes + 1)
    except IsADirectoryError:
        raise MalformedInput(f"cannot read {what} {text!r}: it is a folder") from None
    except OSError as exc:
        raise MalformedInput(f"cannot read {what} {text!r}: {exc.strerror or exc}") from None
    return _bounded_utf8(data, f"{what} {text!r}", max_bytes)


def _opened(path: Path):
    """``path`` opened for reading without waiting for a writer: open() of a named pipe
    nobody has open for writing would wait for one for ever (a script handed to the host
    may name one beside it), so such a pipe reads as empty.  The read itself blocks as
    usual, so a pipe with a writer is read through."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)  # POSIX; elsewhere there are no named pipes to wait on
    descriptor = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    try:
        if nonblocking:
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_stdin_bytes(what: str, max_bytes: int) -> bytes:
    """:func:`read_bytes` of standard input (named `-` on a command line)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # started without one (a closed descriptor 0)
        raise MalformedInput(f"cannot read {what} from standard input: there is none")
    data = stream.read(max_bytes + 1)
    return _bounded_utf8(data, f"{what} on standard input", max_bytes)


def _bounded_utf8(data: bytes, named: str, max_bytes: int) -> bytes:
    """``data`` (read up to one byte past ``max_bytes``) without a leading byte-order
    mark, once it is within the limit and UTF-8."""
    if len(data) > max_bytes:
        raise MalformedInput(f"{named} is larger than the limit of {max_bytes} bytes")
    data = data.removeprefix(_BOM)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedInput(f"{named} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start})") from None
    return data


def read_text(text: str, what: str, max_bytes: int) -> str:
    """The text of the file named ``text``: :func:`read_bytes`, decoded."""
    return read_bytes(text, what, max_bytes).decode("utf-8")


def input_path(text: str, what: str) -> Path:
    """Where the file named ``text`` is.  Inside `script FILE`, a relative name not found
    from the current folder is looked up beside the script, then in the folders above it
    (so a fixture naming `fixtures/lca/studio.txt` runs from anywhere); the first file
    found must lie within the script's folder or the current folder."""
    path = Path(_file_name(text))
    script_folder = session().script_folder
    if script_folder is None:
        return path
    bases = [Path()] if path.is_absolute() else [Path(), script_folder, *script_folder.parents]
    for base in bases:
        if _exists(base / path):
            found = (base / path).resolve()
            if not _within_script_reach(found, script_folder):
                raise MalformedInput(f"{what} {text!r} is outside the script's folder and the current folder")
            return found
    return path


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # e.g. a name too long: not a file to find here
        return False


def _file_name(text: str) -> str:
    if "\0" in text:  # no system call takes it, and Python raises ValueError
        raise MalformedInput(f"{text!r} is not a file name: it holds a NUL character")
    if not text:  # a Path of it would be the current folder
        raise MalformedInput("'' is not a file name: it is empty")
    return text


def _within_script_reach(real: Path, script_folder: Path) -> bool:
    """Whether a real path (no symbolic link, no `..`) lies within the script's folder
    or the current folder."""
    return any(real.is_relative_to(folder.resolve()) for folder in (script_folder, Path.cwd()))


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
    script_folder = session().script_folder
    if script_folder is not None and not _within_script_reach(folder.resolve(), script_folder):
        return "it is outside the script's folder and the current folder"
    linked = _linked_folder(path)
    if linked is not None:
        return f"folder {str(linked)!r} on its way is a symbolic link, and matchledger never writes through one"
    if _is_database_file(path):
        return f"it is the database in use ({session().db!r}) or one of its files"
    return None


def _linked_folder(path: Path) -> Path | None:
    """The first folder of ``path`` as it was named (``linkdir`` of ``linkdir/x.svg``, any
    folder of an absolute path) that is a symbolic link: a write there lands in the
    link's target, wherever whoever made the link chose."""
    for folder in reversed(path.parents):
        if folder.name and folder.name != ".." and folder.is_symlink():
            return folder
    return None


def _is_database_file(path: Path) -> bool:
    """Whether ``path`` is the database in use or a file SQLite keeps beside it, by real
    path or as the same file under another name.  SQLite keeps the -wal, -shm and
    -journal of a database named through a symbolic link beside the link's target, so
    the suffixes are added to its real path as well as to the name it was given."""
    if is_postgres_url(session().db):  # the database is on a server, not in a file here
        return False
    real = os.path.realpath(path)
    named, resolved = session().db, os.path.realpath(session().db)
    for suffix in _DATABASE_COMPANIONS:
        if real in (os.path.realpath(named + suffix), resolved + suffix):
            return True
        for companion in (named + suffix, resolved + suffix):
            try:
                if os.path.samefile(path, companion):
                    return True
            except OSError:  # one of the two does not exist
                continue
    return False


def _replace_atomically(path: Path, data: bytes) -> None:
    temporary = _write_temporary(path, data)
    try:
        os.replace(temporary, path)  # replaces a link put there meanwhile, never its target
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _write_temporary(path: Path, data: bytes) -> Path:
    """``data`` in a new temporary file beside ``path``, synced to disk."""
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    # O_EXCL: never onto a file or link someone put there; 0o666 less the umask, as for
    # any file a command writes.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def write_outputs(folder_text: str, files: dict[str, bytes], *, replace: bool) -> list[Path]:
    """Write each file (name -> data; a plain name, no folder) into the folder named
    ``folder_text``, made when missing (its parent must exist).  Every file is checked
    before any is written (as :func:`write_output` checks one; and, unless ``replace``,
    none may exist yet), then all are written to temporary files and only then renamed
    into place: a refusal, or a failure while writing, leaves none of them written and
    no temporary file (a folder made for them is removed again)."""
    folder = Path(_file_name(folder_text))
    paths = {name: folder / _plain_name(name) for name in files}
    made = False
    try:
        made = _make_output_folder(folder, folder_text)
        for _name, path in paths.items():
            refusal = _why_not_write(path)
            if refusal is None and not replace and (path.exists() or path.is_symlink()):
                refusal = "it already exists (--force replaces it); nothing was written"
            if refusal:
                raise MalformedInput(f"cannot write {str(path)!r}: {refusal}")
        _write_all(paths, files)
    except BaseException as exc:
        if made:
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            raise MalformedInput(f"cannot write into {folder_text!r}: {exc.strerror or exc}") from None
        raise
    return list(paths.values())


def _write_all(paths: dict[str, Path], files: dict[str, bytes]) -> None:
    """Every file to a temporary file first, then each renamed into place."""
    written: list[tuple[Path, Path]] = []
    try:
        for name, path in paths.items():
            written.append((_write_temporary(path, files[name]), path))
        for temporary, path in written:
            os.replace(temporary, path)
    except BaseException:
        for temporary, _path in written:
            temporary.unlink(missing_ok=True)
        raise


def _plain_name(name: str) -> str:
    """A file name with no folder in it: anything else is a bug of the caller."""
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise ValueError(f"{name!r} is not a plain file name")
    return name


def _make_output_folder(folder: Path, text: str) -> bool:
    """Make the folder to write into unless it is there; whether it was made."""
    if folder.is_dir():
        return False
    if folder.exists() or folder.is_symlink():
        raise MalformedInput(f"cannot write into {text!r}: it is not a folder")
    parent = folder.absolute().parent
    if not parent.is_dir():
        raise MalformedInput(f"cannot write into {text!r}: there is no folder {str(folder.parent)!r}")
    script_folder = session().script_folder
    if script_folder is not None and not _within_script_reach(parent.resolve(), script_folder):
        raise MalformedInput(f"cannot write into {text!r}: it is outside the script's folder and the current folder")
    folder.mkdir()
    return True
