"""What the migration tests share: the rows of a season recorded by this matchledger, to
copy into databases of each earlier layout (an event's bytes and hash do not depend on
the layout that holds it)."""

from __future__ import annotations

import os

import pytest

from tests.helpers import REPO, invoke

from .layouts import sqlite_rows


@pytest.fixture(scope="session")
def season_tables(tmp_path_factory) -> dict[str, list[tuple]]:
    """A finished photographer match (its snapshot saved), an lca match with a rule
    amendment, and a link issued: every table's rows."""
    db = tmp_path_factory.mktemp("season") / "season.db"
    here = os.getcwd()
    os.chdir(REPO)  # the scripts name their files from the repository's root
    try:
        invoke(db, "script", "fixtures/photographer/g3-sunset.txt")
        invoke(db, "script", "fixtures/lca/amendment-example.txt")
        invoke(db, "invite", "g3", "--as", "ann", "--submit")
    finally:
        os.chdir(here)
    rows = sqlite_rows(db)
    assert rows["snapshots"] and rows["capabilities"] and {row[0] for row in rows["events"]} == {"g3", "amend5"}
    return rows
