"""The hostile-input harness: a database holding a match of each game at a point where
every command has something to refuse, and a runner that holds each command to the
trust boundary's promises:

- no internal error: exit code 0, 1, 2 or 3, never an exception;
- nothing written on refusal: the events table unchanged (a success only appends);
- no control character on stdout or stderr but the line breaks of the layout;
- no file written but the database (with its -wal and -shm) and the outputs named.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import msgspec
from click.testing import CliRunner, Result

from matchledger.commands.cli import cli
from matchledger.ledger.store import Store
from tests.helpers import REPO, invoke, read_json

from .common import STUDIO, rows, uncontrolled
from .forged import HOSTILE, export_file, forged_lca, plant

#: The matches of the template: lca in Round 1, every player submitted; pw in Round 1,
#: everyone submitted; photographer before its first turn; photographer hand-scored,
#: every turn played, its results still to be entered; an imported lca match whose
#: names, note and actor hold control characters; the fixture of a disputed lca match.
LCA, PW, PHOTO, HAND, FORGED, DISPUTED = "m1", "p1", "g1", "gd2", "f\x1b[2J1", "disp1"
#: The disputed lca match again, its results still to be entered (its last round closed by hand).
LCA_HAND = "disp2"
OUTCOME_FIXTURE = REPO / "fixtures" / "photographer" / "disputed-outcome.txt"
DISPUTED_FIXTURE = REPO / "fixtures" / "lca" / "disputed-lights.txt"


@dataclass
class Template:
    """The database every example starts from, and the computed announcements a host
    could enter next (the base that hostile ones are made from)."""

    db: Path
    round_of: dict[str, dict] = field(default_factory=dict)  # match -> its open round's announcement
    outcome_of: dict[str, dict] = field(default_factory=dict)  # match -> its results, as the rules give them


def build_template(folder: Path) -> Template:
    db = folder / "template.db"
    invoke(db, "new", "lca", LCA, "--players", "ann,bob,cat", "--studio", STUDIO)
    for line in ("ann A1 B2 C3 D4 E5", "bob J1 I2 H3 G4 F5", "cat A7 B7 C7 D7 E7"):
        invoke(db, "submit", LCA, *line.split())
    invoke(db, "new", "pw", PW, "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    for line in (
        "ann gift:bob learn:yan",
        "zed swap:bob watch:yan",
        "bob gift:ann learn:zed",
        "yan swap:ann watch:zed",
    ):
        invoke(db, "submit", PW, *line.split())
    invoke(db, "new", "photographer", PHOTO, "--players", "ann,bob", "--seed", "7")
    script = [line for line in OUTCOME_FIXTURE.read_text().splitlines() if line.startswith(("new", "submit"))]
    (folder / "hand.txt").write_text("\n".join(script) + "\n")
    invoke(db, "script", folder / "hand.txt")
    events = forged_lca(FORGED, ["ann\x1b]52;c;aGk=\x07", "bob\nforged"], HOSTILE[3])
    plant(db, FORGED, events, "host\x1b[31m")
    cwd = os.getcwd()
    os.chdir(REPO)  # the fixture names its studio and announcement from the repository's top
    try:
        invoke(db, "script", DISPUTED_FIXTURE)
    finally:
        os.chdir(cwd)
    store = Store(db, create=False)
    *played, _computed_outcome = [
        event for _seq, event in store.events(DISPUTED) if event.__class__.__name__ != "StateCheckpointed"
    ]
    store.close()
    played[-1] = msgspec.structs.replace(played[-1], source="host")  # the last close, as a host enters it
    invoke(db, "import", export_file(folder / "hand.jsonl", LCA_HAND, played, "host"))
    template = Template(db, outcome_of={match: read_json(db, "outcome", match) for match in (HAND, LCA_HAND)})
    for match in (LCA, PW):
        probe = copy(db, folder / "probe.db")
        invoke(probe, "close", match)
        entry = read_json(probe, "reveals", match)["rounds"][-1]
        template.round_of[match] = {"public": entry["public"], "private": entry["private"]}
    return template


def copy(source: Path, target: Path) -> Path:
    """A consistent copy of ``source``, WAL included, alone in ``target``."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    return target


class Harness:
    """Runs commands on a fresh copy of the template in a folder of its own; the
    current folder is an empty one, where outputs named by a relative path land."""

    def __init__(self, template: Template, folder: Path):
        self.template = template
        self.data = folder / "data"  # the database and the input files
        self.work = folder / "work"  # the current folder while a command runs
        self.codes: Counter[int] = Counter()  # exit codes seen (a run that refuses everything proves little)

    def reset(self) -> Path:
        for path in (self.data, self.work):
            shutil.rmtree(path, ignore_errors=True)
            path.mkdir(parents=True)
        self.db = copy(self.template.db, self.data / "m.db")
        return self.db

    def file(self, name: str, content: str) -> str:
        """An input file (in the data folder) holding ``content`` as UTF-8, by its absolute
        path (an undecodable byte in the text becomes '?': what a file of bytes that are
        not UTF-8 does is a question of file encodings, not of these tests)."""
        path = self.data / name
        path.write_bytes(content.encode("utf-8", "replace"))
        return str(path)

    def run(self, *args: str, outputs: tuple[str, ...] = (), raw_stdout: bool = False) -> Result:
        """Run ``matchledger --db DB ARGS`` and check the promises.  ``outputs``: the
        files the command may write (relative to the current folder); ``raw_stdout``:
        stdout is the stored log verbatim (`export`), not text for a terminal."""
        before = rows(self.db)
        inputs = set(os.listdir(self.data))
        cwd = os.getcwd()
        os.chdir(self.work)
        try:
            result = CliRunner().invoke(cli, ["--db", str(self.db), *args], catch_exceptions=True)
        finally:
            os.chdir(cwd)
        shown = f"{args!r}: exit {result.exit_code}\n{result.output}"
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"{shown}\n{type(result.exception).__name__}: {result.exception}"
        )
        assert result.exit_code in (0, 1, 2, 3), shown
        self.codes[result.exit_code] += 1
        assert "internal error" not in result.stderr, shown
        after = rows(self.db)
        if result.exit_code == 0:
            assert set(before) <= set(after), f"{shown}\nrewrote the log"
        else:
            assert after == before, f"{shown}\nrefused, but the log changed"
        assert not uncontrolled(result.stderr), shown
        if not raw_stdout:
            assert not uncontrolled(result.stdout), shown
        written = set(os.listdir(self.work)) - {Path(name).name for name in outputs}
        assert not written, f"{shown}\nwrote {written}"
        database = {"m.db", "m.db-wal", "m.db-shm"}
        assert set(os.listdir(self.data)) <= inputs | database, f"{shown}\nwrote {set(os.listdir(self.data)) - inputs}"
        return result
