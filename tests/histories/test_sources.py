"""Where the plugin keeps a database URL's snapshots: a folder named by the database,
which must stay one folder inside the run's root, whatever the database is called."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from matchledger.testing.sources import database_name


@pytest.mark.parametrize(
    "url, folder",
    [
        ("postgresql://db.example/league", "league"),
        ("postgresql://db.example/season-2026.b", "season-2026.b"),
        ("postgresql://db.example", "postgresql"),
        ("postgresql:///league?host=/run/postgresql", "league"),
        # a database may be called anything: never a path out of the root folder
        ("postgresql://db.example/..%2F..%2F..%2Fesc", "_.._.._esc"),
        ("postgresql://db.example/%2Fetc%2Fcron.d", "_etc_cron.d"),
        ("postgresql://db.example/..", "postgresql"),
        ("postgresql://db.example/a%5Cb", "a_b"),
    ],
)
def test_a_database_url_names_one_folder_inside_the_root(url, folder):
    name = database_name(url)
    assert name == folder
    assert PurePosixPath(name).parts == (name,) and name not in (".", "..") and not name.startswith(".")
