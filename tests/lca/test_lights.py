"""Round 1: placement (L2), illumination (L3), brightness cap, lights score."""

import pytest

from matchledger.engine.lca.lights import light_reach, place_lights, resolve_lights
from matchledger.engine.lca.studio import Studio, cell_name, parse_cell
from matchledger.engine.lca.studio import parse_studio_text as rows
from matchledger.engine.state import HOST

from .util import new_match, open_floor, play, studio_text


def cells(text):
    return [parse_cell(t) for t in text.split()]


def names(cs):
    return [cell_name(c) for c in cs]


@pytest.mark.ruling("L2")
def test_L2_same_cell_same_priority_skipped_for_both_and_free_later():
    placed = place_lights(
        {
            "ann": cells("B2 C2 D2 E2 F2"),
            "bob": cells("B2 C3 D3 E3 F3"),
            "cat": cells("A1 B2 D4 E4 F4"),
        }
    )
    # L2: B2 named by ann and bob at priority 1 -> skipped for both; at priority 2 only cat
    # names B2, it is still empty, so cat places it
    assert names(placed["ann"]) == ["C2", "D2", "E2"]
    assert names(placed["bob"]) == ["C3", "D3", "E3"]
    assert names(placed["cat"]) == ["A1", "B2", "D4"]


@pytest.mark.ruling("L2")
def test_L2_occupied_cell_skipped_and_three_lights_stop_a_player():
    placed = place_lights(
        {
            "ann": cells("A1 B1 C1 D1 E1"),
            "bob": cells("A2 A1 B2 C2 D2"),
        }
    )
    # bob's priority-2 cell A1 already holds ann's light -> skipped; both stop at 3
    assert names(placed["ann"]) == ["A1", "B1", "C1"]
    assert names(placed["bob"]) == ["A2", "B2", "C2"]


@pytest.mark.ruling("L2")
def test_L2_a_player_with_three_lights_is_inactive_and_does_not_block():
    placed = place_lights(
        {
            "ann": cells("A1 B1 C1 E5 D5"),
            "bob": cells("A1 B1 C1 E5 D4"),
            "cat": cells("A3 B3 C3 A4 D5"),
        }
    )
    # priorities 1-3: ann and bob collide every time (skipped), cat places A3 B3 C3 and is
    # done. Priority 4: ann and bob both name E5 -> skipped. Priority 5: ann D5, bob D4;
    # cat also named D5 at priority 5 but is inactive (3 lights) so ann gets it.
    assert names(placed["ann"]) == ["D5"]
    assert names(placed["bob"]) == ["D4"]
    assert names(placed["cat"]) == ["A3", "B3", "C3"]


@pytest.mark.ruling("L2")
def test_L2_no_submission_places_nothing_and_is_announced_privately():
    m = play(new_match(open_floor(6, 6), ["ann", "bob"]), [{"ann": "A1 B2 C3 D4 E5"}])
    closed = m.events[-1]
    assert closed.private["bob"] == {"lights": [], "lights_score": 0}
    assert closed.private["ann"]["lights"] == ["A1", "B2", "C3"]


@pytest.mark.ruling("L3")
def test_L3_reach_is_manhattan_3_on_open_floor_without_own_cell():
    studio = Studio.from_rows(rows(open_floor(7, 7)))
    reach = light_reach(studio, {parse_cell("D4")}, parse_cell("D4"), True)
    # cells at 1, 2, 3 steps: 4 + 8 + 12 = 24
    assert len(reach) == 24 and parse_cell("D4") not in reach


@pytest.mark.ruling("L3")
def test_L3_walls_stop_light_and_are_never_brightened():
    studio = Studio.from_rows(rows(studio_text(".#...", ".#...", ".....")))
    reach = light_reach(studio, {parse_cell("A1")}, parse_cell("A1"), True)
    # from A1: A2 (1), A3 (2), B3 (3); the wall column B1-B2 blocks C1
    assert sorted(names(reach)) == ["A2", "A3", "B3"]


@pytest.mark.ruling("L3")
def test_L3_light_cut_by_another_light_and_option_lights_light_lights():
    studio = Studio.from_rows(rows("......."))
    lights = set(cells("A1 C1"))
    # A1 reaches B1, then C1 (a light: brightened with the option on) and stops there
    assert sorted(names(light_reach(studio, lights, parse_cell("A1"), True))) == ["B1", "C1"]
    assert sorted(names(light_reach(studio, lights, parse_cell("A1"), False))) == ["B1"]
    # C1 reaches B1, A1 (light) one way, D1 E1 F1 the other
    assert sorted(names(light_reach(studio, lights, parse_cell("C1"), True))) == ["A1", "B1", "D1", "E1", "F1"]


def test_lights_score_once_per_cell_with_option_on_and_off():
    # 4x2 floor, ann's lights on A1 and A2.  A1 reaches B1 C1 D1, A2 (light), B2 C2;
    # A2 reaches B2 C2 D2, A1 (light), B1 C1.  Brightness: A1 1, A2 1, B1 2, C1 2, D1 1,
    # B2 2, C2 2, D2 1.  ann scores each cell once: 3+3+2+2+3+2+2+3 = 20
    studio = Studio.from_rows(rows(open_floor(4, 2)))
    on = resolve_lights(studio, ["ann"], {"ann": cells("A1 A2")}, True)
    assert on.scores == {"ann": 20}
    # option off: A1 and A2 are never brightened -> 20 - 3 - 3 = 14
    off = resolve_lights(studio, ["ann"], {"ann": cells("A1 A2")}, False)
    assert off.scores == {"ann": 14}


def test_lights_score_table_levels_1_2_3():
    # 3x3 floor; ann A1 C1, bob A3 (bob's other priorities collide with ann's).
    # Counts: A1 2 (C1, A3), B1 3, C1 1, A2 3, B2 3, C2 3, A3 1, B3 3, C3 2 (C1, A3).
    # ann brightens all 9: 2+4+3+4+4+4+3+4+2 = 30
    # bob (A3) brightens A2 B3 A1 B2 C3 B1 C2: 4+4+2+4+2+4+4 = 24
    studio = Studio.from_rows(rows(open_floor(3, 3)))
    r = resolve_lights(studio, ["ann", "bob"], {"ann": cells("A1 C1 B2"), "bob": cells("A3 C3 B2")}, True)
    # B2 is named by both at priority 3 -> skipped; C3 at priority 2 only by bob -> placed
    assert names(r.placed["bob"]) == ["A3", "C3"]
    r = resolve_lights(studio, ["ann", "bob"], {"ann": cells("A1 C1"), "bob": cells("A3")}, True)
    assert {cell_name(c): n for c, n in r.count.items()} == {
        "A1": 2,
        "B1": 3,
        "C1": 1,
        "A2": 3,
        "B2": 3,
        "C2": 3,
        "A3": 1,
        "B3": 3,
        "C3": 2,
    }
    assert r.scores == {"ann": 30, "bob": 24}


def test_lights_score_table_level_4():
    # 3x3 floor, lights in all four corners (ann A1 C1 A3, bob C3): each corner light
    # reaches every cell but itself and the opposite corner.  Edges and centre: 4
    # (points 2); corners: 2 (points 2).  ann brightens all 9 -> 18; bob 7 cells -> 14
    studio = Studio.from_rows(rows(open_floor(3, 3)))
    r = resolve_lights(studio, ["ann", "bob"], {"ann": cells("A1 C1 A3"), "bob": cells("C3")}, True)
    assert r.scores == {"ann": 18, "bob": 14}
    assert r.level(parse_cell("B2")) == 4 and r.level(parse_cell("A1")) == 2


def test_brightness_capped_at_5_but_filming_counts_every_light():
    # a 5x5 floor (A-E) walled off (column F) from a dark floor (G-N) for spare cameras;
    # eight lights two steps from C3 -> 8 lights brighten C3, level capped at 5
    text = studio_text(*[".....#........"] * 5)
    m = new_match(text, ["ann", "bob", "cat", "dan"])
    play(
        m,
        [
            {"ann": "B2 D2 B4 A5 E5", "bob": "D4 C1 C5 A5 E5", "cat": "A3 E3 A1 A5 E5"},
            {"dan": "C3 H3 K3"},
            {"dan": "C3 H2 K4"},
        ],
    )
    g = m.state.g
    assert g.lights.count[parse_cell("C3")] == 8
    assert g.lights.level(parse_cell("C3")) == 5
    round1 = m.state.announcements[1]
    assert round1.public["brightness"]["C3"] == 5
    (filmed,) = [c for c in g.filming.cells if cell_name(c.cell) == "C3"]
    # camera centred on C3: 6 x level 5 = 30; action part 3 x (8 lights + 1 camera) = 27
    assert filmed.camera_part == {"dan": 30}
    assert filmed.action_part == {"dan": 27}


def test_public_round1_announcement_lists_lights_and_brightness_not_owners():
    # rows 1-2 as the match is played; the walls of row 3 cut off the floor of rows 4-9,
    # there only to give two players the floor they need and their cameras room (L4)
    m = new_match("....\n....\n####\n" + "....\n" * 6, ["ann", "bob"])
    play(m, [{"ann": "A1 A2 B1 B2 C1", "bob": "D2 D1 C2 C1 B2"}])
    # priority 1: A1 (ann), D2 (bob); 2: A2, D1; 3: B1, C2 -> both done
    public = m.state.announcements[1].public
    assert public["lights"] == ["A1", "B1", "D1", "A2", "C2", "D2"]
    # only C1 and B2 are floor; a light stops every path.  A1 reaches B1 A2;
    # B1 reaches A1 C1 B2 D1 C2 A2; D1 reaches C1 B1 C2 D2; A2 reaches A1 B2 B1 C2;
    # C2 reaches B2 C1 A2 B1 D1 D2; D2 reaches D1 C2.  Counting per cell:
    assert public["brightness"] == {"A1": 2, "B1": 4, "C1": 3, "D1": 3, "A2": 3, "B2": 3, "C2": 4, "D2": 2}
    assert set(public) == {"lights", "brightness"}
    # ann (A1 B1 A2) brightens A1(2) B1(4) A2(3) C1(3) B2(3) D1(3) C2(4):
    #   points 2+2+4+4+4+4+2 = 22
    # bob (D2 D1 C2) brightens C1(3) B1(4) C2(4) D2(2) B2(3) A2(3) D1(3):
    #   points 4+2+2+2+4+4+4 = 22
    scores = {r["participant"]: r["lights"] for r in m.game.scores(m.state, HOST)["scores"]}
    assert scores == {"ann": 22, "bob": 22}
