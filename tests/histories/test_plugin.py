"""The plugin as a league runs it: `pytest --matchledger-history PATH` in a project of
its own (pytester, in this process), from the first pinning to the finding that a past
match now replays differently; bad input; and a plugin that costs nothing unasked."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
import syrupy
from syrupy.data import Snapshot, SnapshotCollection
from syrupy.extensions.amber.serializer import AmberDataSerializer

from matchledger.ledger.postgres_urls import printable_url
from matchledger.testing import replay_history
from tests.helpers import REPO, invoke
from tests.reliability.support import raw

from .earlier_layout import earlier_text

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
def exported_histories(pytester, season_db):
    """The league's folder of histories: two finished matches, exported."""
    folder = pytester.mkdir("histories")
    export(season_db, "amend5", folder / "amend5.jsonl")
    export(season_db, "pw2", folder / "pw2.jsonl")
    return folder


def test_a_league_pins_its_season_and_learns_where_a_match_replays_differently(pytester, exported_histories, tmp_path):
    result = run(pytester, "--matchledger-history", "histories")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*Nothing is pinned yet: run pytest with --snapshot-update*"])

    run(pytester, "--matchledger-history", "histories", "--snapshot-update").assert_outcomes(passed=2)
    pinned = exported_histories / "__history_snapshots__"
    # a file a match, in a folder a history file, the history as a reviewer reads it
    assert sorted(path.relative_to(pinned).as_posix() for path in pinned.rglob("*.*")) == [
        "amend5/amend5.txt",
        "pw2/pw2.txt",
    ]
    assert "\nround 2 (seq 10), view dan\n" in (pinned / "amend5" / "amend5.txt").read_text()
    run(pytester, "--matchledger-history", "histories").assert_outcomes(passed=2)

    # amend5 replaced by a history where dan placed one round-2 camera elsewhere
    script = (REPO / "fixtures" / "lca" / "amendment-example.txt").read_text()
    script = script.replace("submit amend5 dan E5 B12 E12", "submit amend5 dan E6 B12 E12")
    (tmp_path / "changed.txt").write_text(script)
    # a script reads studio files only from its own folder (and below)
    shutil.copytree(REPO / "fixtures" / "lca", tmp_path / "fixtures" / "lca")
    invoke(tmp_path / "changed.db", "script", tmp_path / "changed.txt", "--atomic")
    export(tmp_path / "changed.db", "amend5", exported_histories / "amend5.jsonl")
    result = run(pytester, "--matchledger-history", "histories", "-rf")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(
        [
            "match amend5, game lca: the replay differs from its snapshot in * places",
            "final outcome:",
            "  dan: total 159 → 156 (camera 24 → 21)",
            "  ann: total 140 → 137 (filming 30 → 27)",
            "  eve: total 81 → 87 (camera 24 → 30)",
            '  award lost: dan: tol_shard (reason "highest camera", shards 1)',
            "first difference: round 2 (seq 10)",
            "  amend5, round 2, view host: reveals.rounds[[]round=2[]].private.dan.camera_score 24 → 21",
            "  amend5, round 2, view host: reveals.rounds[[]round=2[]].private.eve.camera_score 24 → 30",
            "*",
            "  … and * more at this step",
            # the export is another log from dan's camera on, not the pinned one replayed otherwise
            "log: rewritten from seq 8: pinned SubmissionRecorded *, now SubmissionRecorded * (the pinned head was 17)",
            "* more differences at 2 later steps: -v lists the steps and the first ones, -vv every one",
            "A deliberate change (a correction, an amended ruling, a fixed rule): accept it with --snapshot-update*",
            "*",
            "FAILED histories/amend5.jsonl::amend5 - *",
        ]
    )
    assert "amend5, round 1" not in result.stdout.str()  # round 1 replays as pinned


@pytest.fixture
def league_db(pytester, season_db):
    """The league's database, holding card11 (lca, 11 players) as played, pinned."""
    folder = pytester.mkdir("histories")
    invoke(folder / "league.db", "import", export(season_db, "card11", pytester.path / "card11.jsonl"))
    run(pytester, "--matchledger-history", "histories", "--snapshot-update").assert_outcomes(passed=1)
    return folder / "league.db"


def correct_kims_round_3(db):
    """kim's DM said E6, not E5: round 3 reopened, her submission (seq 45) voided and
    made again, and the round closed again."""
    invoke(db, "reopen", "card11", "--reason", "kim's DM said E6")
    invoke(db, "void", "card11", "45", "--reason", "kim's DM said E6")
    invoke(db, "submit", "card11", "kim", "E6", "L11", "I10")
    invoke(db, "close", "card11")


def test_a_corrected_round_fails_saying_the_outcome_that_moved_then_where_it_starts_and_how_the_log_moved(
    pytester, league_db
):
    correct_kims_round_3(league_db)
    result = run(pytester, "--matchledger-history", "histories")
    result.assert_outcomes(failed=1)
    # first what changed in the final outcome, everyone whose total or rank moved and
    # the scores that moved it, and the awards; then the first differing step, with a few
    # of its differences; then how the log moved; the bulk only counted
    result.stdout.re_match_lines(
        [
            r"match card11, game lca: the replay differs from its snapshot in \d+ places",
            r"final outcome:",
            r"  hal: total 375 → 374 \(filming 62 → 61\)",
            r"  dan: total 305 → 310 \(action 35 → 40\)",
            r"  eve: rank 7 → 6",
            r"  ivy: total 290 → 279, rank 6 → 7 \(action 23 → 22, filming 72 → 62\)",
            r"  kim: total 238 → 219 \(action 33 → 32, filming 119 → 101\)",
            r'  award lost: kim: tol \(reason "highest filming", shards 4\)',
            r'  award gained: fay: tol \(reason "highest filming", shards 4\)',
            r"first difference: round 3 reopened \(seq 49\)",
            r"  card11, round 3 reopened: a step the snapshot does not have \(after seq 49\)",
            r"  card11, round 3 reopened, view host: .*",
            r"  … and \d+ more at this step",
            r"log: it ends 5 events past the pinned head 47 \(49 RoundReopened, 50 SubmissionVoided, "
            r"51 SubmissionRecorded, 52 RoundClosed, 53 OutcomeAnnounced\)",
            r"\d+ more differences at 3 later steps: -v lists the steps and the first ones, -vv every one",
            r"A deliberate change .*",
        ],
        consecutive=False,
    )
    text = result.stdout.str()
    assert text.index("final outcome:") < text.index("first difference:") < text.index("log: it ends")
    assert "round 3 closed again" not in text  # the bulk waits for -v
    assert "kim: total 354" not in text

    verbose = run(pytester, "--matchledger-history", "histories", "-v").stdout
    verbose.fnmatch_lines(["where:", "  round 3 reopened: views host, public, *", "  round 3 closed again: views *"])
    every = run(pytester, "--matchledger-history", "histories", "-vv").stdout.str()
    every = every[every.index("differs from its snapshot") : every.index("A deliberate change")]
    places = int(re.search(r"differs from its snapshot in (\d+) places", every)[1])
    assert len(re.findall(r"^ *card11, (round|outcome|submission)", every, re.MULTILINE)) == places


def test_a_postgresql_database_is_pinned_through_the_store_factory_like_a_file(pytester, season_db, postgres_url):
    # the same match in the league's PostgreSQL database as in the SQLite season
    invoke(postgres_url, "import", export(season_db, "card11", pytester.path / "card11.jsonl"))
    assert replay_history(postgres_url, "card11") == replay_history(season_db, "card11")

    result = run(pytester, "--matchledger-history", postgres_url, "--snapshot-update")
    result.assert_outcomes(passed=1)
    # no folder holds a URL: its snapshots are in the run's root folder, under the database's name
    database = urlsplit(postgres_url).path.lstrip("/")
    pinned = pytester.path / "__history_snapshots__" / database / "card11.txt"
    assert pinned.read_text().startswith("match card11, game lca\n")
    run(pytester, "--matchledger-history", postgres_url).assert_outcomes(passed=1)

    correct_kims_round_3(postgres_url)
    result = run(pytester, "--matchledger-history", postgres_url)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"*card11 in {printable_url(postgres_url)}*",
            "final outcome:",
            "  hal: total 375 → 374 (filming 62 → 61)",
            "*",
            "first difference: round 3 reopened (seq 49)",
            "*",
            "log: it ends 5 events past the pinned head 47 (49 RoundReopened, *)",
        ]
    )


def test_a_database_url_that_cannot_be_read_fails_saying_why_without_its_password(pytester, postgres_server):
    url = postgres_server.url("no_such_database", password="secret-word")
    result = run(pytester, "--matchledger-history", url)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"{printable_url(url)}: *"])
    assert "secret-word" not in result.stdout.str()


def test_snapshots_an_earlier_version_pinned_are_checked_and_moved_to_a_file_a_match(
    pytester, exported_histories, histories
):
    # pinned by matchledger 0.1: every match of a history file in one amber file, where
    # amend5's says dan's round 2 camera scored 25 (the rules, now, give 24)
    amend5 = copy.deepcopy(histories("amend5"))
    for step in amend5.steps[1:]:
        step.views["host"]["reveals"]["rounds"][1]["private"]["dan"]["camera_score"] = 25
    earlier = exported_histories / "__history_snapshots__" / "amend5.ambr"
    earlier.parent.mkdir()
    AmberDataSerializer.write_file(_collection(earlier, amend5=earlier_text(amend5)))
    AmberDataSerializer.write_file(_collection(earlier.with_name("pw2.ambr"), pw2=earlier_text(histories("pw2"))))

    result = run(pytester, "--matchledger-history", "histories")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines_random(
        [
            "match pw2, game pw: the replay is the one pinned, value for value, but the snapshot was written "
            "in an earlier layout: rewrite it with --snapshot-update (nothing else changes)",
            "match amend5, game lca: the replay differs from its snapshot in 1 place",
            "  amend5, round 2, view host: reveals.rounds[[]round=2[]].private.dan.camera_score 25 → 24",
            "log: the snapshot does not list its log (an earlier version of matchledger wrote it)",
        ]
    )
    run(pytester, "--matchledger-history", "histories", "--snapshot-update").assert_outcomes(passed=2)
    pinned = exported_histories / "__history_snapshots__"
    assert sorted(path.relative_to(pinned).as_posix() for path in pinned.rglob("*.*")) == [
        "amend5/amend5.txt",
        "pw2/pw2.txt",
    ]
    run(pytester, "--matchledger-history", "histories").assert_outcomes(passed=2)


def _collection(path, **texts):
    collection = SnapshotCollection(location=str(path))
    for name, text in texts.items():
        collection.add(Snapshot(name=name, data=text))
    return collection


def test_a_match_gone_leaves_an_unused_snapshot_that_snapshot_update_removes(pytester, exported_histories):
    run(pytester, "--matchledger-history", "histories", "--snapshot-update").assert_outcomes(passed=2)
    pinned = exported_histories / "__history_snapshots__"
    # -k runs one match: the other's snapshot is neither unused nor removed
    result = run(pytester, "--matchledger-history", "histories", "-k", "amend5", "--snapshot-update")
    result.assert_outcomes(passed=1, deselected=1)
    assert (pinned / "pw2" / "pw2.txt").is_file()

    (exported_histories / "pw2.jsonl").unlink()
    result = run(pytester, "--matchledger-history", "histories")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*1 snapshot unused*"])
    run(pytester, "--matchledger-history", "histories", "--snapshot-update").stdout.fnmatch_lines(
        ["*1 unused snapshot deleted*"]
    )
    assert not (pinned / "pw2" / "pw2.txt").exists() and (pinned / "amend5" / "amend5.txt").is_file()


def test_bad_input_fails_and_says_why_and_nothing_forged_is_pinned(pytester, season_db):
    folder = pytester.mkdir("histories")
    (folder / "notes.txt").write_text("not a history\n")
    lines = export(season_db, "amend5", pytester.path / "amend5.jsonl").read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"lights_score":60', '"lights_score":61')  # seq 6, its hash left as it was
    (folder / "amend5.jsonl").write_text("".join(lines))
    invoke(folder / "pw2.db", "import", export(season_db, "pw2", pytester.path / "pw2.jsonl"))
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
