"""Replay each photographer fixture script through the CLI into a temp database and
snapshot the final outcome, reveals and two players' knowledge (JSON)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import REPO, invoke, read_json, run_script

FIXTURES = sorted((REPO / "fixtures" / "photographer").glob("g*.txt"))


def match_and_players(path: Path) -> tuple[str, list[str]]:
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:2] == ["new", "photographer"]:
            return words[2], words[words.index("--players") + 1].split(",")
    raise AssertionError(f"{path} has no 'new photographer' line")


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_snapshot(path, tmp_path, snapshot, monkeypatch):
    monkeypatch.chdir(REPO)  # deck paths in scripts are relative to the repo root
    db = tmp_path / "m.db"
    run_script(db, path)
    match, players = match_and_players(path)
    result = invoke(db, "verify", match)
    assert "ok" in result.output
    outcome = read_json(db, "outcome", match)
    assert outcome["finished"] is True
    assert read_json(db, "outcome", match, "--public") == outcome  # final scores are public
    assert outcome == snapshot(name="outcome")
    assert read_json(db, "reveals", match, "--public") == snapshot(name="reveals-public")
    for player in players[:2]:
        assert read_json(db, "knowledge", match, "--as", player) == snapshot(name=f"knowledge-{player}")
