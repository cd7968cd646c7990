"""What holds of every fixture match whatever its numbers (the snapshots pin those):
each ends finished, verify finds only the disputes the hand-scored ones were made with,
and the public sees the final table (lca, photographer) or only the awards (pw)."""

from __future__ import annotations

import json

import pytest

from .conftest import SEASON

FIXTURES = [(script, match) for script, match in SEASON if script.parent.parent.name == "fixtures"]


def cases(*games: str) -> list:
    """The fixture matches of ``games`` (of every game when none is named)."""
    return [pytest.param(s, m, id=f"{s.stem}-{m}") for s, m in FIXTURES if not games or s.parent.name in games]


@pytest.mark.parametrize(("script", "match"), cases())
def test_a_fixture_match_ends_finished_and_verifies_but_for_its_dispute(script, match, histories):
    history = histories(match)
    final = history.steps[-1]
    assert final.label == "outcome" and final.views["host"]["outcome"]["finished"] is True
    assert len(history.findings) == (1 if script.stem.startswith("disputed-") else 0)


@pytest.mark.parametrize(("script", "match"), cases("lca", "photographer"))
def test_the_whole_final_table_is_public_at_the_end(script, match, histories):
    views = histories(match).steps[-1].views
    assert views["public"]["outcome"] == views["host"]["outcome"]


@pytest.mark.parametrize(("script", "match"), cases("pw"))
def test_pw_public_sees_the_awards_by_name_and_no_guest(script, match, histories):
    views = histories(match).steps[-1].views
    host, public = views["host"]["outcome"], views["public"]["outcome"]
    assert len(host["standings"]) == 7

    def award(a: dict) -> tuple:
        return a["participant"], a["kind"], a.get("shards")

    # the same awards, each with only the award as its reason (never the score behind it)
    assert sorted(map(award, public["awards"])) == sorted(map(award, host["awards"]))
    assert {a["reason"] for a in public["awards"]} <= {"ToL", "bonus shard", "EC", "sabotage pact"} | {
        f"contract: {name}" for name in ("diversity", "generosity", "espionage")
    }
    guests = {row["guest"] for row in host["standings"]}
    text = json.dumps([public, views["public"]["reveals"]])
    assert not [guest for guest in guests if guest in text]
