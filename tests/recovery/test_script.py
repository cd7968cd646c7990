"""`script`: a line cannot name another database or actor, and `--atomic` reports only
what it wrote."""

from __future__ import annotations

import pytest

from tests.helpers import invoke, read_json

from .support import LCA_ROUNDS, STUDIO, stored_rows


def write_script(folder, *lines: str):
    (folder / "studio.txt").write_text(STUDIO, encoding="utf-8")
    path = folder / "s.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


NEW = "new lca m1 --players ann,bob,cat --studio studio.txt"


@pytest.mark.guarantee("safety.script-global-options")
@pytest.mark.parametrize(
    "line, option",
    [
        ("--db other.db submit m1 ann " + LCA_ROUNDS[0]["ann"], "--db"),
        ("--actor=mallory submit m1 ann " + LCA_ROUNDS[0]["ann"], "--actor"),
        ("submit m1 ann " + LCA_ROUNDS[0]["ann"] + " --db other.db", "--db"),
        ("--log-json note m1 hello", "--log-json"),
    ],
)
def test_a_script_line_with_a_global_option_is_refused_naming_the_line(tmp_path, monkeypatch, line, option):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "m.db"
    script = write_script(tmp_path, NEW, line)
    result = invoke(db, "script", script, expect=2)
    assert f"s.txt line 2 ({line}): {option} is an option of `matchledger` itself" in result.stderr
    assert not (tmp_path / "other.db").exists()
    # without --atomic the lines before it were recorded, as the refusal is of line 2
    assert [row[2] for row in stored_rows(db)] == ["MatchCreated"]
    invoke(tmp_path / "n.db", "script", "--atomic", script, expect=2)
    assert stored_rows(tmp_path / "n.db") == []


@pytest.mark.guarantee("safety.script-atomic-output")
def test_an_atomic_script_that_fails_prints_nothing_it_rolled_back_and_says_nothing_was_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "m.db"
    script = write_script(tmp_path, NEW, "submit m1 ann " + LCA_ROUNDS[0]["ann"], "close m1")
    result = invoke(db, "script", "--atomic", script, expect=1)
    assert "recorded seq" not in result.stdout and result.stdout == ""
    assert "line 3 (close m1): round 1 of 'm1' cannot close; no submission from bob, cat" in result.stderr
    assert result.stderr.rstrip().endswith("nothing was written (--atomic)")
    assert stored_rows(db) == []


@pytest.mark.guarantee("safety.script-atomic-output")
def test_an_atomic_script_that_succeeds_prints_each_lines_output_after_writing_them_all(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "m.db"
    script = write_script(
        tmp_path, NEW, "submit m1 ann " + LCA_ROUNDS[0]["ann"], "close m1 --force --reason 'bob and cat pass'"
    )
    result = invoke(db, "script", "--atomic", script)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("created lca match 'm1' with 3 players; recorded seq 1 (MatchCreated)")
    assert lines[1] == "ann: " + LCA_ROUNDS[0]["ann"] + "; recorded seq 2 (SubmissionRecorded)"
    assert lines[2] == "closed: recorded seq 3 (RoundClosed)"
    assert lines[-1] == f"{script}: 3 commands ran"
    assert read_json(db, "head", "m1")["seq"] == 3
