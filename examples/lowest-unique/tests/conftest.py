"""Lowest Unique's tests run matchledger's own command line in-process (click's
CliRunner) on a database in a temporary folder: the game as a host plays it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from matchledger.commands.cli import cli

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"


def invoke(db, *args, expect: int | None = 0):
    """`matchledger --db DB ARGS…`; asserts the exit code (unless expect is None)."""
    result = CliRunner().invoke(cli, ["--db", str(db), "--actor", "host", *map(str, args)], catch_exceptions=False)
    if expect is not None:
        assert result.exit_code == expect, f"exit {result.exit_code} for {args}:\n{result.output}"
    return result


def read_json(db, *args, expect: int | None = 0):
    return json.loads(invoke(db, *args, "--json", expect=expect).stdout)


def play(db, lines: str) -> None:
    """Each line a command as typed after `matchledger`, each expected to succeed."""
    import shlex

    for text in lines.strip().splitlines():
        if text.strip():
            invoke(db, *shlex.split(text))


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "matches.db"


@pytest.fixture
def fixture_db(tmp_path) -> Path:
    """A database holding both fixture matches, played by `script`."""
    path = tmp_path / "fixtures.db"
    for script in sorted(FIXTURES.glob("*.txt")):
        invoke(path, "script", script)
    return path
