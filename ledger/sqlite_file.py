"""Opening a database file: matchledger's own, or a refusal that leaves the file unchanged.

Whoever hands us a database may be hostile, and a file that is not ours may belong to
another program that our triggers or a switch to WAL would break.  So:

- every database matchledger creates carries SQLite's ``application_id``
  (:data:`APPLICATION_ID`), set in the transaction that creates its table and triggers;
- a file is ours when it carries the mark and our ``events`` table; or when, made by a
  matchledger from before the mark, it has no mark but exactly our ``events`` table and
  both append-only triggers (a write then marks it);
- and its schema holds nothing but what matchledger makes (:data:`SCHEMA`), each object
  exactly as we make it: a trigger of its own on ``events`` (one that plants a link
  on every insert, or an ``events_no_update`` that never fires), an index, a view or a
  table we do not make is refused by every read and write, naming it;
- anything else is refused, naming the file, before anything could change it: the header
  is read as plain bytes first, and a file that needs a closer look is opened read-only
  (``immutable`` where SQLite would otherwise leave -wal and -shm files beside it);
- a read opens the file read-only (``mode=ro``) and changes nothing; only a write creates
  a file, and only where there is none (or an empty one);
- a file records its schema version in ``PRAGMA user_version``: a write brings an earlier
  one up to date (:mod:`.migrations`), a read reads it as it is, and a file of a newer
  version is refused by both, naming the versions.

The texts of what we make are :mod:`.sqlite_schema`'s.
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
import weakref
from pathlib import Path

from msgspec import Struct

from . import migrations
from .errors import CorruptLog, DatabaseBusy, ForeignDatabase, MatchledgerError, NoDatabase, UnwritableDatabase
from .sqlite_schema import APPLICATION_ID, SCHEMA, TRIGGERS

#: Tables SQLite itself makes and keeps (`ANALYZE`'s statistics): data for its query
#: planner, never run as code.
_SQLITE_TABLES = {"sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"}

_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100
# Where the header keeps the journal mode (2 = WAL) and the application_id.
_WRITE_VERSION_AT = 18
_APPLICATION_ID_AT = slice(68, 72)

# SQLite's primary result codes.
_PERM, _BUSY, _LOCKED, _READONLY, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 3, 5, 6, 8, 11, 13, 14, 26


class _Contents(Struct, frozen=True):
    """What an SQLite file holds, as far as telling ours from another's goes."""

    marked: bool  # it carries APPLICATION_ID
    empty: bool  # no table, index, trigger or view at all
    any_events_table: bool  # a table named ``events``
    events_table: bool  # exactly our ``events`` table
    missing_triggers: list[str]
    foreign_objects: list[str] = []  # what the schema holds that we do not make, worded
    stamped: int = 0  # PRAGMA user_version: the schema version a write recorded (0: none)

    @property
    def newer(self) -> bool:
        """Whether it is ours (by the mark) but of a schema version newer than ours."""
        return self.marked and self.stamped > migrations.sqlite_version()

    @property
    def version(self) -> int:
        """Its schema version: as recorded, or (in a file from before versions were
        recorded) version 2 with the mark and 1 without, the one layout made unmarked."""
        if self.empty:
            return 0
        return max(self.stamped, 2) if self.marked else 1

    @property
    def current(self) -> bool:
        """Whether a write finds nothing to migrate or repair."""
        return (
            self.marked
            and self.events_table
            and not self.missing_triggers
            and not self.foreign_objects
            and self.stamped == migrations.sqlite_version()
        )

    def refusal(self) -> str | None:
        """Why a read must refuse the file (None: it is ours; see also :attr:`newer`)."""
        # Every version matchledger records is recorded with the mark (version 2 made the
        # mark), and none is below 0: a version without the mark, or a negative one, was
        # written by someone else, and a write must not take it for one to migrate.
        if self.stamped < 0 or (self.stamped and not self.marked and not self.empty):
            return f"it records schema version {self.stamped} (user_version), which no matchledger " + (
                "writes" if self.stamped < 0 else "records without its mark (application_id)"
            )
        if self.events_table and self.foreign_objects:
            return (
                f"it holds {self.foreign_objects[0]}, which matchledger does not make (a trigger, index, view "
                "or table of someone else's could change what is written or read)"
            )
        if self.events_table and (self.marked or not self.missing_triggers):
            return None
        if self.empty:
            return "it holds no matchledger tables" if self.marked else "it is an empty SQLite database"
        if self.any_events_table and not self.events_table:
            return "its events table is not matchledger's"
        if not self.events_table:
            return "it has no events table"
        return "it has no matchledger mark (application_id) and lacks the append-only triggers"


# --------------------------------------------------------------------------- opening


def open_for_reading(path: str, lock_timeout: float) -> sqlite3.Connection:
    """A read-only connection to the matchledger database at ``path``."""
    header = _header(path)
    if header is None:
        raise NoDatabase(path)
    if not header:
        raise _refused(path, "it is empty")
    if not _marked(path, header):
        _inspect_unmarked(path, lock_timeout)
    conn = _connect_read_only(path, lock_timeout)
    try:
        contents = _contents(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise database_error(path, exc, lock_timeout) from None
    try:
        _refuse_unless_ours(path, contents)
    except ForeignDatabase:
        conn.close()
        raise
    return conn


def open_for_writing(path: str, lock_timeout: float, *, create: bool) -> sqlite3.Connection:
    """A connection that may write to the matchledger database at ``path``; with
    ``create``, one made there if there is none or the file is empty."""
    if path == ":memory:":
        conn = sqlite3.connect(path, isolation_level=None)
        _prepare(conn, path, lock_timeout, new=True)
        return conn
    found = _header(path)
    if found is None and not create:
        raise NoDatabase(path)
    header = found or b""  # no file at all, or an empty one: either is made anew
    new = not header
    if new and not create:
        raise _refused(path, "it is empty")
    if new and not Path(path).absolute().parent.is_dir():
        raise CorruptLog(f"cannot create {path!r}: folder {str(Path(path).parent)!r} does not exist")
    if not new and not _marked(path, header):
        _inspect_unmarked(path, lock_timeout)
    try:
        conn = _connect(path, "rwc" if new else "rw", lock_timeout)
        try:
            # A ledger keeps what it acknowledged: every COMMIT is synced to disk, so a
            # power cut cannot lose a command the host saw recorded.  (WAL with NORMAL
            # would be ~10x cheaper per commit; see docs/performance.md for the trade-off.)
            conn.execute("PRAGMA synchronous = FULL")
            _prepare(conn, path, lock_timeout, new=new)
            if new or header[_WRITE_VERSION_AT] != 2:
                conn.execute("PRAGMA journal_mode = WAL")
        except BaseException:
            conn.close()
            raise
    except sqlite3.Error as exc:
        raise database_error(path, exc, lock_timeout) from None
    return conn


def schema_state(conn: sqlite3.Connection) -> tuple[int, int]:
    """SQLite's count of schema changes made to the file (any connection's), and the
    schema version recorded in it."""
    return conn.execute("SELECT * FROM pragma_schema_version, pragma_user_version").fetchone()


def check_schema(conn: sqlite3.Connection, path: str) -> None:
    """Refuse the file (ForeignDatabase) if its schema now holds anything we do not make,
    or is of a newer version: a writer that holds a connection looks again, under its
    write lock, whenever :func:`schema_state` moved since it last looked (a trigger
    planted while it runs, a newer matchledger that migrated the file meanwhile)."""
    _refuse_unless_ours(path, _contents(conn))


def database_error(path: str, exc: sqlite3.Error, lock_timeout: float) -> MatchledgerError:
    """The error a user sees for what SQLite reported about the database at ``path``."""
    code = _code(exc)
    if code in (_BUSY, _LOCKED):
        return DatabaseBusy(
            f"database {path!r} is busy: another connection has held its lock for more than "
            f"{lock_timeout:g} s; try again"
        )
    if code in (_READONLY, _PERM):
        return UnwritableDatabase(f"cannot write to {path!r}: the file or its folder is read-only here ({exc})")
    if code == _FULL:
        return UnwritableDatabase(f"cannot write to {path!r}: the disk is full")
    if code == _CANTOPEN:
        return CorruptLog(f"cannot open {path!r}: {exc}")
    return CorruptLog(f"cannot read {path!r}: {exc}")


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of ``exc`` (0 when it carries none)."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


# --------------------------------------------------------------------------- telling ours from another's


def _refused(path: str, why: str) -> ForeignDatabase:
    return ForeignDatabase(f"cannot open {path!r} as a matchledger database: {why}; the file was left unchanged")


def _refuse_unless_ours(path: str, contents: _Contents) -> None:
    """Raise unless ``contents`` are a matchledger database of a version this one reads."""
    if contents.newer:
        raise migrations.NewerSchema(path, contents.stamped, migrations.sqlite_version())
    why = contents.refusal()
    if why:
        raise _refused(path, why)


def _header(path: str) -> bytes | None:
    """The file's first bytes, read as a plain file (None: there is no file).  Read
    through the descriptor this process holds when it has a connection to the file
    already (see :class:`_Connection`): closing another would drop SQLite's locks."""
    try:
        held = _HELD.get(_identity(os.stat(path)))
        if held is not None:
            return os.pread(held[0], _HEADER_SIZE, 0)
        with open(path, "rb") as file:
            return file.read(_HEADER_SIZE)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CorruptLog(f"cannot open {path!r} as a matchledger database: it is a folder") from None
    except OSError as exc:
        raise CorruptLog(f"cannot read {path!r}: {exc.strerror or exc}") from None


# POSIX record locks belong to a process, and closing any descriptor of a file drops every
# lock the process holds on it, SQLite's included.  A process with two connections to one
# database (the service's reader and writer) that read the header of the file as a plain
# file again would let another process take the database for unused, checkpoint it and
# delete the WAL under its connections.  So while a process has a connection to a file
# it also holds one descriptor of it, through which the header is read, and closes that
# descriptor only when its last connection to the file is gone.
_HELD: dict[tuple[int, int], list[int]] = {}  # (device, inode) -> [descriptor, connections]


def _identity(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino


class _Connection(sqlite3.Connection):
    """A connection counted in :data:`_HELD` while it is open."""

    def hold(self, path: str) -> None:
        # Never a descriptor opened and closed again here: the close would drop the locks.
        try:
            key = _identity(os.stat(path))
            held = _HELD.get(key)
            if held is None:
                _HELD[key] = held = [os.open(path, os.O_RDONLY), 0]
        except OSError:
            return  # nothing held: the file's header is read as a plain file again
        held[1] += 1
        self._release = weakref.finalize(self, _release, key)

    def close(self) -> None:
        super().close()
        release = getattr(self, "_release", None)
        if release is not None:
            release()


def _release(key: tuple[int, int]) -> None:
    held = _HELD.get(key)
    if held is None:
        return
    held[1] -= 1
    if held[1] <= 0:
        del _HELD[key]
        os.close(held[0])


def _marked(path: str, header: bytes) -> bool:
    """Whether the header carries our mark; refuses a file that is not SQLite or carries
    another program's.  (A mark set by a write not yet checkpointed is still in the -wal
    file: the header then says 0 and the file is inspected.)"""
    if len(header) < _HEADER_SIZE or not header.startswith(_SQLITE_MAGIC):
        raise _refused(path, "it is not an SQLite file")
    application_id = int.from_bytes(header[_APPLICATION_ID_AT], "big")
    if application_id not in (0, APPLICATION_ID):
        raise _refused(path, f"its SQLite application_id is {application_id:#010x}, another program's")
    return application_id == APPLICATION_ID


def _inspect_unmarked(path: str, lock_timeout: float) -> None:
    """Refuse an SQLite file without our mark unless it is a matchledger database made
    before the mark.  Opened read-only, and immutable when it has no -wal file: SQLite
    would otherwise leave -wal and -shm files beside a WAL database that is not ours."""
    immutable = not os.path.exists(path + "-wal")
    try:
        conn = _connect(path, "ro&immutable=1" if immutable else "ro", lock_timeout)
        try:
            contents = _contents(conn)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        if _code(exc) in (_NOTADB, _CORRUPT):
            raise _refused(path, f"SQLite cannot read it ({exc})") from None
        raise database_error(path, exc, lock_timeout) from None
    _refuse_unless_ours(path, contents)


def _contents(conn: sqlite3.Connection) -> _Contents:
    marked, stamped = conn.execute("SELECT * FROM pragma_application_id, pragma_user_version").fetchone()
    marked = marked == APPLICATION_ID
    objects = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    ours = {(kind, name) for kind, name, table, sql in objects if _is_ours(kind, name, table, sql)}
    foreign = [
        _worded(kind, name, table, (kind, name) in SCHEMA)
        for kind, name, table, sql in objects
        if (kind, name) not in ours and not (kind == "table" and name in _SQLITE_TABLES)
    ]
    any_events_table = any(kind == "table" and name == "events" for kind, name, _table, _sql in objects)
    events_table = ("table", "events") in ours
    triggers = {name for kind, name in ours if kind == "trigger"}
    missing_triggers = sorted(set(TRIGGERS) - triggers)
    return _Contents(marked, not objects, any_events_table, events_table, missing_triggers, foreign, stamped)


def _is_ours(kind: str, name: str, table: str, sql: str | None) -> bool:
    """Whether a row of ``sqlite_master`` is an object matchledger makes, exactly so."""
    expected = SCHEMA.get((kind, name))
    if expected is None:
        return False
    expected_table, expected_sql = expected
    if table != expected_table:
        return False
    if expected_sql is None or sql is None:
        return expected_sql is None and sql is None
    return _normalized(sql) == _normalized(expected_sql)


@functools.lru_cache(maxsize=64)  # every open checks the same few statements: spelled once
def _normalized(sql: str) -> str:
    """A CREATE statement spelled one way: SQLite keeps the text as it was typed (less
    ``IF NOT EXISTS``), and the ``events`` table was written ``"name"`` by one version of
    sqlite-utils and ``[name]`` by an older one.  Identifiers unquoted, whitespace runs
    as one space and none beside punctuation, case folded (keywords have none)."""
    sql = re.sub(r'"(\w+)"|\[(\w+)\]|`(\w+)`', lambda m: m.group(1) or m.group(2) or m.group(3), sql)
    sql = re.sub(r"\s+", " ", sql.replace("IF NOT EXISTS ", ""))
    return re.sub(r" ?([(),;]) ?", r"\1", sql).strip().rstrip(";").lower()


def _worded(kind: str, name: str, table: str, ours_by_name: bool) -> str:
    on = f" on table {table!r}" if kind in ("trigger", "index") else ""
    if ours_by_name:
        return f"{kind} {name!r}{on} written otherwise than matchledger writes it"
    return f"{kind} {name!r}{on}"


# --------------------------------------------------------------------------- connecting and preparing


def _connect(path: str, mode: str, lock_timeout: float) -> sqlite3.Connection:
    # isolation_level=None: the store issues BEGIN and COMMIT itself, one per command.
    # check_same_thread=False: `serve` opens its reading connection before it serves and
    # then uses it on its one reading thread alone (never two threads at once).
    uri = f"{Path(path).absolute().as_uri()}?mode={mode}"
    conn = sqlite3.connect(
        uri, uri=True, isolation_level=None, timeout=lock_timeout, factory=_Connection, check_same_thread=False
    )
    conn.hold(path)
    return conn


def _connect_read_only(path: str, lock_timeout: float) -> sqlite3.Connection:
    conn = _connect(path, "ro", lock_timeout)
    try:
        conn.execute("PRAGMA application_id").fetchone()  # the first read opens the WAL index
        return conn
    except sqlite3.Error as exc:
        conn.close()
        if _code(exc) not in (_READONLY, _CANTOPEN) or os.path.exists(path + "-wal"):
            raise database_error(path, exc, lock_timeout) from None
    # A folder this process may not write: SQLite cannot make the WAL index there.  With
    # no -wal file nobody has the database open for writing, and its file is all of it.
    try:
        return _connect(path, "ro&immutable=1", lock_timeout)
    except sqlite3.Error as exc:
        raise database_error(path, exc, lock_timeout) from None


def _prepare(conn: sqlite3.Connection, path: str, lock_timeout: float, *, new: bool) -> None:
    """Bring the file to this matchledger's schema if it is not there yet: run the
    migrations after its version (in a new file, all of them: :mod:`.migrations`) and
    record the version, and give a file that is ours by its mark back the triggers it
    lost (a crash between creating the table and its triggers, in a version that made
    them apart).  One transaction, decided again under the write lock: two writers
    migrating one file migrate it once, and a file that turned out not to be ours, or of
    a newer version, is left as it was."""
    contents = _contents(conn)
    if contents.current:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        contents = _contents(conn)
        if contents.empty and (new or contents.marked):
            found = 0
        else:
            _refuse_unless_ours(path, contents)
            found = contents.version
        migrations.migrate_sqlite(conn, found)
        if found:  # a new file's triggers were made by its first migration
            for name in contents.missing_triggers:
                conn.execute(TRIGGERS[name])
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
