"""Files a command writes (`export -o`, `render -o`, `report -o`): written whole or not
at all, never onto the database in use or the files SQLite keeps beside it, never
through a symbolic link; a missing folder, a folder, a read-only place: clear errors."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import stat

import pytest

from ..helpers import invoke
from .common import new_lca
from .support import fingerprint, matchledger_bound_by_permissions, require_permissions_bind

pytestmark = pytest.mark.guarantee("files.output-not-db")


EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # sha256 of no bytes


def _contents(db) -> dict:
    """The database's file and -wal (the -shm is shared memory that every reader marks,
    and an empty -wal, which a reader may leave where none was, holds nothing)."""
    return {name: digest for name, digest in fingerprint(db).items() if name != "-shm" and digest not in (None, EMPTY)}


def _settled(db) -> None:
    """The database with its -wal merged in, so that the comparison is of the file alone."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _refused(db, *args, fragment: str) -> None:
    _settled(db)
    before = _contents(db)
    result = invoke(db, *args, expect=1)
    assert fragment in result.output, result.output
    assert _contents(db) == before
    assert not [name for name in os.listdir(db.parent) if name.endswith(".tmp")]


@pytest.mark.parametrize("name", ["m.db", "./m.db", "sub/../m.db", "m.db-wal", "m.db-shm", "m.db-journal"])
def test_export_never_writes_onto_the_database_or_its_files(photographer_db_in_cwd, name):
    (photographer_db_in_cwd.parent / "sub").mkdir()
    _refused(photographer_db_in_cwd, "export", "m1", "-o", name, fragment="is the database in use")
    _refused(
        photographer_db_in_cwd,
        "export",
        "m1",
        "-o",
        photographer_db_in_cwd.parent / name,
        fragment="is the database in use",
    )
    invoke(photographer_db_in_cwd, "verify", "m1")


def test_another_name_for_the_database_is_refused(photographer_db_in_cwd):
    os.link(photographer_db_in_cwd, photographer_db_in_cwd.parent / "hard.jsonl")
    _refused(photographer_db_in_cwd, "export", "m1", "-o", "hard.jsonl", fragment="is the database in use")


def test_pictures_and_pages_never_write_onto_the_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for db, command in ((tmp_path / "board.svg", "render"), (tmp_path / "page.html", "report")):
        invoke(db, "new", "photographer", "m1", "--players", "ann,bob", "--seed", "1")
        _refused(db, command, "m1", "-o", db.name, fragment="is the database in use")


@pytest.mark.parametrize("target", ["the database", "another file", "nothing"])
def test_no_command_writes_through_a_symbolic_link(photographer_db_in_cwd, target):
    other = photographer_db_in_cwd.parent / "other.txt"
    other.write_text("keep me\n")
    pointed = {
        "the database": photographer_db_in_cwd,
        "another file": other,
        "nothing": photographer_db_in_cwd.parent / "absent.txt",
    }[target]
    for command, name in (("export", "out.jsonl"), ("render", "out.svg"), ("report", "out.html")):
        link = photographer_db_in_cwd.parent / name
        link.symlink_to(pointed)
        _refused(photographer_db_in_cwd, command, "m1", "-o", name, fragment="symbolic link")
        assert link.is_symlink() and os.readlink(link) == str(pointed)
        link.unlink()
    assert other.read_text() == "keep me\n" and not (photographer_db_in_cwd.parent / "absent.txt").exists()


def test_a_missing_folder_and_a_folder_are_clear_errors(photographer_db_in_cwd):
    (photographer_db_in_cwd.parent / "folder.svg").mkdir()
    _refused(photographer_db_in_cwd, "export", "m1", "-o", "nowhere/m1.jsonl", fragment="there is no folder 'nowhere'")
    _refused(photographer_db_in_cwd, "render", "m1", "-o", "folder.svg", fragment="it is a folder")
    _refused(photographer_db_in_cwd, "report", "m1", "-o", "nowhere/m1.html", fragment="there is no folder")


@pytest.mark.guarantee("files.output-atomic")
def test_an_output_is_replaced_whole_and_leaves_no_temporary_file(photographer_db_in_cwd):
    out = photographer_db_in_cwd.parent / "m1.jsonl"
    out.write_text("an older export that is much longer than the new one\n" * 1000)
    invoke(photographer_db_in_cwd, "export", "m1", "-o", out)
    assert out.read_bytes() == invoke(photographer_db_in_cwd, "export", "m1").stdout_bytes
    assert sorted(p.name for p in photographer_db_in_cwd.parent.iterdir() if not p.name.startswith("m.db")) == [
        "m1.jsonl"
    ]


@pytest.mark.guarantee("files.output-atomic")
def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary_one(photographer_db_in_cwd, monkeypatch):
    out = photographer_db_in_cwd.parent / "m1.jsonl"
    out.write_text("the old export\n")

    def failing_disk(descriptor):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_disk)
    result = invoke(photographer_db_in_cwd, "export", "m1", "-o", out, expect=1)
    assert "cannot write" in result.output and "Input/output error" in result.output
    assert out.read_text() == "the old export\n"
    assert not [p for p in photographer_db_in_cwd.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_read_only_folder_is_a_clear_error(photographer_db_in_cwd):
    folder = photographer_db_in_cwd.parent / "locked"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        require_permissions_bind(folder)
        for command, name in (("export", "m1.jsonl"), ("render", "m1.svg"), ("report", "m1.html")):
            result = matchledger_bound_by_permissions(
                photographer_db_in_cwd, command, "m1", "-o", str(folder / name), cwd=photographer_db_in_cwd.parent
            )
            assert result.returncode == 1, result.stderr
            assert "cannot write" in result.stderr and "Permission denied" in result.stderr
            assert "internal error" not in result.stderr
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(stat.S_IRWXU)


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_the_files_of_the_database_a_link_names_are_refused(photographer_db_in_cwd, suffix):
    # --db link.db, a symbolic link to m.db: SQLite keeps m.db-wal and m.db-shm, not
    # link.db-wal, so the guard resolves the link before it adds the suffixes.
    link = photographer_db_in_cwd.parent / "link.db"
    link.symlink_to(photographer_db_in_cwd.name)
    before = _contents(photographer_db_in_cwd)
    result = invoke(link, "export", "m1", "-o", f"{photographer_db_in_cwd.name}{suffix}", expect=1)
    assert "is the database in use" in result.output, result.output
    assert _contents(photographer_db_in_cwd) == before
    invoke(link, "export", "m1", "-o", f"{link.name}{suffix}", expect=1)
    invoke(photographer_db_in_cwd, "verify", "m1")


@pytest.mark.parametrize("command", [("export", "m1"), ("render", "m1"), ("report", "m1")])
def test_no_command_writes_through_a_symbolically_linked_folder(photographer_db_in_cwd, command):
    elsewhere = photographer_db_in_cwd.parent / "elsewhere"
    elsewhere.mkdir()
    (photographer_db_in_cwd.parent / "linkdir").symlink_to(elsewhere.name)
    name = {"export": "m1.jsonl", "render": "x.svg", "report": "x.html"}[command[0]]
    for output in (f"linkdir/{name}", f"linkdir/../{name}", str(photographer_db_in_cwd.parent / "linkdir" / name)):
        result = invoke(photographer_db_in_cwd, *command, "-o", output, expect=1)
        assert "linkdir' on its way is a symbolic link" in result.output, result.output
    assert not os.listdir(elsewhere) and not (photographer_db_in_cwd.parent / name).exists()
    (photographer_db_in_cwd.parent / "real").mkdir()
    invoke(photographer_db_in_cwd, *command, "-o", f"real/{name}")  # a folder of its own is fine


def test_an_empty_output_name_is_refused_not_taken_for_the_current_folder(photographer_db_in_cwd):
    lca = photographer_db_in_cwd.parent / "lca.db"
    new_lca(lca, players="ann,bob")
    invoke(lca, "submit", "m1", "ann", "A1", "B2", "C3", "D4", "E5")
    invoke(lca, "submit", "m1", "bob", "J1", "I2", "H3", "G4", "F5")
    invoke(lca, "close", "m1")

    def written() -> list[str]:
        # SQLite makes and removes a database's -wal and -shm files as connections come
        # and go: they say nothing of what a command wrote
        return sorted(
            name
            for name in os.listdir(photographer_db_in_cwd.parent)
            if not name.endswith(("-wal", "-shm", "-journal"))
        )

    before = written()
    assert "'' is not a file name" in invoke(lca, "messages", "m1", "-o", "", expect=1).output  # not 3 files here
    for command in (("render", "m1"), ("report", "m1")):
        result = invoke(photographer_db_in_cwd, *command, "-o", "", expect=None)
        assert result.exit_code in (1, 2) and "''" in result.output, (command, result.output)
    assert written() == before
