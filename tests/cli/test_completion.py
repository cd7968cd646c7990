"""Shell completion, through click's completion API and through the environment
variable a shell sets: command names, match ids, participant and player names, game
names, files; and it never creates or changes a database."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.shell_completion import ShellComplete

from matchledger.commands.cli import COMMANDS, cli
from tests.cli.support import contents, run, toy_database
from tests.helpers import installed_games, invoke


def completions(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    found = ShellComplete(cli, {}, "matchledger", "_MATCHLEDGER_COMPLETE").get_completions(args, incomplete)
    return [(item.value, item.type) for item in found]


def values(args: list[str], incomplete: str) -> list[str]:
    return [value for value, _type in completions(args, incomplete)]


@pytest.fixture
def toy_and_pw_db(tmp_path):
    db = toy_database(tmp_path)
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    return db


def test_command_names_come_from_the_table():
    assert values([], "s") == sorted(name for name in COMMANDS if name.startswith("s"))
    assert set(values([], "")) >= set(COMMANDS) and "verify" in values([], "ver")


def test_completing_a_command_name_imports_no_command_module():
    probe = (
        "import os, sys\n"
        "from matchledger.commands.cli import cli\n"
        "os.environ.update(_MATCHLEDGER_COMPLETE='bash_complete', COMP_WORDS='matchledger st', COMP_CWORD='1')\n"
        "try:\n"
        "    cli(prog_name='matchledger')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('matchledger.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "plain,status" in result.stdout.splitlines()
    loaded = eval(result.stdout.strip().splitlines()[-1])
    modules = {module for module, _attribute, _summary in COMMANDS.values()}
    assert not [m for m in loaded if m.rpartition(".")[2] in modules]
    assert not [m for m in loaded if m.startswith(("matchledger.engine", "matchledger.projections"))]


@pytest.mark.parametrize("command", ["status", "log", "verify", "export", "audit", "diff", "knowledge"])
def test_match_ids_come_from_the_database_named_by_db(toy_and_pw_db, command):
    assert values(["--db", str(toy_and_pw_db), command], "") == ["p1", "t1"]
    assert values(["--db", str(toy_and_pw_db), command], "t") == ["t1"]


def test_match_ids_come_from_the_database_named_by_matchledger_db(toy_and_pw_db, monkeypatch):
    monkeypatch.setenv("MATCHLEDGER_DB", str(toy_and_pw_db))
    assert values(["scores"], "") == ["p1", "t1"]


def test_participants_for_participant_arguments_and_as(toy_and_pw_db):
    everyone = ["ann", "bob", "yan", "zed"]
    assert sorted(values(["--db", str(toy_and_pw_db), "submit", "p1"], "")) == everyone
    assert sorted(values(["--db", str(toy_and_pw_db), "explain", "p1"], "")) == everyone
    assert sorted(values(["--db", str(toy_and_pw_db), "knowledge", "p1", "--as"], "")) == everyone
    assert values(["--db", str(toy_and_pw_db), "status", "p1", "--at", "1", "--as"], "z") == ["zed"]
    assert values(["--db", str(toy_and_pw_db), "render", "p1", "--as"], "y") == ["yan"]
    assert sorted(values(["--db", str(toy_and_pw_db), "submit", "t1"], "")) == ["ann", "bob"]


def test_players_for_contract(toy_and_pw_db):
    assert sorted(values(["--db", str(toy_and_pw_db), "contract", "p1"], "")) == ["ann", "bob"]


def test_game_names_for_new():
    assert set(installed_games()) <= set(values(["new"], ""))
    assert values(["new"], "ph") == ["photographer"]


@pytest.mark.parametrize(
    "args",
    [
        ["--db"],
        ["import"],
        ["script"],
        ["new", "lca", "m1", "--studio"],
        ["new", "photographer", "m1", "--deck"],
        ["export", "t1", "-o"],
        ["render", "t1", "-o"],
        ["report", "t1", "-o"],
        ["close", "t1", "--announced"],
        ["diff", "t1", "--db-b"],
    ],
)
def test_files_where_a_file_is_taken(args):
    assert completions(args, "fix") == [("fix", "file")]


@pytest.mark.guarantee("cli.completion-read-only")
def test_completion_on_a_missing_database_offers_nothing_and_creates_nothing(tmp_path):
    missing = tmp_path / "none.db"
    assert values(["--db", str(missing), "status"], "") == []
    assert values(["--db", str(missing), "submit", "t1"], "") == []
    assert not missing.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.guarantee("cli.completion-read-only")
def test_completion_changes_no_database_and_swallows_every_error(tmp_path, toy_and_pw_db):
    before = contents(toy_and_pw_db)
    bytes_before = toy_and_pw_db.read_bytes()
    for args in (["status"], ["submit", "t1"], ["knowledge", "p1", "--as"], ["submit", "nope"], ["contract", "p1"]):
        values(["--db", str(toy_and_pw_db), *args], "")
    assert contents(toy_and_pw_db) == before and toy_and_pw_db.read_bytes() == bytes_before
    foreign = tmp_path / "notes.txt"
    foreign.write_bytes(b"not a database")
    assert values(["--db", str(foreign), "status"], "") == []
    assert foreign.read_bytes() == b"not a database"


def test_the_shell_asks_through_the_environment_variable(toy_and_pw_db):
    env = {
        "_MATCHLEDGER_COMPLETE": "bash_complete",
        "COMP_WORDS": f"matchledger --db {toy_and_pw_db} status t",
        "COMP_CWORD": "4",
    }
    result = run(env=env)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["plain,t1"]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_a_script_that_asks_back_in_its_own_form(shell):
    result = run(env={"_MATCHLEDGER_COMPLETE": f"{shell}_source"})
    assert result.exit_code == 0
    assert f"_MATCHLEDGER_COMPLETE={shell}_complete" in result.stdout.replace('"', "")
