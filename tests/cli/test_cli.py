"""The CLI skeleton on a temp database, driven through the toy game."""

import json
import sqlite3
import subprocess
import sys

import click
import pytest

from matchledger.commands.cli import COMMANDS, cli
from tests.helpers import invoke, read_json

SCRIPT = """\
# a toy match
new toy t1 --players ann,bob
submit t1 ann 3
submit t1 bob 5
close t1
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def count(db):
    conn = sqlite3.connect(db)
    n = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    conn.close()
    return n


def test_script_runs_every_line(tmp_path, empty_db_path):
    result = invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    assert "4 commands ran" in result.output
    assert read_json(empty_db_path, "scores", "t1") == {"totals": {"ann": 3, "bob": 5}}


def test_script_stops_at_first_failing_line_and_names_it(tmp_path, empty_db_path):
    script = SCRIPT + "submit t1 ann 12\nsubmit t1 bob 4\n"
    result = invoke(empty_db_path, "script", write(tmp_path, "s.txt", script), expect=1)
    assert "line 6 (submit t1 ann 12)" in result.output
    assert "'12'" in result.output
    assert count(empty_db_path) == 4  # the lines before it stand, the line after never ran


@pytest.mark.guarantee("log.atomic-command")
def test_atomic_script_writes_nothing_when_a_line_fails(tmp_path, empty_db_path):
    script = SCRIPT + "close t1\n"  # nobody submitted for round 2
    result = invoke(empty_db_path, "script", "--atomic", write(tmp_path, "s.txt", script), expect=1)
    assert "line 6" in result.output and "nobody has submitted" in result.output
    assert not empty_db_path.exists() or count(empty_db_path) == 0


def test_export_import_round_trip_is_byte_identical(tmp_path, empty_db_path):
    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    exported = invoke(empty_db_path, "export", "t1").stdout_bytes
    out = tmp_path / "t1.jsonl"
    out.write_bytes(exported)
    other = tmp_path / "other.db"
    invoke(other, "import", out)
    assert invoke(other, "export", "t1").stdout_bytes == exported
    assert read_json(other, "scores", "t1") == read_json(empty_db_path, "scores", "t1")
    again = invoke(other, "import", out, expect=1)
    assert "already exists" in again.output
    assert count(other) == 4


@pytest.mark.guarantee("input.mutated-import")
def test_import_refuses_a_broken_chain_and_malformed_lines(tmp_path, empty_db_path):
    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    lines = invoke(empty_db_path, "export", "t1").stdout.splitlines()
    record = json.loads(lines[1])
    record["body"]["tokens"] = ["9"]
    tampered = write(tmp_path, "bad.jsonl", "\n".join([lines[0], json.dumps(record), *lines[2:]]) + "\n")
    other = tmp_path / "other.db"
    result = invoke(other, "import", tampered, expect=3)
    assert "broken chain" in result.output and "seq 2" in result.output
    garbage = write(tmp_path, "junk.jsonl", lines[0] + "\n{oops\n")
    result = invoke(other, "import", garbage, expect=1)
    assert "line 2" in result.output
    assert not other.exists() or count(other) == 0


def test_verify_ok_and_head(tmp_path, empty_db_path):
    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    head = invoke(empty_db_path, "head", "t1").stdout.strip()
    assert head.startswith("4:") and len(head) == 66
    assert "ok" in invoke(empty_db_path, "verify", "t1", "--head", head).output
    invoke(empty_db_path, "verify", "t1", "--head", "9:" + "0" * 64, expect=3)
    invoke(empty_db_path, "verify", "t1", "--head", "nonsense", expect=2)


def test_verify_finds_a_wrong_host_announcement(tmp_path, empty_db_path):
    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT.replace("close t1\n", "")))
    announced = write(
        tmp_path,
        "a.json",
        json.dumps({"public": {"submitted": ["ann", "bob"]}, "private": {"ann": {"points": 3}, "bob": {"points": 6}}}),
    )
    invoke(empty_db_path, "close", "t1", "--announced", announced)
    result = json.loads(invoke(empty_db_path, "verify", "t1", "--json", expect=3).stdout)
    assert result["ok"] is False
    [finding] = result["matches"][0]["findings"]
    assert finding["seq"] == 4 and finding["field"] == "private.bob.points"
    assert (finding["recorded"], finding["recomputed"]) == (6, 5)


def test_at_shows_the_match_as_it_stood(tmp_path, empty_db_path):
    invoke(
        empty_db_path,
        "script",
        write(tmp_path, "s.txt", SCRIPT + "submit t1 ann 9\nclose t1 --force --reason 'bob passed'\n"),
    )
    assert read_json(empty_db_path, "scores", "t1", "--at", "4") == {"totals": {"ann": 3, "bob": 5}}
    assert read_json(empty_db_path, "scores", "t1") == {"totals": {"ann": 12, "bob": 5}}
    result = invoke(empty_db_path, "scores", "t1", "--at", "99", expect=1)
    assert "--at 99" in result.output and "1 to 6" in result.output


@pytest.mark.guarantee("input.one-line-errors")
def test_user_errors_are_one_line_without_traceback(tmp_path, empty_db_path):
    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    for args, fragment in [
        (("submit", "t1", "zed", "3"), "'zed' is not a participant"),
        (("scores", "nope"), "no match 'nope'"),
        (("new", "chess", "c1", "--players", "a,b"), "unknown game 'chess'"),
        (("new", "toy", "t1", "--players", "a,b"), "already exists"),
        (("new", "toy", "t2", "--players", "a,b", "--option", "speed=3"), "unknown option 'speed'"),
        (("new", "toy", "t2", "--players", "a,a"), "listed twice"),
    ]:
        result = invoke(empty_db_path, *args, expect=1)
        assert fragment in result.output
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert count(empty_db_path) == 4


@pytest.mark.guarantee("input.corrupt-file")
def test_corrupt_database_and_corrupt_body(tmp_path, empty_db_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"garbage" * 1000)
    result = invoke(bad, "log", "x", expect=1)
    assert "cannot open" in result.output and "Traceback" not in result.output

    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    conn = sqlite3.connect(empty_db_path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute('UPDATE events SET body = \'{"type":"Bogus"}\' WHERE seq = 3')
    conn.commit()
    conn.close()
    result = invoke(empty_db_path, "scores", "t1", expect=3)  # a read refuses what the chain does not vouch for
    assert "t1 seq 3: hash does not match the event's contents" in result.output and "does not verify" in result.output
    assert invoke(empty_db_path, "verify", "t1", expect=3).output.count("FINDING") == 1


def test_every_command_help_has_an_example():
    result = invoke("unused.db", "--help")
    assert "Example" in result.output
    for name in COMMANDS:
        text = invoke("unused.db", name, "--help").output
        assert "Example" in text, name
        assert "matchledger " in text, name


def test_the_line_help_lists_is_the_first_paragraph_of_each_commands_own_help():
    context = click.Context(cli)
    listed = invoke("unused.db", "--help").output
    for name, (_module, _attribute, summary) in COMMANDS.items():
        command = cli.get_command(context, name)
        assert command.name == name
        assert " ".join(command.help.split("\n\n")[0].split()) == summary, name
        assert name in listed


@pytest.mark.guarantee("one-way-in.lazy-commands")
def test_listing_the_commands_imports_none_of_them_and_running_one_imports_only_its_own():
    probe = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from matchledger.commands.cli import cli\n"
        "CliRunner().invoke(cli, sys.argv[1:])\n"
        "print(sorted(m for m in sys.modules if m.startswith('matchledger.')))\n"
    )

    def loaded(*args: str) -> list[str]:
        result = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, check=True)
        return eval(result.stdout.strip().splitlines()[-1])

    modules = {module for module, _attribute, _summary in COMMANDS.values()}
    on_help = loaded("--help")
    assert not [m for m in on_help if m.rpartition(".")[2] in modules]
    assert not [m for m in on_help if m.startswith(("matchledger.engine.", "matchledger.projections."))]
    on_head_help = loaded("head", "--help")
    assert "matchledger.commands.read" in on_head_help
    assert not [m for m in on_head_help if m.rpartition(".")[2] in modules - {"read"}]


def test_log_json_writes_json_lines_on_stderr(tmp_path, empty_db_path):
    from click.testing import CliRunner

    write(tmp_path, "s.txt", SCRIPT)
    result = CliRunner().invoke(cli, ["--db", str(empty_db_path), "--log-json", "submit", "zz", "ann", "1"])
    assert result.exit_code == 1
    log_lines = [line for line in result.stderr.splitlines() if line.startswith("{")]
    assert log_lines and json.loads(log_lines[0])["event"] == "command_failed"
    result = CliRunner().invoke(cli, ["--db", str(empty_db_path), "--log-json", "new", "toy", "t9", "--players", "a,b"])
    assert result.exit_code == 0
    [record] = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert record["event"] == "events_appended" and record["seqs"] == [1] and record["kinds"] == ["MatchCreated"]


@pytest.mark.guarantee("files.read-changes-nothing")
def test_a_read_on_a_missing_database_says_so_and_creates_nothing(tmp_path):
    missing = tmp_path / "nope.db"
    result = invoke(missing, "scores", "m1", expect=1)
    assert "no database at" in result.output and "nope.db" in result.output
    assert not missing.exists()
    invoke(missing, "init")
    assert missing.exists()


def test_import_with_a_non_ascii_hash_is_a_broken_chain_not_a_crash(tmp_path, empty_db_path):
    invoke(empty_db_path, "script", write(tmp_path, "s.txt", SCRIPT))
    lines = invoke(empty_db_path, "export", "t1").stdout.splitlines()
    record = json.loads(lines[1])
    record["prev_hash"] = record["prev_hash"][:-1] + "é"
    bad = write(tmp_path, "bad.jsonl", "\n".join([lines[0], json.dumps(record), *lines[2:]]) + "\n")
    other = tmp_path / "other.db"
    result = invoke(other, "import", bad, expect=3)
    assert "broken chain" in result.output and "seq 2" in result.output


def test_script_finds_files_beside_it_or_above_it_from_any_folder(tmp_path, monkeypatch):
    nested = tmp_path / "games" / "week1"
    nested.mkdir(parents=True)
    (nested / "m.txt").write_text("new toy t1 --players ann,bob\nsubmit t1 ann 3\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    db = tmp_path / "m.db"
    invoke(db, "script", nested / "m.txt")
    # the announcement lives beside the script, named relative to the folder above it
    (nested / "a.json").write_text('{"public": {"submitted": ["ann"]}, "private": {"ann": {"points": 3}}}')
    (nested / "close.txt").write_text("close t1 --announced week1/a.json --force --reason 'bob passed'\n")
    invoke(db, "script", nested / "close.txt")
    assert read_json(db, "reveals", "t1")["rounds"][0]["public"] == {"submitted": ["ann"]}
    (nested / "bad.txt").write_text("close t1 --announced missing.json\n")
    assert "cannot read announcement file 'missing.json'" in invoke(db, "script", nested / "bad.txt", expect=1).output
