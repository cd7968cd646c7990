"""What the trust-boundary tests share: fingerprints of a database and the files SQLite
keeps beside it, another program's database, and running the command line as a user
whom file permissions bind (even when the tests run as root)."""

from __future__ import annotations

import ctypes
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

COMPANIONS = ("", "-wal", "-shm", "-journal")

# prctl(PR_CAPBSET_DROP, cap): the capabilities that let root ignore file permissions.
_PR_CAPBSET_DROP = 24
_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2


def fingerprint(path: Path) -> dict[str, str | None]:
    """sha256 of the database file and each file SQLite keeps beside it (None: absent)."""
    found = {}
    for suffix in COMPANIONS:
        companion = Path(f"{path}{suffix}")
        found[suffix or "file"] = hashlib.sha256(companion.read_bytes()).hexdigest() if companion.exists() else None
    return found


def other_programs_database(path: Path) -> None:
    """A WAL database of another program, with a table of its own named ``events``."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)")
    conn.execute("INSERT INTO events (what) VALUES ('theirs')")
    conn.commit()
    conn.close()


def _drop_permission_bypass() -> None:
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
            if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_bound_by_permissions(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python ARGS…`` in a process that file permissions bind: as root, without the
    capabilities that ignore them (from the bounding set, so they are gone after exec)."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_drop_permission_bypass,
        env={**os.environ, **(env or {})},
    )


def matchledger_bound_by_permissions(db: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run_bound_by_permissions("-m", "matchledger", "--db", str(db), *args, cwd=cwd)


def require_permissions_bind(folder: Path) -> None:
    """Skip unless a process started by run_bound_by_permissions really cannot create a
    file in the read-only ``folder`` (else a test of read-only places proves nothing)."""
    try:
        probe = run_bound_by_permissions("-c", f"open({str(folder / 'probe')!r}, 'w')", cwd=folder)
    except OSError as exc:
        pytest.skip(f"cannot start a process without the capability to ignore file permissions: {exc}")
    if probe.returncode == 0:
        (folder / "probe").unlink()
        pytest.skip("file permissions do not bind here (root without a way to drop CAP_DAC_OVERRIDE)")
