"""The fixtures replayed on PostgreSQL give byte for byte what they give on SQLite:
every command of the script, every read model in every view at the end (JSON; text for
the host and the public), the public and host views at each close (``--at``), the
log, the head, verify, audit, export, diff, checkpoint and rescore.  Events are
recorded with a fixed clock and no salt (as the behaviour dump does), so hashes agree
too; the one difference allowed is the name of the database in a message."""

from __future__ import annotations

import io
import os
import shlex
from pathlib import Path

import pytest

from matchledger.ledger.postgres_urls import printable_url
from matchledger.projections.application import Application
from matchledger.projections.read_models import IN_EVERY_VIEW
from tests.behaviour_dump import jobs
from tests.behaviour_dump.dumped import participants_of, recorded_seqs
from tests.behaviour_dump.session import FIXED_TIME, FIXTURES, Session

SCRIPTS = [Path(arg) for kind, _, arg in jobs(0) if kind == "fixture"]

AUDIT = (
    ["log", "m"],
    ["log", "m", "--json"],
    ["head", "m", "--json"],
    ["verify", "m", "--json"],
    ["audit", "m"],
    ["export", "m"],
    ["diff", "m", "m", "--json"],
    ["checkpoint", "m"],
    ["verify", "m"],
    ["verify", "--all"],
    ["list"],
    ["status", "nomatch"],
)
RESCORE = {
    "lca": ["--option", "filming_lights_divisor=1", "--option", "diamond_center_must_be_empty=false"],
    "photographer": ["--option", "row_points=1:2,2:4,3:6,4:8,5:10,6:12,7:14"],
}


def read_everything(session: Session, closes: list[int]) -> None:
    names = participants_of(session)
    for model in IN_EVERY_VIEW:
        for view in ([], ["--public"], *(["--as", name] for name in names)):
            session.run(model, "m", *view, "--json")
        for view in ([], ["--public"]):
            session.run(model, "m", *view)
            for seq in closes[-3:]:  # the last rounds or turns: enough to see --at read the same
                session.run(model, "m", *view, "--at", str(seq), "--json")
    for name in names:
        session.run("knowledge", "m", "--as", name, "--json")
        session.run("explain", "m", name, "--json")


@pytest.fixture
def fixed_clock(monkeypatch):
    defaults = dict(Application.__init__.__kwdefaults__, clock=lambda: FIXED_TIME, salts=lambda: "")
    monkeypatch.setattr(Application.__init__, "__kwdefaults__", defaults)


def replayed(script: Path, db: str, folder: Path) -> str:
    """Everything the commands print while ``script`` is played on ``db`` and read back."""
    folder.mkdir()
    os.symlink(FIXTURES, folder / "fixtures")
    out = io.StringIO()
    match_id = next(
        line.split()[2] for line in script.read_text(encoding="utf-8").splitlines() if line.startswith("new ")
    )
    session = Session(folder, out, match_id=match_id)
    session.db = db
    cwd = os.getcwd()
    os.chdir(folder)  # a fixture names its studio and deck files relative to the repository
    try:
        closes = []
        for line in script.read_text(encoding="utf-8").splitlines():
            args = shlex.split(line.strip(), comments=True)
            result = session.run(*args) if args else None
            if result is not None and result.exit_code == 0 and args[0] in ("close", "submit"):
                closes += recorded_seqs(result)[-1:]
        assert closes, "no round or turn was closed: nothing read --at"
        read_everything(session, closes)
        for args in AUDIT:
            session.run(*args)
        game = (session.json("status", "m") or {}).get("game")
        if game in RESCORE:
            session.run("rescore", "m", *RESCORE[game], "--json")
    finally:
        os.chdir(cwd)
    return out.getvalue().replace(printable_url(db), "<db>").replace(db, "<db>")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: f"{path.parent.name}-{path.stem}")
@pytest.mark.guarantee("postgres.same-read-models")
def test_a_fixture_replayed_on_postgresql_reads_byte_for_byte_as_on_sqlite(script, postgres_url, tmp_path, fixed_clock):
    on_sqlite = replayed(script, str(tmp_path / "m.db"), tmp_path / "sqlite")
    on_postgres = replayed(script, postgres_url, tmp_path / "postgres")
    assert "[exit 0]" in on_sqlite and '"hash"' in on_sqlite  # it read something
    assert on_postgres == on_sqlite
