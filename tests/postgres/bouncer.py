"""A real PgBouncer in transaction mode in front of the throwaway server, for the tests
that prove matchledger works through a transaction-pooling proxy (docs/deploy.md,
"Sizing a fleet"): one server connection for every client (``default_pool_size = 1``),
so a setting one client's session left behind would meet the next client's
transaction.  Started on a free 127.0.0.1 port for a test, stopped after it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

#: Seconds PgBouncer may take to accept connections, and to stop.
START_SECONDS = 10
STOP_SECONDS = 10


def binary() -> str | None:
    """Where ``pgbouncer`` is, if it is installed (Debian puts it in /usr/sbin)."""
    return shutil.which("pgbouncer") or next(
        (str(path) for path in (Path("/usr/sbin/pgbouncer"), Path("/usr/bin/pgbouncer")) if path.is_file()), None
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Bouncer:
    """``Bouncer(program, server_port)``: PgBouncer forwarding every database of the
    server on ``server_port``, as the superuser the throwaway server trusts."""

    def __init__(self, program: str, server_port: int, user: str = "postgres"):
        self.folder = Path(tempfile.mkdtemp(prefix="matchledger-bouncer-", dir="/tmp"))
        self.port = _free_port()
        (self.folder / "users.txt").write_text(f'"{user}" ""\n')
        (self.folder / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = host=127.0.0.1 port={server_port}\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            f"listen_port = {self.port}\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            f"auth_file = {self.folder / 'users.txt'}\n"
            "pool_mode = transaction\n"
            "default_pool_size = 1\n"
            "max_client_conn = 50\n"
            "server_reset_query =\n"
            f"logfile = {self.folder / 'pgbouncer.log'}\n"
        )
        command = [program, "-q", str(self.folder / "pgbouncer.ini")]
        if os.geteuid() == 0:  # PgBouncer refuses to run as root: it switches to the server's user
            import pwd

            owner = pwd.getpwnam(user)
            for path in (self.folder, *self.folder.iterdir()):
                os.chown(path, owner.pw_uid, owner.pw_gid)
            command[1:1] = ["-u", user]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            self._wait_until_listening()
        except BaseException:
            self.stop()
            raise

    def _wait_until_listening(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"pgbouncer exited: {self.process.stderr.read().decode(errors='replace')}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"pgbouncer did not listen within {START_SECONDS} s: {self.log()}")

    def url(self, database: str, user: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def log(self) -> str:
        path = self.folder / "pgbouncer.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        try:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)  # "immediate shutdown": the test is over
                try:
                    self.process.wait(STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        finally:
            self.process.stderr.close()
            shutil.rmtree(self.folder, ignore_errors=True)
