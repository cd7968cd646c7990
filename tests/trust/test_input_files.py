"""Files we read (a studio, a deck, a script, an announcement, an export to import) are
bounded by ledger/limits.py (a game's own files by its declaration, engine/GAME/spec.py):
a larger one is refused, naming the limit, without being read through.  A file that is not UTF-8 is a clear error; a leading byte-order mark is
dropped."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from matchledger.engine.lca import spec as lca_spec
from matchledger.engine.photographer import spec as photographer_spec
from matchledger.ledger import limits

from ..helpers import REPO, invoke

STUDIO = (REPO / "fixtures" / "lca" / "studio-14x13.txt").read_bytes()
DECK = (REPO / "fixtures" / "photographer" / "deck-dry.txt").read_bytes()
BOM = b"\xef\xbb\xbf"


def _commands(tmp_path, name: str) -> dict[str, tuple[list[str], int]]:
    """What reads a file ``name``, and the limit on it: (command line, limit)."""
    return {
        "studio file": (["new", "lca", "l1", "--players", "ann,bob", "--studio", name], lca_spec.STUDIO_FILE_MAX_BYTES),
        "deck file": (
            ["new", "photographer", "p1", "--players", "ann,bob", "--deck", name],
            photographer_spec.DECK_FILE_MAX_BYTES,
        ),
        "script": (["script", name], limits.SCRIPT_FILE_MAX_BYTES),
        "announcement file": (["close", "l1", "--announced", name], limits.ANNOUNCED_FILE_MAX_BYTES),
        "export file": (["import", name], limits.EXPORT_FILE_MAX_BYTES),
    }


KINDS = ["studio file", "deck file", "script", "announcement file", "export file"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.guarantee("files.input-bounded")
def test_a_file_over_its_limit_is_refused_naming_the_limit(tmp_path, kind):
    big = tmp_path / "big.txt"
    args, limit = _commands(tmp_path, str(big))[kind]
    big.write_bytes(b"#" * (limit + 1))
    db = tmp_path / "m.db"
    result = invoke(db, *args, expect=1)
    assert f"{kind} {str(big)!r} is larger than the limit of {limit} bytes" in result.output


def _memory_capped() -> None:
    cap = 1 << 31  # 2 GiB: reading /dev/zero through would run into it
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.guarantee("files.input-bounded")
def test_an_endless_file_is_refused_without_being_read_through(tmp_path, kind):
    args, limit = _commands(tmp_path, "/dev/zero")[kind]
    result = subprocess.run(
        [sys.executable, "-m", "matchledger", "--db", str(tmp_path / "m.db"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_memory_capped,
    )
    assert result.returncode == 1
    assert f"is larger than the limit of {limit} bytes" in result.stderr, result.stderr


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.guarantee("files.input-utf8")
def test_a_file_that_is_not_utf8_is_a_clear_error(tmp_path, kind):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"new lca l1 \xff\xfe\n")
    args, _limit = _commands(tmp_path, str(bad))[kind]
    result = invoke(tmp_path / "m.db", *args, expect=1)
    assert f"{kind} {str(bad)!r} is not UTF-8 text (byte 0xff at offset 11)" in result.output


@pytest.mark.guarantee("files.input-utf8")
def test_a_byte_order_mark_is_dropped(tmp_path):
    plain, marked = tmp_path / "plain.db", tmp_path / "marked.db"
    for db, prefix in ((plain, b""), (marked, BOM)):
        (tmp_path / "studio.txt").write_bytes(prefix + STUDIO)
        (tmp_path / "deck.txt").write_bytes(prefix + DECK)
        (tmp_path / "s.txt").write_bytes(prefix + b"new lca l1 --players ann,bob --studio studio.txt\n")
        invoke(db, "script", tmp_path / "s.txt")
        invoke(db, "new", "photographer", "p1", "--players", "ann,bob", "--deck", tmp_path / "deck.txt")
    for match in ("l1", "p1"):
        assert invoke(plain, "status", match, "--json").stdout == invoke(marked, "status", match, "--json").stdout
    exported = tmp_path / "p1.jsonl"
    exported.write_bytes(BOM + invoke(plain, "export", "p1").stdout_bytes)
    invoke(tmp_path / "imported.db", "import", exported)
    announced = tmp_path / "announced.json"
    announced.write_bytes(BOM + b'{"public": {}, "private": {}}')
    result = invoke(plain, "close", "l1", "--announced", announced, expect=None)
    assert "not valid JSON" not in result.output  # read as JSON; what the rules say of it is another matter
