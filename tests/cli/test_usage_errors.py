"""Every misuse of the command line's options and arguments is a usage error: exit 2,
click's usage line, and nothing opened or written.  What the match holds decides only
input and rules errors (exit 1)."""

from __future__ import annotations

import pytest

from tests.cli.support import contents, run, toy_database

FULL_ZEROS = "0" * 64

#: (the words after `matchledger --db DB`, a fragment of the error): each a usage error.
MISUSES = [
    # two views at once, whichever comes first
    (["status", "t1", "--public", "--as", "ann"], "not both"),
    (["status", "t1", "--as", "ann", "--public"], "not both"),
    (["log", "t1", "--as", "", "--public"], "not both"),
    (["outcome", "t1", "--public", "--as", "bob"], "not both"),
    (["render", "t1", "--public", "--as", "bob", "-o", "x.svg"], "not both"),
    # --at forms no match has
    (["status", "t1", "--at", "0"], "events are numbered from 1"),
    (["scores", "t1", "--at", "-2"], "events are numbered from 1"),
    (["reveals", "t1", "--at", "two"], "not an event number"),
    (["knowledge", "t1", "--as", "ann", "--at", "1.5"], "not an event number"),
    (["explain", "t1", "ann", "--at", "0"], "events are numbered from 1"),
    (["render", "t1", "--at", "0", "-o", "x.svg"], "events are numbered from 1"),
    # KEY=VALUE
    (
        ["amend", "t1", "--option", "multiplier", "--from-round", "2", "--reason", "r"],
        "--option takes KEY=VALUE, got 'multiplier'",
    ),
    (["amend", "t1", "--option", "=2", "--from-round", "2", "--reason", "r"], "--option takes KEY=VALUE, got '=2'"),
    (["new", "toy", "t2", "--players", "a,b", "--option", "multiplier"], "KEY=VALUE"),
    (["new", "toy", "t2", "--players", "a,b", "--option", "multiplier=2", "--option", "multiplier=3"], "given twice"),
    (["new", "pw", "p2", "--players", "a,b", "--pair", "a"], "--pair takes KEY=VALUE"),
    (["rescore", "t1", "--option", "multiplier"], "KEY=VALUE"),
    # options that go together, or not
    (["verify"], "name one MATCH or give --all"),
    (["verify", "t1", "--all"], "name one MATCH or give --all"),
    (["verify", "--all", "--head", f"1:{FULL_ZEROS}"], "--head checks one match"),
    (["verify", "t1", "--jobs", "2"], "--jobs goes with --all"),
    (["diff", "t1"], "name a second match B"),
    (["outcome", "t1", "--announced", "final.json", "--public"], "--announced records results"),
    (["checkpoint"], "give one MATCH or --all"),
    # a head no log can have
    (["verify", "t1", "--head", "4:0123456789a"], "12 to 64 hex digits"),
    (["verify", "t1", "--head", "nonsense"], "is not SEQ:HASH"),
    (["verify", "t1", "--head", f"0:{FULL_ZEROS}"], "events are numbered from 1"),
    (["verify", "t1", "--head", f"4:{FULL_ZEROS}0"], "12 to 64 hex digits"),
    (["import", "t1.jsonl", "--head", "4:abc"], "12 to 64 hex digits"),
    # output names
    (["render", "t1", "-o", "board.txt"], "must end in .svg or .png"),
    (["report", "t1", "-o", "replay.txt"], "must end in .html or .htm"),
    (["export", "t1", "-o", ""], "-o needs a file name"),
    # global options after the command, a mistyped command, what click itself checks
    (["status", "t1", "--db", "other.db"], "--db is a global option"),
    (["submit", "t1", "ann", "3", "--actor", "eve"], "--actor is a global option"),
    (["stauts", "t1"], "Did you mean 'status'?"),
    (["knowledge", "t1"], "Missing option '--as'"),
    (["void", "t1", "two", "--reason", "r"], "not a valid integer"),
    (["verify", "--all", "--jobs", "0"], "--jobs"),
]


@pytest.mark.guarantee("cli.usage-exit-2")
@pytest.mark.parametrize("args, fragment", MISUSES, ids=[" ".join(args) for args, _ in MISUSES])
def test_every_misuse_of_options_and_arguments_exits_2_with_the_usage_line_and_writes_nothing(
    tmp_path, monkeypatch, args, fragment
):
    from matchledger.commands.cli import cli

    monkeypatch.setattr(cli, "commands", {})  # as in a new process: no command imported yet
    db = toy_database(tmp_path)
    before = contents(db)
    result = run("--db", str(db), *args)
    assert result.exit_code == 2, result.output
    assert "Usage: matchledger" in result.stderr
    assert fragment in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""
    assert contents(db) == before
    assert not (tmp_path / "other.db").exists()


#: What the match holds decides these: input or rules errors, exit 1, no usage line.
CONTENT_ERRORS = [
    (["status", "t1", "--at", "99"], "--at 99 is outside match 't1'"),
    (["knowledge", "t1", "--as", "zed"], "not a participant"),
    (["status", "nope"], "no match 'nope'"),
    (["submit", "t1", "ann", "12"], "'12'"),
    (["new", "toy", "t2", "--players", "a,b", "--option", "speed=3"], "unknown option 'speed'"),
    (["amend", "t1", "--option", "multiplier=x", "--from-round", "2", "--reason", "r"], "'x'"),
    (["import", "missing.jsonl"], "cannot read export file 'missing.jsonl'"),
]


@pytest.mark.guarantee("cli.usage-exit-2")
@pytest.mark.parametrize("args, fragment", CONTENT_ERRORS, ids=[" ".join(args) for args, _ in CONTENT_ERRORS])
def test_an_error_about_what_the_match_holds_stays_exit_1_without_the_usage_line(tmp_path, args, fragment):
    db = toy_database(tmp_path)
    before = contents(db)
    result = run("--db", str(db), *args)
    assert result.exit_code == 1, result.output
    assert fragment in result.stderr and "Usage:" not in result.stderr
    assert contents(db) == before
