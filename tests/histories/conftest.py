"""A season for the history tests: one database holding every fixture match (the
host scripts of fixtures/) and the corrections of corrections.txt, played once."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from matchledger.testing import History, replay_history
from tests.audit.common import first_command, script_fixtures
from tests.helpers import invoke

HERE = Path(__file__).resolve().parent
SCRIPTS = [*script_fixtures(), HERE / "corrections.txt"]


def matches_of(script: Path) -> list[str]:
    """The match ids a host script creates, in order."""
    lines = (line.split() for line in script.read_text(encoding="utf-8").splitlines())
    return [words[2] for words in lines if words[:1] == ["new"]]


#: (script, match id) of every match of the season
SEASON = [(script, match) for script in SCRIPTS for match in matches_of(script)]


@pytest.fixture(scope="session")
def season_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("season") / "season.db"
    for script in SCRIPTS:
        assert first_command(script).startswith("new ")
        invoke(db, "script", script, "--atomic")  # one commit a script: a season in a second
    return db


@pytest.fixture(scope="session")
def histories(season_db) -> Callable[[str], History]:
    """The replayed history of a match of the season (each replayed once)."""
    return cache(lambda match: replay_history(season_db, match))
