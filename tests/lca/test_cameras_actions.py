"""Round 2 (cameras, L4) and Round 3 (actions: merge, diamond L5, line, distance)."""

from fractions import Fraction

import pytest

from matchledger.engine.lca.actions import resolve_actions
from matchledger.engine.lca.cameras import resolve_cameras
from matchledger.engine.lca.lights import resolve_lights
from matchledger.engine.lca.studio import Studio, cell_name, parse_cell
from matchledger.engine.lca.studio import parse_studio_text as rows

from .util import new_match, open_floor, play, studio_text


def cells(text):
    return [parse_cell(t) for t in text.split()]


# ------------------------------------------------------------------ cameras


def test_camera_score_shares_light_between_cameras_and_rounds_down():
    # 4x3 floor, one light on A1 (ann): it brightens B1 A2 C1 B2 A3 D1 C2 B3 (level 1).
    # bob's camera on B2 sees A1-C3, cat's on C2 sees B1-D3; columns B and C are seen twice.
    # bob: A2 1 + A3 1 (alone) -> 3 + 3 = 6; B1 B2 B3 C1 C2 lit, C3 dark, shared by two:
    #      5 x 3/2 = 7.5 -> 13.5 -> 13
    # cat: 7.5 from columns B-C; D1 lit (alone) 3, D2 D3 dark -> 10.5 -> 10
    studio = Studio.from_rows(rows(open_floor(4, 3)))
    lights = resolve_lights(studio, ["ann", "bob", "cat"], {"ann": cells("A1")}, True)
    assert lights.scores["ann"] == 24  # 8 cells at brightness 1, 3 points each
    cams = resolve_cameras(["ann", "bob", "cat"], {"bob": cells("B2"), "cat": cells("C2")}, lights)
    assert cams.exact == {"ann": 0, "bob": Fraction(27, 2), "cat": Fraction(21, 2)}
    assert cams.scores == {"ann": 0, "bob": 13, "cat": 10}


def test_coinciding_cameras_split_and_lights_are_seen_with_their_level():
    # 3x3, lights in the four corners: corners level 2, edges and centre level 4.
    # Two cameras on B2 (bob, cat): every cell seen twice, 3 x (4x2 + 5x4) / 2 = 42 each;
    # with lights_light_lights=false the corners are 0: 3 x 20 / 2 = 30 each
    studio = Studio.from_rows(rows(open_floor(3, 3)))
    for option, each in ((True, 42), (False, 30)):
        lights = resolve_lights(studio, ["ann", "bob", "cat"], {"ann": cells("A1 C1 A3"), "bob": cells("C3")}, option)
        cams = resolve_cameras(["ann", "bob", "cat"], {"bob": cells("B2"), "cat": cells("B2")}, lights)
        assert cams.scores == {"ann": 0, "bob": each, "cat": each}
        assert cams.centres() == cells("B2 B2")


def test_camera_on_a_wall_sees_walls_as_dark_and_announced_centres_keep_duplicates():
    text = studio_text("#........", ".#.......", ".........")
    m = play(
        new_match(text, ["ann", "bob"]),
        [
            {"ann": "C1 D1 E1 F1 G1"},
            {"ann": "B2 E2 H2", "bob": "H2 E2 B2"},
        ],
    )
    assert m.state.announcements[2].public == {"cameras": ["B2", "B2", "E2", "E2", "H2", "H2"]}
    # lights C1 D1 E1; brightness by hand (walls A1, B2 stop light, lights stop paths):
    #   B2 block (A1 wall 0, B1 1, C1 1, A2 0, B2 wall 0, C2 3, A3 0, B3 1, C3 2) = 8
    #   E2 block (D1 2, E1 1, F1 1, D2 3, E2 3, F2 2, D3 3, E3 2, F3 1)         = 18
    #   H2 block (G1 1, H1 1, G2 1, the rest 0)                                   = 3
    # every cell seen by two cameras: 3 x 29 / 2 = 43.5 -> 43 each
    assert m.state.g.cameras.scores == {"ann": 43, "bob": 43}


# ------------------------------------------------------------------ actions


def actions(text_rows, named, lights=(), empty_centre=True):
    studio = Studio.from_rows(rows(studio_text(*text_rows)))
    players = list(named)
    return resolve_actions(
        studio, players, {p: cells(v) for p, v in named.items()}, set(cells(" ".join(lights))), empty_centre
    )


def points(result, name):
    return result.points[parse_cell(name)]


@pytest.mark.parametrize("empty_centre", [True, False])
@pytest.mark.ruling("L5")
def test_L5_diamond_with_empty_centre_scores_under_both_options(empty_centre):
    r = actions(["....."] * 5, {"ann": "C2 B3", "bob": "D3 C4"}, empty_centre=empty_centre)
    # every arm of the diamond around C3: 20 + line 0 + 2 steps (diagonal neighbour) 10
    assert [points(r, c).total for c in ("C2", "B3", "D3", "C4")] == [30, 30, 30, 30]


@pytest.mark.ruling("L5")
def test_L5_diamond_with_action_in_centre_depends_on_option():
    named = {"ann": "C2 B3 C3", "bob": "D3 C4"}
    on = actions(["....."] * 5, named, empty_centre=True)
    off = actions(["....."] * 5, named, empty_centre=False)
    # C2: line down C3 C4 -> m=2 -> 6; 1 step -> 5; diamond only when the centre may be full
    assert points(on, "C2").total == 0 + 6 + 5
    assert points(off, "C2").total == 20 + 6 + 5
    # the centre C3 itself is never an arm of its own diamond: line 1 -> 3, 1 step -> 5
    assert points(on, "C3").total == points(off, "C3").total == 8


@pytest.mark.ruling("L5")
def test_L5_diamond_centre_may_be_a_wall_and_is_counted_once():
    # L5: one diamond around the wall C3 (C2 B3 D3 C4), another around the empty C5
    # (C4 B5 D5 C6); C4 is an arm of both and still gets 20 only once
    r = actions(
        [".....", ".....", "..#..", ".....", ".....", ".....", "....."],
        {"ann": "C2 B3 D3", "bob": "C4 B5 D5", "cat": "C6"},
    )
    assert points(r, "C4").diamond == 20
    assert points(r, "C2").diamond == 20 and points(r, "C6").diamond == 20


def test_line_counts_consecutive_actions_and_caps_at_50():
    r = actions(["." * 20], {"ann": " ".join(f"{chr(65 + i)}1" for i in range(18))})
    # A1: 17 actions to its right -> 51 -> capped 50; B1: 16 right -> 48; I1: 9 right -> 27
    assert points(r, "A1").line == 50
    assert points(r, "B1").line == 48
    assert points(r, "I1").line == 27


def test_distance_through_floor_only_lights_and_walls_block():
    # corridor of 7: actions A1 and G1 -> 6 steps -> 30 each
    assert points(actions(["......."], {"ann": "A1", "bob": "G1"}), "A1").distance == 30
    # a light on D1 blocks the only path -> unreachable -> 50
    blocked = actions(["......."], {"ann": "A1", "bob": "G1"}, lights=["D1"])
    assert points(blocked, "A1").distance == 50 and points(blocked, "A1").steps is None
    # a wall detour: A1 to C1 around the wall B1 -> A2 B2 C2 C1 = 4 steps -> 20
    assert points(actions([".#.", "..."], {"ann": "A1", "bob": "C1"}), "A1").distance == 20
    # 11 steps -> 55 -> capped at 50
    assert points(actions(["." * 12], {"ann": "A1", "bob": "L1"}), "A1").distance == 50


def test_merged_actions_split_evenly_and_category_rounded_once():
    # three players name the same three cells A1 E1 M1 of a 1x13 corridor
    r = actions(["." * 13], {"ann": "A1 E1 M1", "bob": "A1 E1 M1", "cat": "A1 E1 M1"})
    # A1: 4 steps to E1 -> 20; E1: 4 steps -> 20; M1: 8 steps -> 40.  Total 80, shares 80/3
    assert [points(r, c).total for c in ("A1", "E1", "M1")] == [20, 20, 40]
    assert r.exact == {"ann": Fraction(80, 3), "bob": Fraction(80, 3), "cat": Fraction(80, 3)}
    # rounded once per category: floor(80/3) = 26 (per-share rounding would give 6+6+13=25)
    assert r.scores == {"ann": 26, "bob": 26, "cat": 26}


def test_merged_action_names_its_sharers_in_player_order_and_host_status_shows_them():
    m = play(
        new_match(open_floor(9, 3), ["ann", "bob"]),
        [
            {"ann": "A1 B1 C1 D1 E1"},
            {"bob": "B2 E2 H2"},
            {"bob": "I3 H3 G3", "ann": "G3 A3 B3"},
        ],
    )
    from matchledger.engine.state import HOST

    assert m.game.status(m.state, HOST)["actions"] == {
        "A3": ["ann"],
        "B3": ["ann"],
        "G3": ["ann", "bob"],
        "H3": ["bob"],
        "I3": ["bob"],
    }
    assert {cell_name(c) for c in m.state.g.actions.sharers} == {"A3", "B3", "G3", "H3", "I3"}
