"""The plugin as a league runs it: `pytest --matchledger-history PATH` in a project of
its own (pytester, in this process), from the first pinning to the finding that a past
match now replays differently; bad input; and a plugin that costs nothing unasked."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
import syrupy

from tests.helpers import REPO, invoke
from tests.reliability.support import raw

pytest_plugins = ["pytester"]


def run(pytester, *args):
    """pytest in the league's project.  syrupy keeps the session it runs in a module
    global, which the run inside replaces with its own: this session's is given back."""
    outer = syrupy._syrupy
    try:
        return pytester.runpytest(*args)
    finally:
        syrupy._syrupy = outer


def export(db, match, path):
    invoke(db, "export", match, "-o", path)
    return path


@pytest.fixture
def league(pytester, season):
    """The league's folder of histories: two finished matches, exported."""
    folder = pytester.mkdir("histories")
    export(season, "amend5", folder / "amend5.jsonl")
    export(season, "pw2", folder / "pw2.jsonl")
    return folder


def test_a_league_pins_its_season_and_learns_where_a_match_replays_differently(pytester, league, tmp_path):
    result = run(pytester, "--matchledger-history", "histories")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*Nothing is pinned yet: run pytest with --snapshot-update*"])

    run(pytester, "--matchledger-history", "histories", "--snapshot-update").assert_outcomes(passed=2)
    pinned = league / "__history_snapshots__"
    assert sorted(path.name for path in pinned.iterdir()) == ["amend5.ambr", "pw2.ambr"]
    assert "  round 2 (seq 10), view dan\n" in (pinned / "amend5.ambr").read_text()
    run(pytester, "--matchledger-history", "histories").assert_outcomes(passed=2)

    # amend5 replaced by a history where dan placed one round-2 camera elsewhere
    script = (REPO / "fixtures" / "lca" / "amendment-example.txt").read_text()
    script = script.replace("submit amend5 dan E5 B12 E12", "submit amend5 dan E6 B12 E12")
    (tmp_path / "changed.txt").write_text(script)
    # a script reads studio files only from its own folder (and below)
    shutil.copytree(REPO / "fixtures" / "lca", tmp_path / "fixtures" / "lca")
    invoke(tmp_path / "changed.db", "script", tmp_path / "changed.txt", "--atomic")
    export(tmp_path / "changed.db", "amend5", league / "amend5.jsonl")
    result = run(pytester, "--matchledger-history", "histories", "-rf")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "match amend5, game lca: the replay differs from its snapshot in * places",
            "  round 2: views host, public, ann, bob, cat, dan, eve",
            "  round 3: views *",
            "  outcome: views *",
            "amend5, round 2, view host: reveals.rounds[[]round=2[]].private.dan.camera_score 24 → 21",
            "amend5, round 2, view host: reveals.rounds[[]round=2[]].private.eve.camera_score 24 → 30",
            "*",
            "amend5, round 2, view host: scores.scores[[]participant=dan[]].camera 24 → 21",
            "*",
            "A deliberate change (an amended ruling, a fixed rule): accept it with --snapshot-update*",
            "*",
            "FAILED histories/amend5.jsonl::amend5 - *",
        ]
    )
    assert "amend5, round 1" not in result.stdout.str()  # round 1 replays as pinned


def test_bad_input_fails_and_says_why_and_nothing_forged_is_pinned(pytester, season):
    folder = pytester.mkdir("histories")
    (folder / "notes.txt").write_text("not a history\n")
    lines = export(season, "amend5", pytester.path / "amend5.jsonl").read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"lights_score":60', '"lights_score":61')  # seq 6, its hash left as it was
    (folder / "amend5.jsonl").write_text("".join(lines))
    invoke(folder / "pw2.db", "import", export(season, "pw2", pytester.path / "pw2.jsonl"))
    raw(folder / "pw2.db", "UPDATE events SET body = replace(body, 'ann', 'bob') WHERE match_id = 'pw2' AND seq = 2")
    result = run(
        pytester,
        "--matchledger-history",
        "histories",
        "--matchledger-history",
        "histories/notes.txt",
        "--snapshot-update",
    )
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines_random(
        [
            "notes.txt is not a history (a matchledger database or an exported .jsonl file): *it is not an SQLite file; the file was left unchanged",
            "amend5 in amend5.jsonl: the chain is broken, so nothing of it is replayed or pinned: *amend5 seq 6: hash *",
            "pw2 in pw2.db: the chain is broken, so nothing of it is replayed or pinned: pw2 seq 2: hash *",
        ]
    )
    assert not (folder / "__history_snapshots__").exists()


def test_unasked_the_plugin_adds_nothing_and_loads_nothing(pytester):
    pytester.makepyfile("def test_one():\n    assert True\n")
    run(pytester).assert_outcomes(passed=1)
    run(pytester, "-p", "no:syrupy").assert_outcomes(passed=1)
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, matchledger.testing.plugin; print(sorted(m for m in sys.modules if m.startswith(('matchledger', 'syrupy'))))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert loaded.strip() == "['matchledger', 'matchledger.testing', 'matchledger.testing.plugin']"


def test_without_syrupy_the_option_says_what_is_missing(pytester):
    result = run(pytester, "-p", "no:syrupy", "--matchledger-history", "anything.db")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--matchledger-history compares histories with syrupy snapshots: install syrupy*"])
