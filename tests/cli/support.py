"""What the command-line tests share: a database holding a toy match, a run of the
command line as a shell would (program name `matchledger`), and what a database holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from matchledger.commands.cli import cli
from tests.helpers import invoke

TOY_SCRIPT = """\
new toy t1 --players ann,bob
submit t1 ann 3
submit t1 bob 5
close t1
"""

ESCAPE = "\x1b"


def toy_database(folder: Path) -> Path:
    db = folder / "m.db"
    script = folder / "toy.txt"
    script.write_text(TOY_SCRIPT)
    invoke(db, "script", script)
    return db


def run(*args: str, env: dict | None = None, color: bool = False, input: bytes | None = None) -> Result:
    """`matchledger ARGS…` in-process, named as the shell names it."""
    return CliRunner().invoke(cli, list(args), prog_name="matchledger", env=env, color=color, input=input)


def contents(db: Path) -> list[tuple] | None:
    """Every row of every table of the database, read without changing it; None when
    there is no file."""
    if not db.exists():
        return None
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        schema = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        tables = [name for kind, name, _sql in schema if kind == "table"]
        return schema + [
            (table, *row) for table in tables for row in conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2")
        ]
    finally:
        conn.close()
