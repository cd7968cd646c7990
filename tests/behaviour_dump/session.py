"""Running the command line on one match's database, and the two adapters that know
where the code behind it lives."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path

from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
FIXED_TIME = "2024-01-01T12:00:00.000000Z"
ACTOR = "host1"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim"]
GUESTS = ["zed", "yul", "xio", "wim", "vik", "ura", "tof"]
PW_TYPES = ("gift", "learn", "predict", "swap", "unique", "watch")


# --------------------------------------------------------------------------- adapters


def the_cli():
    """The click group (the pre-renovation layout named its package ``commands``)."""
    import importlib

    for name in ("matchledger.commands.cli", "commands.cli"):
        try:
            return importlib.import_module(name).cli
        except ImportError:
            continue
    raise SystemExit("behaviour_dump: cannot find the command line")


def fix_clock() -> None:
    """Every event recorded at FIXED_TIME and without a salt (the one place that knows
    where the clock and the salts are), so that hashes do not change from run to run."""
    patched = False
    for module_name, class_name in (
        ("matchledger.projections.application", "Application"),
        ("matchledger.projections.app", "Ledger"),
        ("projections.app", "Ledger"),
    ):
        try:
            module = __import__(module_name, fromlist=[class_name])
        except ImportError:
            continue
        cls = getattr(module, class_name, None)
        if cls is None:
            continue
        defaults = dict(cls.__init__.__kwdefaults__ or {})
        if "clock" in defaults:
            defaults["clock"] = lambda: FIXED_TIME
            if "salts" in defaults:  # no salt: bodies and hashes as before salts existed
                defaults["salts"] = lambda: ""
            cls.__init__.__kwdefaults__ = defaults
            patched = True
    if not patched:
        raise SystemExit("behaviour_dump: cannot find the application's clock to fix it")


# --------------------------------------------------------------------------- running


class Session:
    """One match in one database: runs commands and writes what they print."""

    def __init__(self, folder: Path, out, match_id: str = "m"):
        self.folder = folder
        self.match_id = match_id
        self.db = "m.db"
        self.out = out
        self.cli = the_cli()
        self.runner = CliRunner()
        self.probe_count = 0

    def run(self, *args: str, db: str | None = None, record: bool = True, label: str = "$"):
        # "m" stands for this session's match id (each match keeps its own id, so that
        # they can all be imported into one database at the end)
        args = [self.match_id if a == "m" else str(a) for a in args]
        result = self.runner.invoke(self.cli, ["--db", db or self.db, "--actor", ACTOR, *args], catch_exceptions=True)
        if record:
            self.out.write(f"{label} {' '.join(args)}\n[exit {result.exit_code}]\n")
            if result.stdout:
                self.out.write(result.stdout if result.stdout.endswith("\n") else result.stdout + "\n")
            if result.stderr:
                self.out.write("--stderr--\n" + result.stderr + ("" if result.stderr.endswith("\n") else "\n"))
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                self.out.write(f"--exception-- {type(result.exception).__name__}: {result.exception}\n")
        return result

    def json(self, *args: str):
        result = self.run(*args, "--json", record=False)
        if result.exit_code != 0:
            return None
        return json.loads(result.stdout)

    def probe(self, *args: str) -> None:
        """Run on a copy of the database: whatever it does, the match goes on unchanged."""
        self.probe_count += 1
        copy = f"probe{self.probe_count % 2}.db"
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.folder / (copy + suffix))
        if (self.folder / self.db).exists():
            source = sqlite3.connect(self.folder / self.db)
            target = sqlite3.connect(self.folder / copy)
            source.backup(target)
            source.close()
            target.close()
        self.run(*args, db=copy, label="probe$")

    def head_seq(self) -> int:
        data = self.json("head", "m")
        return data["seq"] if data else 0
