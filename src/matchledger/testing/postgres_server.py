"""A throwaway PostgreSQL server for tests and benchmarks: a cluster in a temporary
folder, listening on a free 127.0.0.1 port (its socket in the same folder), removed by
``remove()``.

The server binaries (``initdb``, ``pg_ctl``) are looked for in ``$MATCHLEDGER_PG_BIN``,
on ``PATH``, then in Debian's versioned folders (``/usr/lib/postgresql/<version>/bin``).
PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres``
user and every server command runs as that user.

In the cluster, ``postgres`` logs in from 127.0.0.1 without a password (``trust``);
every other role needs its password (``scram-sha-256``), so a test can see a login
refused.  ``durable=False`` (tests) turns off fsync, which only matters when the
machine itself goes down: a server killed by ``kill()`` still keeps every commit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from matchledger.ledger import errors

BIN_VARIABLE = "MATCHLEDGER_PG_BIN"
_PREFIX = "matchledger-pg-"
_OWNER = "owner.pid"  # the process that made the cluster, beside its data folder
ADMIN = "postgres"

_HBA = f"""\
local all all trust
host all {ADMIN} 127.0.0.1/32 trust
host all all 127.0.0.1/32 scram-sha-256
"""


class Unavailable(errors.Unavailable):
    """No PostgreSQL server can be started here; the message says why."""


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, if there is one."""
    candidates = []
    if os.environ.get(BIN_VARIABLE):
        candidates.append(Path(os.environ[BIN_VARIABLE]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)  # a link on PATH: the folder of its siblings
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _version(p.parent.name), reverse=True)
    candidates += versions
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _version(name: str) -> tuple:
    return tuple(int(part) if part.isdigit() else 0 for part in name.split("."))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ThrowawayServer:
    def __init__(self, binaries: Path, folder: Path, run_as: str | None, durable: bool):
        self.binaries = binaries
        self.folder = folder
        self.data = folder / "data"
        self.run_as = run_as
        self.durable = durable
        self.port = 0
        self._counter = 0

    @classmethod
    def start(cls, *, durable: bool = False) -> ThrowawayServer:
        """A new cluster, started; Unavailable (saying why) where none can be."""
        binaries = find_binaries()
        if binaries is None:
            raise Unavailable(
                f"no PostgreSQL server binaries (initdb, pg_ctl) found on PATH, in ${BIN_VARIABLE} or in "
                "/usr/lib/postgresql/*/bin: install PostgreSQL (e.g. `apt-get install postgresql`)"
            )
        run_as = None
        if os.geteuid() == 0:  # the server refuses to run as root
            import pwd

            try:
                owner = pwd.getpwnam(ADMIN)
            except KeyError:
                raise Unavailable(f"running as root, and there is no {ADMIN!r} user to run the server as") from None
            run_as = ADMIN
        parent = Path("/tmp" if run_as else tempfile.gettempdir())
        cls._remove_orphans(binaries, parent, run_as)
        folder = Path(tempfile.mkdtemp(prefix=_PREFIX, dir=parent))
        (folder / _OWNER).write_text(str(os.getpid()))
        server = cls(binaries, folder, run_as, durable)
        try:
            if run_as:
                os.chown(folder, owner.pw_uid, owner.pw_gid)
            server._initdb()
            server._start_on_a_free_port()
        except BaseException:
            server.remove()
            raise
        return server

    # ---- addresses

    def url(
        self, database: str = ADMIN, user: str = ADMIN, password: str | None = None, schema: str | None = None
    ) -> str:
        """The URL of ``database`` (with ``schema`` first on its search path, where the
        tables are then made and looked for)."""
        login = user if password is None else f"{user}:{password}"
        options = "" if schema is None else f"?options=-csearch_path%3D{schema}"
        return f"postgresql://{login}@127.0.0.1:{self.port}/{database}{options}"

    def admin(self, database: str = ADMIN):
        """An autocommit connection to ``database``, as the superuser."""
        import psycopg

        return psycopg.connect(self.url(database), autocommit=True)

    def create_database(self, prefix: str = "t", encoding: str = "UTF8") -> str:
        """A new, empty database (its name)."""
        name = self._new_name(prefix)
        with self.admin() as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING '{encoding}' LC_COLLATE 'C' LC_CTYPE 'C'")
        return name

    def drop_database(self, name: str) -> None:
        with self.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def create_schema(self, database: str, prefix: str = "s") -> str:
        """A new, empty schema in ``database`` (its name): a hundred times quicker to
        make than a database, for a test that needs an empty place of its own."""
        name = self._new_name(prefix)
        with self.admin(database) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return name

    def drop_schema(self, database: str, name: str) -> None:
        with self.admin(database) as conn:
            conn.execute("SET lock_timeout = '5s'")
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")

    def _new_name(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}_{os.getpid()}_{self._counter}"

    # ---- the server's life

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m MODE``: ``immediate`` kills it as a crash would."""
        self._server_command("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def kill(self) -> None:
        self.stop("immediate")

    def restart(self) -> None:
        """Start it again on its port (after ``stop`` or ``kill``: a kill is recovered from the WAL)."""
        self._pg_ctl_start()

    def remove(self) -> None:
        """Stop the server if it runs, and remove its folder."""
        if (self.data / "postmaster.pid").exists():
            try:
                self.stop("fast")
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError):
                with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError):
                    self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    @classmethod
    def _remove_orphans(cls, binaries: Path, parent: Path, run_as: str | None) -> None:
        """Servers whose test process died without removing them (killed, say): they
        would run on for ever.  Only clusters this module made, whose owner is gone."""
        for folder in parent.glob(f"{_PREFIX}*"):
            try:
                os.kill(int((folder / _OWNER).read_text()), 0)
            except ProcessLookupError:
                cls(binaries, folder, run_as, durable=False).remove()
            except (OSError, ValueError):  # not ours to judge: no owner recorded, or not readable
                continue

    def _initdb(self) -> None:
        self._server_command(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            ADMIN,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        (self.data / "pg_hba.conf").write_text(_HBA)

    def _start_on_a_free_port(self) -> None:
        for attempt in range(3):
            self.port = _free_port()
            try:
                self._pg_ctl_start()
                return
            except Unavailable:
                if attempt == 2:
                    raise

    def _pg_ctl_start(self) -> None:
        options = [f"-p {self.port}", "-c listen_addresses=127.0.0.1", f"-k {self.folder}", "-c max_connections=100"]
        if not self.durable:
            options += ["-c fsync=off", "-c full_page_writes=off"]
        try:
            self._server_command(
                "pg_ctl",
                "-D",
                str(self.data),
                "-l",
                str(self.folder / "server.log"),
                "-w",
                "-t",
                "60",
                "-o",
                " ".join(options),
                "start",
            )
        except subprocess.CalledProcessError as exc:
            log = (self.folder / "server.log").read_text(errors="replace")[-2000:]
            raise Unavailable(f"the PostgreSQL server did not start ({exc}): {log}") from None

    def _server_command(self, program: str, *args: str) -> None:
        argv = [str(self.binaries / program), *args]
        if self.run_as:
            argv = ["runuser", "-u", self.run_as, "--", *argv]
        try:
            subprocess.run(
                argv, cwd=self.folder, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120
            )
        except FileNotFoundError as exc:
            raise Unavailable(f"cannot run {argv[0]}: {exc}") from None
        except subprocess.CalledProcessError as exc:
            if program != "pg_ctl":
                raise Unavailable(f"{program} failed: {exc.stderr.decode(errors='replace').strip()}") from None
            raise
