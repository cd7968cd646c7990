"""An auditor who may only read can read: a WAL database in a folder they cannot write,
or a file they cannot write, opens read-only; a write there is a clear error.

The commands run in a process that file permissions bind (as root: without the
capabilities that ignore them), and each test first checks that they do bind."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from ..helpers import invoke
from .support import fingerprint, matchledger_bound_by_permissions, require_permissions_bind

pytestmark = pytest.mark.guarantee("files.read-only-auditor")

READS = [("status", "m1"), ("verify", "m1"), ("verify", "--all"), ("export", "m1"), ("log", "m1"), ("head", "m1")]


@pytest.fixture
def wal_db_in_folder(tmp_path):
    """A folder holding a WAL database with one match, closed cleanly (no -wal, -shm)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    db = folder / "m.db"
    invoke(db, "new", "photographer", "m1", "--players", "ann,bob", "--seed", "1")
    invoke(db, "note", "m1", "dealt")
    assert sorted(os.listdir(folder)) == ["m.db"]
    yield db
    for path in (folder, *folder.iterdir()):
        path.chmod(path.stat().st_mode | stat.S_IWUSR)


def _read_only(path) -> None:
    path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


@pytest.mark.parametrize("args", READS, ids=" ".join)
def test_a_wal_database_in_a_folder_nobody_may_write_is_read(wal_db_in_folder, args):
    folder = wal_db_in_folder.parent
    _read_only(wal_db_in_folder)
    _read_only(folder)
    require_permissions_bind(folder)
    result = matchledger_bound_by_permissions(wal_db_in_folder, *args, cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "m1" in result.stdout or args[0] == "head"
    assert sorted(os.listdir(folder)) == ["m.db"]


def test_a_database_file_nobody_may_write_is_read_and_left_unchanged(wal_db_in_folder):
    _read_only(wal_db_in_folder)
    before = fingerprint(wal_db_in_folder)["file"]
    folder_probe = wal_db_in_folder.parent / "locked"
    folder_probe.mkdir()
    _read_only(folder_probe)
    require_permissions_bind(folder_probe)
    result = matchledger_bound_by_permissions(wal_db_in_folder, "verify", "m1", cwd=wal_db_in_folder.parent)
    assert result.returncode == 0, result.stderr
    assert fingerprint(wal_db_in_folder)["file"] == before


def test_a_reader_sees_what_a_live_writer_committed_from_a_read_only_folder(wal_db_in_folder):
    """With the writer's -wal and -shm present, the reader uses them (the newest events)
    instead of reading the file alone."""
    writer = sqlite3.connect(wal_db_in_folder, isolation_level=None)
    writer.execute("SELECT count(*) FROM events").fetchone()  # open: the -wal outlives the note's connection
    invoke(wal_db_in_folder, "note", "m1", "in the wal")
    try:
        assert os.path.getsize(f"{wal_db_in_folder}-wal") > 0
        folder = wal_db_in_folder.parent
        _read_only(folder)
        require_permissions_bind(folder)
        result = matchledger_bound_by_permissions(wal_db_in_folder, "head", "m1", cwd=folder)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("3:")
    finally:
        writer.close()


@pytest.mark.parametrize("place", ["file", "folder"])
def test_a_write_to_a_read_only_database_is_a_clear_error(wal_db_in_folder, place):
    folder = wal_db_in_folder.parent
    _read_only(wal_db_in_folder if place == "file" else folder)
    probe_folder = folder if place == "folder" else folder / "locked"
    if place == "file":
        probe_folder.mkdir()
        _read_only(probe_folder)
    require_permissions_bind(probe_folder)
    before = fingerprint(wal_db_in_folder)
    result = matchledger_bound_by_permissions(wal_db_in_folder, "note", "m1", "hello", cwd=folder)
    assert result.returncode == 1
    assert f"cannot write to {str(wal_db_in_folder)!r}" in result.stderr and "read-only" in result.stderr
    assert "internal error" not in result.stderr
    assert fingerprint(wal_db_in_folder)["file"] == before["file"]
