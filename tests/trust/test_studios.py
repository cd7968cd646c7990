"""A studio is bounded (STUDIO_MIN_SIDE to STUDIO_MAX_SIDE cells each way) and playable
(room for every player's lights and for the actions after them); its file may start
with a byte order mark and hold ``#`` comments, as deck files may."""

from __future__ import annotations

import pytest

from matchledger import engine
from matchledger.engine.lca.playable import floor_needed
from matchledger.engine.lca.spec import STUDIO_MAX_SIDE, STUDIO_MIN_SIDE
from matchledger.ledger.events import MatchCreated
from matchledger.ledger.limits import PNG_MAX_PIXELS
from tests.helpers import invoke, needs_png, read_json

from .common import rows
from .forged import plant


def studio(tmp_path, text: str, name: str = "studio.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def grid(width: int, height: int, walls: int = 0) -> str:
    """``height`` rows of ``width`` cells, the first ``walls`` cells (reading order) walls."""
    cells = ["#" if i < walls else "." for i in range(width * height)]
    return "".join("".join(cells[r * width : (r + 1) * width]) + "\n" for r in range(height))


def refused(db, path, players: str, fragment: str) -> str:
    result = invoke(db, "new", "lca", "m1", "--players", players, "--studio", path, expect=1)
    assert fragment in result.stderr, result.stderr
    assert rows(db) == []
    return result.stderr


@pytest.mark.parametrize(
    "width, height",
    [(250, 250), (STUDIO_MAX_SIDE + 1, 5), (5, STUDIO_MAX_SIDE + 1), (1, 1), (2, 9), (9, 2)],
)
@pytest.mark.guarantee("input.studio-size")
def test_a_studio_outside_the_sides_limits_is_refused_before_anything_is_written(
    tmp_path, empty_db_path, width, height
):
    message = refused(empty_db_path, studio(tmp_path, grid(width, height)), "ann,bob", f"{width}x{height}")
    assert f"{STUDIO_MIN_SIDE} to {STUDIO_MAX_SIDE} cells each way" in message


@pytest.mark.guarantee("input.studio-size")
def test_a_studio_file_beyond_its_size_limit_is_refused_before_it_is_parsed(tmp_path, empty_db_path):
    refused(empty_db_path, studio(tmp_path, grid(1000, 1000)), "ann,bob", "is larger than the limit of 65536 bytes")


@pytest.mark.guarantee("input.studio-size")
@pytest.mark.parametrize("suffix", ["svg", pytest.param("png", marks=needs_png())])
def test_the_largest_studio_is_accepted_and_drawn(tmp_path, empty_db_path, suffix):
    invoke(
        empty_db_path,
        "new",
        "lca",
        "m1",
        "--players",
        "ann,bob",
        "--studio",
        studio(tmp_path, grid(STUDIO_MAX_SIDE, STUDIO_MAX_SIDE)),
    )
    invoke(empty_db_path, "render", "m1", "-o", tmp_path / f"m1.{suffix}")
    assert (tmp_path / f"m1.{suffix}").stat().st_size > 0


@pytest.mark.guarantee("input.studio-size")
@pytest.mark.parametrize("width, height", [(STUDIO_MIN_SIDE, 9), (9, STUDIO_MIN_SIDE), (6, 6)])
def test_the_smallest_studios_are_accepted_and_a_whole_match_is_played_in_them(tmp_path, empty_db_path, width, height):
    """Every round can be played: three cameras of one player fit without sharing a cell."""
    invoke(empty_db_path, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio(tmp_path, grid(width, height)))
    floor = [f"{chr(65 + c)}{r + 1}" for r in range(height) for c in range(width)]
    invoke(empty_db_path, "submit", "m1", "ann", *floor[:5])
    invoke(empty_db_path, "submit", "m1", "bob", *floor[5:10])
    invoke(empty_db_path, "close", "m1")
    if width >= 9:
        cameras = ["B2", "E2", "H2"]
    elif height >= 9:
        cameras = ["B2", "B5", "B8"]
    else:
        cameras = ["B2", "E2", "B5"]
    for player in ("ann", "bob"):
        invoke(empty_db_path, "submit", "m1", player, *cameras)
    invoke(empty_db_path, "close", "m1")
    empty = list(floor[10:])[:3]
    for player in ("ann", "bob"):
        invoke(empty_db_path, "submit", "m1", player, *empty)
    invoke(empty_db_path, "close", "m1")
    assert invoke(empty_db_path, "verify", "m1").exit_code == 0


@pytest.mark.ruling("L4")
@pytest.mark.guarantee("input.studio-size")
@pytest.mark.parametrize("width, height", [(STUDIO_MIN_SIDE, 8), (8, 5), (5, 8), (5, 5)])
def test_l4_a_studio_where_a_players_three_cameras_cannot_fit_apart_is_refused(tmp_path, empty_db_path, width, height):
    message = refused(empty_db_path, studio(tmp_path, grid(width, height)), "ann,bob", f"{width}x{height}")
    assert "3x3 blocks that share no cell" in message


@pytest.mark.guarantee("input.studio-size")
def test_a_studio_of_walls_is_refused(tmp_path, empty_db_path):
    refused(empty_db_path, studio(tmp_path, grid(6, 6, walls=36)), "ann,bob", "has 0 floor cells")


@pytest.mark.guarantee("input.studio-size")
@pytest.mark.parametrize("players", [2, 5, 11])
def test_a_studio_needs_a_floor_cell_for_every_light_and_three_for_the_actions(tmp_path, empty_db_path, players):
    names = ",".join(f"p{i}" for i in range(players))
    needed = floor_needed(players)
    assert needed == 3 * players + 3
    width = 8
    cramped = grid(width, 8, walls=width * 8 - needed + 1)
    message = refused(empty_db_path, studio(tmp_path, cramped), names, f"has {needed - 1} floor cells")
    assert f"{players} players need at least {needed}" in message and "3 lights each" in message
    enough = grid(width, 8, walls=width * 8 - needed)
    invoke(empty_db_path, "new", "lca", "m1", "--players", names, "--studio", studio(tmp_path, enough))


@pytest.mark.guarantee("input.studio-file")
def test_a_byte_order_mark_and_comment_lines_are_ignored(tmp_path, empty_db_path):
    plain = "#........\n.........\n........#\n"
    commented = "\ufeff# the final's studio\n\n#........\n# walls at A1 and I3\n.........\n........#\n\n# end\n"
    invoke(empty_db_path, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio(tmp_path, plain, "a.txt"))
    invoke(empty_db_path, "new", "lca", "m2", "--players", "ann,bob", "--studio", studio(tmp_path, commented, "b.txt"))
    assert (
        read_json(empty_db_path, "status", "m2")["studio"]
        == read_json(empty_db_path, "status", "m1")["studio"]
        == plain.split()
    )


@pytest.mark.guarantee("input.studio-file")
def test_a_line_of_walls_is_a_row_not_a_comment(tmp_path, empty_db_path):
    invoke(
        empty_db_path, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio(tmp_path, "###\n" + "...\n" * 8)
    )
    assert read_json(empty_db_path, "status", "m1")["studio"] == ["###"] + ["..."] * 8


@pytest.mark.guarantee("input.studio-file")
def test_a_wrong_character_is_still_named_by_its_line_counting_comments(tmp_path, empty_db_path):
    refused(
        empty_db_path, studio(tmp_path, "# studio\n.....\n..x..\n.....\n"), "ann,bob", "studio line 3, character 3: 'x'"
    )


@pytest.mark.guarantee("input.picture-size")
def test_a_huge_studio_an_older_version_accepted_is_refused_by_the_pictures_not_drawn(tmp_path, empty_db_path):
    game = engine.get("lca")
    options = {name: spec.default for name, spec in game.OPTIONS.items()}
    created = MatchCreated(game="lca", players=["ann", "bob"], options=options, setup={"studio": ["." * 300] * 300})
    plant(empty_db_path, "big", [created], "host")  # import refuses it (tests/trust/test_hostile_import.py)
    for output in ("big.png", "big.svg", "big.html"):
        command = "report" if output.endswith(".html") else "render"
        result = invoke(empty_db_path, command, "big", "-o", tmp_path / output, expect=1)
        assert f"a picture is at most {PNG_MAX_PIXELS} pixels" in result.stderr
        assert not (tmp_path / output).exists()
