"""One database holding a fixture match of each game, played once for the module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import REPO, invoke

#: match id -> the fixture script that records it
FIXTURES = {
    "ties8": REPO / "fixtures" / "lca" / "ties-and-contracts.txt",
    "pw1": REPO / "fixtures" / "pw" / "swap_one_member.txt",
    "g2": REPO / "fixtures" / "photographer" / "g2-seed7.txt",
}


@pytest.fixture(scope="module")
def fixtures_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("messages") / "fixtures.db"
    for script in FIXTURES.values():
        invoke(db, "script", script, "--atomic")
    return db
