"""The fixture matches pinned by matchledger's history plugin (docs/snapshot-testing.md):
``tests/history`` holds their exports and ``__history_snapshots__`` their pinned
histories, checked by ``pytest --matchledger-history tests/history``.  Here: the
exports are the fixtures as `script` plays them now, and the pins catch a change of
the rules."""

from __future__ import annotations

import shutil

import matchledger_lowest_unique.game as game_module
import pytest
import syrupy
from conftest import HERE
from matchledger_lowest_unique.model import RoundResult

from matchledger.testing import replay_history

pytest_plugins = ["pytester"]
HISTORIES = HERE / "history"


def run(pytester, *args):
    """pytest in a project of its own, in this process (syrupy keeps the session it
    runs in a module global, which the inner run replaces: this session's is given back)."""
    outer = syrupy._syrupy
    try:
        return pytester.runpytest(*args)
    finally:
        syrupy._syrupy = outer


@pytest.mark.parametrize("match", ["lu1", "lu2"])
def test_the_pinned_exports_are_the_fixtures_as_played_now(fixture_db, match):
    pinned = replay_history(HISTORIES / f"{match}.jsonl", match)
    played = replay_history(fixture_db, match)
    assert pinned.findings == played.findings == []
    assert [(s.label, s.views) for s in pinned.steps] == [(s.label, s.views) for s in played.steps]
    assert [s.label for s in pinned.steps][-1] == "outcome"


def test_u6_the_pins_hold_and_catch_a_changed_rule(pytester, monkeypatch):
    shutil.copytree(HISTORIES, pytester.path / "history")
    run(pytester, "-p", "no:cacheprovider", "--matchledger-history", "history").assert_outcomes(passed=2)

    def highest_unique_wins(numbers, round_no):  # a rule that is not U6
        counts = list(numbers.values())
        unique = [n for n in counts if counts.count(n) == 1]
        top = max(unique) if unique else None
        winner = next((p for p, n in numbers.items() if n == top), None)
        return RoundResult(round_no, dict(numbers), top, winner)

    monkeypatch.setattr(game_module, "resolve", highest_unique_wins)
    result = run(pytester, "-p", "no:cacheprovider", "--matchledger-history", "history", "-v")
    # lu1 replays otherwise (its round 1: 2 2 5 9 gives dan's 9 the point); in lu2 every round's
    # unique numbers are one, so both rules agree
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*lu1, round 1, view host: scores.scores[[]participant=dan[]].total 0 → 1*"])
