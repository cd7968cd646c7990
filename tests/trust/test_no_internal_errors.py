"""Every way a file or a database can be wrong ends in a clear message naming it, with
exit code 1, never in "internal error" (the in-process runner lets any other exception
through, so each of these would fail loudly)."""

from __future__ import annotations

import pytest

from ..helpers import invoke

pytestmark = pytest.mark.guarantee("files.no-internal-error")

LONG = "a" * 300


def _fails_clearly(db, *args, fragment: str) -> None:
    result = invoke(db, *args, expect=1)
    assert fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [("status", "m1"), ("verify", "--all"), ("note", "m1", "x"), ("init",)])
def test_a_folder_given_as_the_database(tmp_path, args):
    _fails_clearly(tmp_path, *args, fragment=f"cannot open {str(tmp_path)!r} as a matchledger database: it is a folder")


@pytest.mark.parametrize("args", [("status", "m1"), ("verify", "--all"), ("log", "m1"), ("note", "m1", "x")])
def test_a_damaged_database_file(photographer_db_in_cwd, args):
    data = photographer_db_in_cwd.read_bytes()
    photographer_db_in_cwd.write_bytes(data[: len(data) // 2])
    _fails_clearly(photographer_db_in_cwd, *args, fragment=f"{str(photographer_db_in_cwd)!r}")


@pytest.mark.parametrize(
    "args",
    [
        ("export", "m1", "-o", LONG + ".jsonl"),
        ("render", "m1", "-o", LONG + ".svg"),
        ("new", "lca", "l1", "--players", "a,b", "--studio", LONG),
        ("import", LONG),
        ("diff", "m1", "--db-b", LONG),
        ("export", "m1", "-o", "m.db/inside.jsonl"),
    ],
)
def test_names_no_file_can_have(photographer_db_in_cwd, args):
    _fails_clearly(photographer_db_in_cwd, *args, fragment="cannot")


def test_a_database_name_no_file_can_have(tmp_path):
    for args in (("status", "m1"), ("init",)):
        _fails_clearly(tmp_path / LONG, *args, fragment="File name too long")


@pytest.mark.parametrize(
    "line", ['new lca l1 --players a,b --studio "a\0b"', 'export m1 -o "x\0y.jsonl"', 'import "x\0y"']
)
def test_a_nul_character_in_a_file_name_on_a_script_line(photographer_db_in_cwd, line):
    script = photographer_db_in_cwd.parent / "s.txt"
    script.write_bytes(line.encode() + b"\n")
    _fails_clearly(photographer_db_in_cwd, "script", script, fragment="holds a NUL character")
