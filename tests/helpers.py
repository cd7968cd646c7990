"""Shared test helpers: run the CLI in-process on a temp database; a row's own hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from matchledger.commands.cli import cli
from matchledger.ledger.codec import encode, envelope_hash

REPO = Path(__file__).resolve().parent.parent


def invoke(db, *args, expect: int | None = 0):
    """Run `matchledger --db DB ARGS…`; assert the exit code (unless expect is None)."""
    result = CliRunner().invoke(cli, ["--db", str(db), "--actor", "tester", *map(str, args)], catch_exceptions=False)
    if expect is not None:
        assert result.exit_code == expect, f"exit {result.exit_code} for {args}:\n{result.output}"
    return result


def run_script(db, script_path) -> None:
    invoke(db, "script", str(script_path))


def read_json(db, *args, expect: int | None = 0):
    result = invoke(db, *args, "--json", expect=expect)
    return json.loads(result.stdout)


def own_hash(row) -> str:
    """The hash a stored row's own fields give: what a forger recomputes after an edit."""
    return envelope_hash(
        encode(row.actor),
        row.body.encode("utf-8"),
        row.kind,
        encode(row.match_id),
        row.prev_hash,
        encode(row.recorded_at),
        row.seq,
    )


def needs_png():
    """Skip, saying why, where PNG pictures cannot be drawn (no libcairo, no cairosvg)."""
    from matchledger.projections.presentation.png import png_unavailable

    reason = png_unavailable()
    return pytest.mark.skipif(reason is not None, reason=f"no PNG here: {reason}")


def games() -> list[str]:
    """Every game in the registry: the installed ones (entry points) and any a test
    registered.  A test about every game iterates this, never a list of names."""
    from matchledger import engine

    return engine.names()


def installed_games() -> list[str]:
    """Every game installed through the entry-point group (not a test's toy game)."""
    from matchledger import engine
    from matchledger.engine.discovery import game_entry_points

    installed = game_entry_points()
    return [name for name in engine.names() if name in installed]


def builtin_games() -> list[str]:
    """The installed games whose rules are in this repository (``matchledger.engine``):
    the ones its fixtures are recorded for."""
    from matchledger import engine

    return [name for name in installed_games() if engine.spec(name).engine.startswith("matchledger.")]


def sampled_games() -> list[str]:
    """Every game in the registry whose rules offer ``sample`` (random legal matches)."""
    from matchledger import engine

    return [name for name in engine.names() if hasattr(engine.get(name), "sample")]
