"""Colour where it helps (verdicts, findings, "Error:"), off when the output is not a
terminal, under NO_COLOR (whatever its value) and with --no-color; --color forces it;
never in JSON."""

from __future__ import annotations

import sqlite3

import pytest

from tests.cli.support import ESCAPE, run, toy_database

GREEN, RED = "\x1b[32m", "\x1b[31m"


def tampered(db):
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET actor = 'mallory' WHERE seq = 2")
    conn.commit()
    conn.close()
    return db


#: Commands whose text output a colour could reach, and their exit codes.
OUTPUTS = [
    (["verify", "t1"], 0),
    (["verify", "--all"], 0),
    (["audit", "t1"], 0),
    (["diff", "t1", "t1"], 0),
    (["status", "t1"], 0),
    (["log", "t1"], 0),
    (["verify", "nope"], 1),
    (["stauts"], 2),
    (["status", "t1", "--public", "--as", "ann"], 2),
]


@pytest.mark.guarantee("cli.colour-off")
@pytest.mark.parametrize("args, code", OUTPUTS, ids=[" ".join(args) for args, _ in OUTPUTS])
def test_no_escape_code_when_the_output_is_not_a_terminal(tmp_path, args, code):
    db = toy_database(tmp_path)
    result = run("--db", str(db), *args)
    assert result.exit_code == code
    assert ESCAPE not in result.output


@pytest.mark.guarantee("cli.colour-off")
def test_no_escape_code_for_findings_that_are_not_on_a_terminal(tmp_path):
    db = tampered(toy_database(tmp_path))
    for args in (["verify", "t1"], ["audit", "t1"], ["scores", "t1"]):
        result = run("--db", str(db), *args)
        assert result.exit_code == 3 and ESCAPE not in result.output


def test_on_a_terminal_a_verdict_is_green_and_a_finding_and_error_red(tmp_path):
    db = toy_database(tmp_path)
    ok = run("--db", str(db), "verify", "t1", color=True)
    assert ok.stdout.startswith(f"{GREEN}t1: ok")
    assert run("--db", str(db), "audit", "t1", color=True).stdout.splitlines()[1] == f"{GREEN}verify: ok\x1b[0m"
    error = run("--db", str(db), "verify", "nope", color=True)
    assert error.stderr.startswith(f"{RED}\x1b[1mError:\x1b[0m no match 'nope'")
    usage = run("--db", str(db), "stauts", color=True)
    assert (
        usage.stderr.startswith("Usage: matchledger") and f"{RED}\x1b[1mError:\x1b[0m No such command" in usage.stderr
    )
    found = run("--db", str(tampered(db)), "verify", "t1", color=True)
    assert found.exit_code == 3 and found.stdout.startswith(f"{RED}\x1b[1mFINDING t1 seq 2")


@pytest.mark.guarantee("cli.colour-off")
@pytest.mark.parametrize("value", ["1", "", "false"])
def test_no_color_in_the_environment_wins_over_a_terminal_whatever_its_value(tmp_path, value):
    db = toy_database(tmp_path)
    for args in (["verify", "t1"], ["verify", "nope"], ["stauts"]):
        result = run("--db", str(db), *args, color=True, env={"NO_COLOR": value})
        assert ESCAPE not in result.output, args


@pytest.mark.guarantee("cli.colour-off")
def test_no_color_flag_turns_it_off_and_color_flag_forces_it_even_under_no_color(tmp_path):
    db = toy_database(tmp_path)
    assert ESCAPE not in run("--db", str(db), "--no-color", "verify", "t1", color=True).output
    assert ESCAPE not in run("--db", str(db), "--no-color", "verify", "nope", color=True).output
    forced = run("--db", str(db), "--color", "verify", "t1", env={"NO_COLOR": "1"})
    assert forced.stdout.startswith(f"{GREEN}t1: ok")
    forced_error = run("--db", str(db), "--color", "verify", "nope")
    assert forced_error.stderr.startswith(f"{RED}\x1b[1mError:")


@pytest.mark.guarantee("cli.colour-off")
def test_the_lines_of_a_script_keep_the_choice_of_the_command_line_that_runs_it(tmp_path):
    db = toy_database(tmp_path)
    script = tmp_path / "check.txt"
    script.write_text("verify t1\n")
    assert ESCAPE not in run("--db", str(db), "--no-color", "script", str(script), color=True).output
    assert f"{GREEN}t1: ok" in run("--db", str(db), "--color", "script", str(script)).stdout


@pytest.mark.guarantee("cli.colour-off")
@pytest.mark.parametrize(
    "args",
    [["verify", "t1", "--json"], ["verify", "--all", "--json"], ["audit", "t1", "--json"], ["status", "t1", "--json"]],
)
def test_json_is_never_coloured(tmp_path, args):
    db = toy_database(tmp_path)
    assert ESCAPE not in run("--db", str(db), "--color", *args, color=True).stdout
    assert ESCAPE not in run("--db", str(tampered(db)), "--color", "verify", "t1", "--json", color=True).stdout
