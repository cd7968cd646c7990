"""A global option typed after the command is refused (exit 2), saying it goes before
the command and showing the line with it moved there; nothing is written."""

from __future__ import annotations

import pytest

from matchledger.commands.cli import GLOBAL_OPTIONS
from tests.cli.support import contents, run, toy_database
from tests.helpers import read_json

#: Each global option after the command, and the line the error shows instead.
MISPLACED = [
    (["status", "t1", "--db", "x.db"], "matchledger --db x.db status t1"),
    (["status", "t1", "--db=x.db", "--json"], "matchledger --db=x.db status t1 --json"),
    (["submit", "t1", "ann", "--actor", "eve", "3"], "matchledger --actor eve submit t1 ann 3"),
    (["scores", "t1", "--log-json"], "matchledger --log-json scores t1"),
    (["verify", "t1", "--color"], "matchledger --color verify t1"),
    (["verify", "t1", "--no-color"], "matchledger --no-color verify t1"),
]


def test_the_table_names_every_global_option_of_the_root_group():
    from matchledger.commands.cli import cli

    declared = {opt for param in cli.params for opt in (*param.opts, *param.secondary_opts)}
    assert set(GLOBAL_OPTIONS) == declared - {"--version", "-h", "--help"}


@pytest.mark.guarantee("cli.global-options-placed")
@pytest.mark.parametrize("args, line", MISPLACED, ids=[" ".join(args) for args, _ in MISPLACED])
def test_a_global_option_after_the_command_is_refused_showing_where_it_goes(tmp_path, monkeypatch, args, line):
    db = toy_database(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = contents(db)
    result = run(*args, env={"MATCHLEDGER_DB": str(db)})
    assert result.exit_code == 2, result.output
    option = next(arg.partition("=")[0] for arg in args if arg.partition("=")[0] in GLOBAL_OPTIONS)
    assert f"{option} is a global option: it goes before the command, as in `{line}`" in result.stderr
    assert "Usage: matchledger [OPTIONS] COMMAND" in result.stderr
    assert contents(db) == before
    assert not (tmp_path / "x.db").exists()


@pytest.mark.guarantee("cli.global-options-placed")
def test_after_a_double_dash_a_global_option_s_name_is_plain_text(tmp_path):
    db = toy_database(tmp_path)
    result = run("--db", str(db), "note", "t1", "--", "--db")
    assert result.exit_code == 0, result.output
    assert "--db is a global option" not in result.output


@pytest.mark.guarantee("cli.global-options-placed")
def test_global_options_before_the_command_work_as_before(tmp_path):
    db = toy_database(tmp_path)
    result = run("--db", str(db), "--actor", "eve", "--no-color", "note", "t1", "checked")
    assert result.exit_code == 0, result.output
    last = read_json(db, "log", "t1")[-1]
    assert (last["actor"], last["event"]["text"]) == ("eve", "checked")
