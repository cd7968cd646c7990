"""Inside `script FILE`, files named on a line are read and written only within the
script's folder and the current folder: no absolute path, `..` or symbolic link leads
elsewhere, nothing is written elsewhere, and no error shows what a file elsewhere holds."""

from __future__ import annotations

import shutil

import pytest

from ..helpers import REPO, invoke

pytestmark = pytest.mark.guarantee("files.script-confined")

SECRET = "root:x:0:0:SECRET-LINE"


@pytest.fixture
def places(tmp_path, monkeypatch):
    """The script's folder, the current folder (both allowed) and a folder elsewhere."""
    script_folder, current, elsewhere = (tmp_path / name for name in ("scripts", "current", "elsewhere"))
    for folder in (script_folder, current, elsewhere):
        folder.mkdir()
    (elsewhere / "passwd").write_text(SECRET + "\n")
    (elsewhere / "announced.json").write_text('{"public": {"secret": "' + SECRET + '"}}')
    shutil.copy(REPO / "fixtures" / "photographer" / "deck-dry.txt", script_folder / "deck.txt")
    monkeypatch.chdir(current)
    return script_folder, current, elsewhere


def _snapshot(folder) -> dict:
    return {path.relative_to(folder): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _run(places, *lines: str, expect: int):
    """Run the lines after a `new` line, in a script of their own, on a new database."""
    script_folder, current, _elsewhere = places
    for old in current.glob("m.db*"):
        old.unlink()
    script = script_folder / "s.txt"
    script.write_text("new photographer p1 --players ann,bob --seed 3\n" + "".join(line + "\n" for line in lines))
    return invoke(current / "m.db", "script", script, expect=expect)


def _escapes(places) -> list[str]:
    script_folder, _current, elsewhere = places
    (script_folder / "passwd-link").symlink_to(elsewhere / "passwd")
    (script_folder / "elsewhere-link").symlink_to(elsewhere, target_is_directory=True)
    return [
        str(elsewhere / "passwd"),
        "../elsewhere/passwd",
        "../../../../../../../../etc/passwd",
        "passwd-link",
        "elsewhere-link/passwd",
        "../scripts/../elsewhere/passwd",
    ]


def test_a_file_elsewhere_is_refused_by_name_and_never_shown(places):
    for name in _escapes(places):
        result = _run(places, f"new photographer p2 --players ann,bob --deck {name}", expect=1)
        assert f"deck file {name!r} is outside the script's folder and the current folder" in result.output
        assert "SECRET" not in result.output and "root:x" not in result.output


@pytest.mark.parametrize(
    "line",
    [
        "close p1 --announced {name}",
        "outcome p1 --announced {name}",
        "import {name}",
        "diff p1 --db-b {name}",
        "new lca l1 --players ann,bob --studio {name}",
    ],
)
def test_every_file_a_line_reads_is_kept_within_reach(places, line):
    _script_folder, _current, elsewhere = places
    for name in (str(elsewhere / "announced.json"), "../elsewhere/announced.json"):
        result = _run(places, line.format(name=name), expect=1)
        assert "outside the script's folder and the current folder" in result.output
        assert "SECRET" not in result.output


@pytest.mark.parametrize(
    "command, name", [("export p1", "out.jsonl"), ("render p1", "out.svg"), ("report p1", "out.html")]
)
def test_nothing_is_written_elsewhere(places, command, name):
    _script_folder, current, elsewhere = places
    (current / "elsewhere-link").symlink_to(elsewhere, target_is_directory=True)  # outputs are named from here
    before = _snapshot(elsewhere)
    for target in (str(elsewhere / name), f"../elsewhere/{name}", f"elsewhere-link/{name}", f"/tmp/{name}"):
        result = _run(places, f"{command} -o {target}", expect=1)
        assert f"cannot write {target!r}: it is outside the script's folder and the current folder" in result.output
    assert _snapshot(elsewhere) == before


def test_files_within_reach_are_read_and_written_as_before(places):
    script_folder, current, _elsewhere = places
    (current / "deck2.txt").write_bytes((script_folder / "deck.txt").read_bytes())
    _run(
        places,
        "new photographer p2 --players ann,bob --deck deck.txt",  # beside the script
        "new photographer p3 --players ann,bob --deck deck2.txt",  # in the current folder
        "new photographer p4 --players ann,bob --deck scripts/deck.txt",  # found from the folder above
        f"new photographer p5 --players ann,bob --deck {script_folder}/../scripts/deck.txt",
        "export p2 -o p2.jsonl",
        f"render p2 -o {script_folder}/p2.svg",
        expect=0,
    )
    assert (current / "p2.jsonl").exists() and (script_folder / "p2.svg").exists()


def test_outside_a_script_the_host_names_any_file(places):
    _script_folder, current, elsewhere = places
    invoke(current / "m.db", "new", "photographer", "p1", "--players", "ann,bob", "--seed", "3")
    invoke(current / "m.db", "export", "p1", "-o", elsewhere / "p1.jsonl")
    assert (elsewhere / "p1.jsonl").exists()
