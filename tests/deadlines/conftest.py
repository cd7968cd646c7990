"""What the deadline tests share: a clock a test sets, and an lca match on a temp database."""

from __future__ import annotations

import pytest

from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from tests.helpers import REPO, invoke

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"
ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1", "cat": "B5 A1 B1 C1 D1"}
START = "2026-12-01T10:00:00.000000Z"


class Clock:
    """The time the application reads, moved by the test: no test waits for a deadline."""

    def __init__(self, now: str = START):
        self.now = now

    def __call__(self) -> str:
        return self.now


@pytest.fixture
def lca_db(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    return db


@pytest.fixture
def clocked(lca_db):
    """``(app, clock)``: the application on ``lca_db`` reading the test's clock."""
    clock = Clock()
    app = Application(Store(lca_db, create=False), clock=clock)
    yield app, clock
    app.close()
