"""`verify --head` and `import --head` take the head as `head` prints it, or its hash cut
to a prefix of at least 12 hex digits (as `log` shows it); fewer is a usage error
naming the rule; a prefix that is not the event's is the finding a wrong hash is."""

from __future__ import annotations

import json
import re

import pytest

from matchledger.ledger.verify import HEAD_PREFIX_MIN_DIGITS
from tests.cli.support import contents, run, toy_database
from tests.helpers import invoke, read_json


def _other_digit(digit: str) -> str:
    return "0" if digit != "0" else "1"


def _findings(db, *head_args) -> list[dict]:
    result = invoke(db, "verify", "t1", "--json", *head_args, expect=3)
    return json.loads(result.stdout)["matches"][0]["findings"]


@pytest.mark.guarantee("cli.head-prefix")
@pytest.mark.parametrize("digits", [HEAD_PREFIX_MIN_DIGITS, 16, 40, 63, 64])
def test_verify_accepts_the_head_hash_cut_to_12_digits_or_more(tmp_path, digits):
    db = toy_database(tmp_path)
    head = read_json(db, "head", "t1")
    assert invoke(db, "verify", "t1", "--head", f"{head['seq']}:{head['hash'][:digits]}").output.startswith("t1: ok")
    assert invoke(db, "verify", "t1", "--head", f"{head['seq']}:{head['hash'][:digits].upper()}").exit_code == 0


@pytest.mark.guarantee("cli.head-prefix")
def test_verify_accepts_the_head_exactly_as_log_prints_it(tmp_path):
    db = toy_database(tmp_path)
    shown = re.search(r"head (\d+:[0-9a-f]+…)", invoke(db, "log", "t1").stdout).group(1)
    assert len(shown.partition(":")[2].rstrip("…")) >= HEAD_PREFIX_MIN_DIGITS
    assert invoke(db, "verify", "t1", "--head", shown).exit_code == 0


@pytest.mark.guarantee("cli.head-prefix")
def test_a_head_of_11_digits_is_a_usage_error_naming_the_rule(tmp_path):
    db = toy_database(tmp_path)
    head = read_json(db, "head", "t1")
    result = run("--db", str(db), "verify", "t1", "--head", f"{head['seq']}:{head['hash'][:11]}")
    assert result.exit_code == 2
    assert (
        "the hash must have 12 to 64 hex digits (a prefix of at least 12 stands for the whole hash), not 11"
        in result.stderr
    )


@pytest.mark.guarantee("cli.head-prefix")
def test_a_prefix_that_is_not_the_events_is_the_finding_a_wrong_full_hash_is(tmp_path):
    db = toy_database(tmp_path)
    head = read_json(db, "head", "t1")
    seq, digest = head["seq"], head["hash"]
    wrong_prefix = digest[:11] + _other_digit(digest[11])
    wrong_hash = wrong_prefix + digest[12:]
    [by_prefix] = _findings(db, "--head", f"{seq}:{wrong_prefix}")
    [by_hash] = _findings(db, "--head", f"{seq}:{wrong_hash}")
    assert by_prefix == {**by_hash, "recomputed": wrong_prefix}
    assert (by_prefix["seq"], by_prefix["field"], by_prefix["recorded"]) == (seq, "hash", digest)
    assert "hash differs from the published head" in by_prefix["problem"]
    # the prefix of an earlier event's hash is no prefix of the head's
    earlier = read_json(db, "log", "t1")[0]["hash"]
    assert _findings(db, "--head", f"{seq}:{earlier[:12]}")[0]["problem"] == by_hash["problem"]


def _export(tmp_path, db) -> bytes:
    return invoke(db, "export", "t1").stdout_bytes


@pytest.mark.guarantee("cli.import-stdin")
def test_import_dash_reads_standard_input_and_imports_the_same_bytes(tmp_path):
    db = toy_database(tmp_path)
    exported = _export(tmp_path, db)
    other = tmp_path / "other.db"
    result = run("--db", str(other), "import", "-", input=exported)
    assert result.exit_code == 0, result.output
    assert invoke(other, "export", "t1").stdout_bytes == exported


@pytest.mark.guarantee("cli.import-stdin")
def test_import_dash_is_bounded_by_the_export_size_limit(tmp_path, monkeypatch):
    db = toy_database(tmp_path)
    exported = _export(tmp_path, db)
    monkeypatch.setattr("matchledger.commands.transfer.EXPORT_FILE_MAX_BYTES", len(exported) - 1)
    other = tmp_path / "other.db"
    result = run("--db", str(other), "import", "-", input=exported)
    assert result.exit_code == 1
    assert f"export on standard input is larger than the limit of {len(exported) - 1} bytes" in result.stderr
    assert not other.exists()
    monkeypatch.setattr("matchledger.commands.transfer.EXPORT_FILE_MAX_BYTES", len(exported))
    assert run("--db", str(other), "import", "-", input=exported).exit_code == 0


@pytest.mark.guarantee("cli.import-head-pinned", "cli.head-prefix")
@pytest.mark.parametrize("digits", [12, 64])
def test_import_with_the_head_it_was_sent_imports(tmp_path, digits):
    db = toy_database(tmp_path)
    head = read_json(db, "head", "t1")
    path = tmp_path / "t1.jsonl"
    path.write_bytes(_export(tmp_path, db))
    other = tmp_path / "other.db"
    invoke(other, "import", path, "--head", f"{head['seq']}:{head['hash'][:digits]}")
    assert read_json(other, "head", "t1") == head


@pytest.mark.guarantee("cli.import-head-pinned")
@pytest.mark.parametrize("case", ["another hash", "another prefix", "past the end", "stdin"])
def test_import_of_an_export_without_the_pinned_head_is_refused_with_exit_3_and_nothing_written(tmp_path, case):
    db = toy_database(tmp_path)
    head = read_json(db, "head", "t1")
    seq, digest = head["seq"], head["hash"]
    path = tmp_path / "t1.jsonl"
    path.write_bytes(_export(tmp_path, db))
    pinned = {
        "another hash": f"{seq}:{_other_digit(digest[0])}{digest[1:]}",
        "another prefix": f"{seq}:{digest[:15]}{_other_digit(digest[15])}",
        "past the end": f"{seq + 1}:{digest}",
        "stdin": f"{seq - 1}:{digest[:12]}",
    }[case]
    other = tmp_path / "other.db"
    invoke(other, "init")
    before = contents(other)
    if case == "stdin":
        result = run("--db", str(other), "import", "-", "--head", pinned, input=path.read_bytes())
    else:
        result = run("--db", str(other), "import", str(path), "--head", pinned)
    assert result.exit_code == 3, result.output
    assert f"does not hold the head {pinned}, nothing imported" in result.stderr
    assert contents(other) == before
    fresh = tmp_path / "fresh.db"
    assert run("--db", str(fresh), "import", str(path), "--head", pinned).exit_code == 3
    assert not fresh.exists()
