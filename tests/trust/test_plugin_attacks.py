"""A game installed from elsewhere, attacked as a careless host or one handed a crafted
database would: its declaration's defaults, a match of a game no longer installed,
and the files its setup parameters name."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from matchledger.engine.declaration import GameSpec
from matchledger.projections import snapshots


def _package(root, name: str, resolve: str) -> None:
    """A game package ``name`` under ``root`` whose rules are split in two modules: the
    entry point's ``game`` and the ``model`` it imports (as Lowest Unique is)."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "game.py").write_text("from .model import resolve\nGAME = None\n")
    (folder / "model.py").write_text(textwrap.dedent(resolve))


def _revision_of(root, name: str, monkeypatch) -> str | None:
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    spec = GameSpec(name="split", title="Split", kind="rounds", engine=f"{name}.game:GAME")  # code left to its default
    snapshots._revision.cache_clear()
    try:
        return snapshots._revision(tuple(spec.code))
    finally:
        sys.path.remove(str(root))
        snapshots._revision.cache_clear()
        for module in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[module]  # the other copy is found afresh


def test_a_declarations_default_code_covers_every_module_of_the_games_package(tmp_path, monkeypatch):
    """A spec that names no ``code`` is hashed into the snapshot revision by its engine's
    whole package, as the built-in games declare theirs: a fix to a module the entry
    point's module imports (how a round resolves) must change the revision, or a
    checkpoint written by the old rules would be read by the new ones."""
    _package(tmp_path / "old", "splitgame", "def resolve(numbers):\n    return min(numbers)\n")
    _package(tmp_path / "new", "splitgame", "def resolve(numbers):\n    return max(numbers)\n")
    before = _revision_of(tmp_path / "old", "splitgame", monkeypatch)
    after = _revision_of(tmp_path / "new", "splitgame", monkeypatch)
    assert before is not None and after is not None
    assert before != after


# --------------------------------------------------------------------------- a game no longer installed


def uninstalled_game_db(path):
    """A database holding match ``gone`` of game ``zz`` (as a game installed once and
    since removed leaves it) beside an lca match."""
    from matchledger.ledger.events import MatchCreated
    from matchledger.ledger.store import Store

    from ..helpers import invoke
    from .common import STUDIO

    store = Store(path)
    store.append(
        "gone",
        1,
        [MatchCreated(game="zz", players=["ann", "bob", "cat"], options={}, setup={})],
        actor="h",
        recorded_at="2026-01-01T00:00:00.000000Z",
    )
    store.close()
    invoke(path, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    return path


@pytest.mark.guarantee("service.game-not-installed")
def test_list_says_a_game_is_not_installed_rather_than_that_its_match_does_not_verify(tmp_path):
    """Uninstalling a plugin is not tampering: `list` must not raise a finding (exit 3,
    "does not verify") for the matches of a game this installation lacks."""
    from ..helpers import invoke

    db = uninstalled_game_db(tmp_path / "m.db")
    result = invoke(db, "list", expect=None)
    assert "not installed" in result.output, result.output
    assert "does not verify" not in result.output and result.exit_code != 3, result.output


# --------------------------------------------------------------------------- files a setup parameter names


def test_a_file_parameter_naming_a_fifo_nobody_writes_to_does_not_wait_for_ever(tmp_path):
    """`new GAME --FILE-PARAMETER F` (or a script handed to the host naming F beside it)
    where F is a named pipe with no writer: the read is bounded in bytes (/dev/zero is
    refused at the limit), and must be bounded in time too."""
    import os
    import threading

    from ..helpers import invoke

    fifo = tmp_path / "studio.txt"
    os.mkfifo(fifo)
    outcome: list = []

    def read() -> None:
        outcome.append(
            invoke(tmp_path / "m.db", "new", "lca", "m1", "--players", "ann,bob", "--studio", fifo, expect=None)
        )

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(3)
    blocked = reader.is_alive()
    if blocked:  # let the reader go: a writer that opens and closes at once
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
    assert not blocked, "`new --studio FIFO` still waits on a FIFO with no writer after 3 s"
    assert outcome and outcome[0].exit_code == 1, outcome  # refused as an input, nothing created


# --------------------------------------------------------------------------- a declaration new cannot take


@pytest.fixture(params=["--bad name", "--x=y", "--"])
def unusable_flag(request):
    """An installed game declaring a setup parameter whose flag no command line can
    spell (a space, an '=', nothing after the dashes)."""
    import dataclasses

    from matchledger import engine
    from matchledger.engine.declaration import SetupParameter

    from ..cli import declaredgame

    parameter = SetupParameter("size", "integer", help="a size", example="--size 1", flag=request.param)
    spec = dataclasses.replace(declaredgame.SPEC, setup=(parameter,))
    engine.register_spec(spec)
    yield request.param
    engine.unregister(spec.name)


def test_a_game_declaring_a_flag_no_command_line_can_spell_takes_new_from_no_other_game(tmp_path, unusable_flag):
    """One broken declaration must not take `new` away from the other games (as one
    whose module fails to import does not): the others are created and helped as
    ever, and the game itself is refused as a usage error naming its flag."""
    from ..helpers import invoke
    from .common import STUDIO

    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    assert "Setup of lca" in invoke(db, "new", "--help").output
    refused = invoke(db, "new", "declared", "m2", "--players", "ann,bob", expect=2)
    assert repr(unusable_flag) in refused.output and "cannot take" in refused.output


# --------------------------------------------------------------------------- discovery


def test_an_unreadable_entry_points_file_of_another_distribution_hides_no_game(tmp_path, monkeypatch):
    """Discovery reads every distribution's entry_points.txt on sys.path: one that is not
    UTF-8 (an old tool's, or a broken install of something else) is passed over, and
    the games declared by the others are still found."""
    from matchledger.engine.discovery import game_entry_points

    expected = game_entry_points()
    broken = tmp_path / "other_tool-1.0.dist-info"
    broken.mkdir()
    (broken / "entry_points.txt").write_bytes(b"[console_scripts]\nt\xe9l\xe9 = other:main\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = game_entry_points()
    assert found == expected and "lca" in found


def test_new_help_for_a_game_not_installed_says_it_is_not_installed(tmp_path):
    """`new GAME --help` with GAME mistyped (or since removed) says so: it does not
    answer with the help of every game as if no game had been typed."""
    from ..helpers import invoke

    helped = invoke(tmp_path / "m.db", "new", "lowest_unique", "--help").output
    assert "no game 'lowest_unique' is installed here" in helped, helped
    assert "Setup of lca" in helped  # and the installed ones are listed, to pick from


@pytest.mark.guarantee("service.game-not-installed")
def test_verify_all_verifies_the_other_matches_and_names_the_one_whose_game_is_not_installed(tmp_path):
    """`verify --all` over a database holding a match of a game not installed here goes
    on with the others, says which match it could not verify and why, and exits 1 (not
    3: nothing was found wrong); its JSON says so per match and is not ok."""
    import json

    from ..helpers import invoke

    db = uninstalled_game_db(tmp_path / "m.db")
    result = invoke(db, "verify", "--all", "--jobs", "1", expect=None)
    assert result.exit_code == 1, result.output
    assert "m1: ok" in result.output and "FINDING" not in result.output
    assert "gone: not verified here" in result.output and "'zz' is not installed" in result.output
    answer = invoke(db, "verify", "--all", "--jobs", "1", "--json", expect=None)
    report = json.loads(answer.stdout)
    assert report["ok"] is False and answer.exit_code == 1
    by_match = {entry["match"]: entry for entry in report["matches"]}
    assert by_match["gone"]["not_installed"] == "zz" and by_match["gone"]["findings"] == []
    assert by_match["m1"]["ok"] is True and "not_installed" not in by_match["m1"]
