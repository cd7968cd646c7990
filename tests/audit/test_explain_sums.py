"""Property over every fixture script: for every participant, at several points of the
match (before the first close, after each close or a sample of turns, at the end),
`explain --json` lines sum exactly to each category's `exact`, `score` is `exact`
rounded as the rules say, and the categories and `total` are what `scores --json`
(host view) shows at that `--at`."""

from __future__ import annotations

import pytest

from tests.helpers import REPO, builtin_games, invoke, read_json, run_script

from .common import check_explain, match_of, score_rows, script_fixtures

SCRIPTS = script_fixtures()
_MARKS = ("RoundClosed", "OutcomeAnnounced", "TurnResolved", "RoundReopened", "SubmissionCorrected", "SubmissionVoided")


def at_points(log: list[dict], most: int = 6) -> list[int]:
    """A spread of seqs: just before the first announcement, after (a sample of) the
    announcements and corrections, and the last event."""
    marks = [e["seq"] for e in log if e["kind"] in _MARKS]
    step = max(1, len(marks) // most)
    points = set(marks[::step]) | {log[-1]["seq"]}
    if marks:
        points.add(max(1, marks[0] - 1))
    return sorted(points)


def test_the_fixture_scripts_cover_every_game():
    assert {match_of(p)[0] for p in SCRIPTS} == set(builtin_games())


@pytest.mark.parametrize("path", SCRIPTS, ids=[f"{p.parent.name}/{p.stem}" for p in SCRIPTS])
def test_explain_sums_equal_scores(path, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)  # studio/deck/announcement paths in scripts are relative to the repo
    db = tmp_path / "m.db"
    run_script(db, path)
    game, match = match_of(path)
    log = read_json(db, "log", match)
    checked = 0
    for at in at_points(log):
        rows = score_rows(game, read_json(db, "scores", match, "--at", at))
        assert rows, f"scores --at {at} lists nobody"
        for participant, (total, categories) in rows.items():
            data = read_json(db, "explain", match, participant, "--at", at)
            check_explain(data, game, match, participant, total, categories)
            checked += 1
    # the end of the match, without --at, and its plain-text rendering
    rows = score_rows(game, read_json(db, "scores", match))
    for participant, (total, categories) in rows.items():
        check_explain(read_json(db, "explain", match, participant), game, match, participant, total, categories)
    participant = next(iter(rows))
    assert f"total: {rows[participant][0]}" in invoke(db, "explain", match, participant).output
    assert checked >= 2 * len(rows)


def test_explain_rejects_a_stranger(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    run_script(db, REPO / "fixtures" / "pw" / "swap_one_member.txt")
    result = invoke(db, "explain", "pw1", "nobody", expect=1)
    assert "'nobody'" in result.output
