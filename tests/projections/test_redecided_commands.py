"""A command that names no expected seq (every CLI command) is decided again when it
loses the race for the log: on a back end whose transaction takes the match's lock
only to append (PostgreSQL), another writer can append between a decision and its
append; the command then fails only if the rules refuse it against the log as it
finally stands (docs/design.md, "Store")."""

from __future__ import annotations

import pytest

from matchledger import engine
from matchledger.engine.commands import AddNote, Submit
from matchledger.ledger.errors import LogConflict
from matchledger.ledger.store import Store
from matchledger.projections.application import DECISION_ATTEMPTS, Application
from tests.helpers import invoke
from tests.trust.common import new_pw

T = "2026-01-01T00:00:00.000000Z"


def racing(db, rival) -> Application:
    """An application whose appends first find that ``rival()`` (another writer) has
    just appended: each call of ``rival`` returns whether it wrote."""
    app = Application(Store(db, create=False), clock=lambda: T)
    append = app.store.append

    def losing(match_id, expected_seq, *args, **kwargs):
        if rival(app):
            raise LogConflict(f"match {match_id!r} moved on: expected to write seq {expected_seq} (staged)")
        return append(match_id, expected_seq, *args, **kwargs)

    app.store.append = losing
    return app


@pytest.mark.guarantee("concurrency.redecided")
def test_a_command_that_loses_the_race_is_decided_again_and_recorded_once(tmp_path, monkeypatch):
    """(The append loses twice, staged; a real rival on PostgreSQL is
    tests/service/test_concurrency.py's two servers and the host's commands.)"""
    db = tmp_path / "m.db"
    new_pw(db)
    losses = iter([True, True, False])
    app = racing(db, lambda _app: next(losses))
    game = type(engine.get(app.state("p1").game))
    decided = []
    decision = game.decision
    monkeypatch.setattr(
        game, "decision", lambda self, state, cmd: decided.append(state.last_seq) or decision(self, state, cmd)
    )
    rows = app.execute("p1", Submit("ann", ["gift:bob", "learn:yan"]))
    assert len(decided) == 3  # decided again after each loss, each time from a state read afresh
    assert [row.seq for row in rows] == [2]
    assert "p1: ok" in invoke(db, "verify", "p1").stdout
    assert invoke(db, "head", "p1").stdout.startswith("2:")  # recorded once


@pytest.mark.guarantee("concurrency.redecided")
def test_past_the_bound_the_writer_is_told_the_match_moved_on(tmp_path):
    db = tmp_path / "m.db"
    new_pw(db)
    calls = {"n": 0}

    def rival(_app):
        calls["n"] += 1
        return True  # every append loses (staged: nothing is written)

    with pytest.raises(LogConflict, match="moved on"):
        racing(db, rival).execute("p1", AddNote("a word"))
    assert calls["n"] == DECISION_ATTEMPTS
    assert invoke(db, "head", "p1").stdout.startswith("1:")
