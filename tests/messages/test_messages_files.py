"""`messages -o DIR`: one file per message, each the message as `messages` prints it,
all written or none; a file already there is kept unless --force; a participant's name,
whatever an imported log holds, never names a file outside DIR."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from matchledger.commands.messages import file_stem
from tests.helpers import invoke, read_json
from tests.trust.forged import forged_lca, plant

pytestmark = pytest.mark.guarantee("messages.files")

LCA_NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]


def blocks(text: str) -> dict[str, str]:
    """`messages` text split into its messages: heading -> text."""
    out = {}
    for block in text.rstrip("\n").split("\n\n=== "):
        heading, _, body = block.removeprefix("=== ").partition(" ===\n")
        out[heading] = body
    return out


def tree(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*")}


def test_each_message_is_written_to_its_own_file_as_it_is_printed(fixtures_db, tmp_path):
    out = tmp_path / "round1"  # made: its parent exists
    result = invoke(fixtures_db, "messages", "ties8", "--round", 1, "-o", out)
    assert result.stdout.startswith(f"wrote 9 file(s) into {out}: public.txt, ann.txt")
    assert tree(out) == {"public.txt", *(f"{name}.txt" for name in LCA_NAMES)}  # nothing else: no temporary file
    printed = blocks(invoke(fixtures_db, "messages", "ties8", "--round", 1).stdout)
    assert (out / "public.txt").read_text() == printed["public post"] + "\n"
    for name in LCA_NAMES:
        assert (out / f"{name}.txt").read_text() == printed[f"to {name}"] + "\n"


def test_with_json_each_file_is_what_messages_prints_for_that_view(fixtures_db, tmp_path):
    invoke(fixtures_db, "messages", "pw1", "--json", "-o", tmp_path / "out")
    files = tree(tmp_path / "out")
    assert len(files) == 15 and "public.json" in files and "zed.json" in files
    assert json.loads((tmp_path / "out" / "public.json").read_text()) == read_json(
        fixtures_db, "messages", "pw1", "--public"
    )
    assert json.loads((tmp_path / "out" / "zed.json").read_text()) == read_json(
        fixtures_db, "messages", "pw1", "--as", "zed"
    )


def test_as_a_participant_only_their_file_is_written(fixtures_db, tmp_path):
    invoke(fixtures_db, "messages", "g2", "--as", "bob", "-o", tmp_path / "out")
    assert tree(tmp_path / "out") == {"bob.txt"}
    invoke(fixtures_db, "messages", "g2", "--public", "-o", tmp_path / "pub")
    assert tree(tmp_path / "pub") == {"public.txt"}


def test_a_file_already_there_is_kept_and_nothing_is_written_unless_force(fixtures_db, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "cat.txt").write_text("sent yesterday\n")
    result = invoke(fixtures_db, "messages", "ties8", "-o", out, expect=1)
    assert "cat.txt" in result.stderr and "already exists" in result.stderr and "--force" in result.stderr
    assert tree(out) == {"cat.txt"} and (out / "cat.txt").read_text() == "sent yesterday\n"
    invoke(fixtures_db, "messages", "ties8", "-o", out, "--force")
    assert len(tree(out)) == 9 and (out / "cat.txt").read_text().startswith("ties8: round 3 (actions) is closed.")


def test_a_symbolic_link_in_dir_is_never_written_through(fixtures_db, tmp_path):
    out, target = tmp_path / "out", tmp_path / "elsewhere.txt"
    out.mkdir()
    target.write_text("keep\n")
    (out / "ann.txt").symlink_to(target)
    result = invoke(fixtures_db, "messages", "ties8", "-o", out, "--force", expect=1)
    assert "symbolic link" in result.stderr
    assert target.read_text() == "keep\n" and tree(out) == {"ann.txt"}


def test_dir_must_be_a_folder_whose_parent_exists(fixtures_db, tmp_path):
    (tmp_path / "file").write_text("x")
    assert "not a folder" in invoke(fixtures_db, "messages", "ties8", "-o", tmp_path / "file", expect=1).stderr
    assert "no folder" in invoke(fixtures_db, "messages", "ties8", "-o", tmp_path / "a" / "b", expect=1).stderr
    assert not (tmp_path / "a").exists()
    assert invoke(fixtures_db, "messages", "ties8", "--force", expect=2).exit_code == 2  # --force without -o


HOSTILE_NAMES = [
    ["../escape", "/abs/olute"],
    ["..", "."],
    [".hidden", "a/b/../c"],
    ["bob\nforged", "x\x00y"],
    ["%2E%2E", "..%2F"],
    ["Ann", "ann"],
]


@pytest.mark.parametrize("players", HOSTILE_NAMES, ids=repr)
def test_no_imported_name_writes_a_file_outside_dir(tmp_path, players):
    """Names no current command accepts, as an imported log (an older version, another
    tool) may hold them: each message lands in DIR, under a name that is no path."""
    db, work = tmp_path / "m.db", tmp_path / "work"
    work.mkdir()
    plant(db, "f1", forged_lca("f1", players, "note"), "host")
    before = tree(tmp_path)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        result = invoke(db, "messages", "f1", "-o", "out", expect=None)
    finally:
        os.chdir(cwd)
    # SQLite's own files beside the database (a read in WAL mode may make them) aside
    created = {path for path in tree(tmp_path) - before if not path.startswith("m.db-")}
    if result.exit_code == 0:
        assert len(tree(work / "out")) == 3, result.stdout
    else:  # refused (two names one file on a file system that ignores case): nothing written
        assert "share the file" in result.stderr and created <= {"work/out"}, (result.stderr, created)
    assert all(path == "work/out" or path.startswith("work/out/") and path.count("/") == 2 for path in created), created


def test_file_stems_are_plain_names_and_never_the_same_for_two_names():
    names = [
        "ann",
        "Ann",
        ".",
        "..",
        "...",
        ".x",
        "a.b",
        "a/b",
        "/",
        "\\",
        "%",
        "%25",
        "%2F",
        "ü",
        "\x00",
        "-x",
        "a b",
        "\udcff",
        "CON",
        "x" * 40,
    ]
    stems = [file_stem(name) for name in names]
    assert len(set(stems)) == len(names)
    for stem in stems:
        assert stem not in (".", "..") and not stem.startswith(".") and "/" not in stem and "\x00" not in stem
        assert set(stem) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.%")
    assert [file_stem(n) for n in ("ann", "a.b", "x-1_y")] == ["ann", "a.b", "x-1_y"]  # a plain name is kept
