"""Lowest Unique's tests run matchledger's own command line in-process (click's
CliRunner) on a database in a temporary folder: the game as a host plays it."""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
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


#: Seconds `serve` may take to start.
START_SECONDS = 30


@pytest.fixture
def served(tmp_path):
    """(database, an HTTP client of a `matchledger serve` of it on a free port of
    127.0.0.1, ann's link token that may submit): match s1, round 1, bob has submitted 2."""
    httpx = pytest.importorskip("httpx")
    db = tmp_path / "served.db"
    play(
        db,
        """
    new lowest-unique s1 --players ann,bob,cat
    submit s1 bob 2
    """,
    )
    token = read_json(db, "invite", "s1", "--as", "ann", "--submit")["token"]
    process = subprocess.Popen(
        [sys.executable, "-m", "matchledger", "--db", str(db), "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    try:
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        assert selector.select(START_SECONDS), "serve printed nothing"
        line = process.stdout.readline().decode()
        url = line.split(" on ", 1)[1].split()[0].rstrip(";")
        with httpx.Client(base_url=url, timeout=30) as client:
            yield db, client, token
    finally:
        process.terminate()
        process.wait(15)
