"""Replay each Parallel Worlds fixture script through the CLI into a temp database,
verify it, and snapshot the outcome, the reveals and one player's and one guest's
knowledge (JSON).  The key numbers in the snapshots were checked by hand (see report)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import REPO, invoke, read_json, run_script

# disputed-* (hand-scored, verify finds one divergence) are covered by tests/audit
FIXTURES = sorted(p for p in (REPO / "fixtures" / "pw").glob("*.txt") if not p.stem.startswith("disputed-"))
# One player and one guest per fixture: the scenario's own pair.
WATCHERS = {"swap_one_member": ("bob", "zed"), "swap_both_members": ("cat", "yul"), "ec_collision": ("gus", "yul")}


def match_and_pairs(path: Path) -> tuple[str, dict[str, str]]:
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:2] == ["new", "pw"]:
            pairs = dict(words[i + 1].split("=") for i, w in enumerate(words) if w == "--pair")
            return words[2], pairs
    raise AssertionError(f"{path} has no 'new pw' line")


def test_every_scenario_has_a_fixture():
    assert sorted(p.stem for p in FIXTURES) == sorted(WATCHERS)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_snapshot(path, tmp_path, snapshot, monkeypatch):
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    run_script(db, path)
    match, pairs = match_and_pairs(path)
    invoke(db, "verify", match)
    outcome = read_json(db, "outcome", match)
    assert outcome["finished"] is True and len(outcome["standings"]) == 7
    public = read_json(db, "outcome", match, "--public")
    # The same awards, each with only the award as its reason (never the score behind it).
    def award(a: dict) -> tuple:
        return a["participant"], a["kind"], a.get("shards")

    assert sorted(map(award, public["awards"])) == sorted(map(award, outcome["awards"]))
    assert {a["reason"] for a in public["awards"]} <= {"ToL", "bonus shard", "EC", "sabotage pact"} | {
        f"contract: {name}" for name in ("diversity", "generosity", "espionage")}
    assert public == snapshot(name="outcome-public")
    public_reveals = read_json(db, "reveals", match, "--public")
    text = json.dumps([public, public_reveals])
    assert not [guest for guest in pairs.values() if guest in text]  # the public view names no guest
    player, guest = WATCHERS[path.stem]
    assert outcome == snapshot(name="outcome")
    assert public_reveals == snapshot(name="reveals-public")
    assert read_json(db, "reveals", match) == snapshot(name="reveals-host")
    assert read_json(db, "knowledge", match, "--as", player) == snapshot(name=f"knowledge-{player}")
    assert read_json(db, "knowledge", match, "--as", guest) == snapshot(name=f"knowledge-{guest}")
