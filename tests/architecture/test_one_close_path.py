"""A round is resolved once per close, and a turn once per submit: deciding works it
out, and the fold of the recorded events is handed that work instead of doing it again.
The state the application keeps is still exactly the one a replay gives."""

from __future__ import annotations

import pytest

from matchledger import engine
from matchledger.engine.commands import CloseRound, CreateMatch, Submit
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from matchledger.projections.fold import replay
from tests.helpers import REPO

pytestmark = pytest.mark.guarantee("one-way-in.one-close-path")

STUDIO = (REPO / "fixtures" / "lca" / "studio-example-10x13.txt").read_text()
ROUNDS = [
    {"ann": "B2 C3 D4 E5 F6", "bob": "G7 H8 I9 B11 C12"},
    {"ann": "C3 G3 C8", "bob": "G8 C12 H11"},
    {"ann": "E6 F6 G6", "bob": "B5 B6 B7"},
]


def _counted(monkeypatch, game, method: str) -> list:
    calls = []
    original = getattr(game, method)

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(game, method, counting)
    return calls


def test_each_lca_close_resolves_its_round_once(monkeypatch, tmp_path):
    app = Application(Store(tmp_path / "m.db"), clock=lambda: "2026-01-01T00:00:00.000000Z")
    app.create(CreateMatch("m1", "lca", ["ann", "bob"], setup={"studio": STUDIO}))
    calls = _counted(monkeypatch, engine.get("lca"), "resolve_round")
    for number, submissions in enumerate(ROUNDS, start=1):
        for player, tokens in submissions.items():
            app.execute("m1", Submit(player, tokens.split()))
        assert calls == []
        rows = app.execute("m1", CloseRound())
        assert len(calls) == 1 and calls[0][-1] == number  # round 3 also records the outcome
        calls.clear()
    assert [row.kind for row in rows] == ["RoundClosed", "OutcomeAnnounced", "StateCheckpointed"]
    replayed = replay("m1", app.store.events("m1"))
    assert len(calls) == 3  # a replay is handed no work: it resolves each round itself
    assert app.state("m1") == replayed


@pytest.mark.parametrize("seed", [3, 11])
def test_each_photographer_submit_resolves_its_turn_once(monkeypatch, tmp_path, seed):
    game = engine.get("photographer")
    app = Application(Store(tmp_path / "m.db"), clock=lambda: "2026-01-01T00:00:00.000000Z")
    app.create(
        CreateMatch("m1", "photographer", ["ann", "bob"], options={"wind_required": "false"}, setup={"seed": seed})
    )
    calls = _counted(monkeypatch, game, "resolve_move")
    turns = 0
    while not app.state("m1").finished:
        state = app.state("m1")
        g = state.g
        row = next(r for r in range(g.n_rows) if any(place for place in g.table[r]))
        tokens = ["take", str(row + 1), "left", "1"] if g.phase == "main" else []
        app.execute("m1", Submit(g.current, tokens))
        turns += 1
        assert len(calls) == turns
    assert app.state("m1") == replay("m1", app.store.events("m1"))
