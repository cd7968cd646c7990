"""The card's worked filming example, rebuilt as a concrete board and checked number by
number (rules file, last section)."""

from fractions import Fraction

from matchledger.engine.lca.studio import parse_cell
from matchledger.engine.state import HOST

from .util import new_match, play, studio_text

# Main area rows 1-9 (A-J), wall at D6, a wall row 10, a dark far area rows 11-13 where
# the players park the cameras and actions the example does not use.
STUDIO = studio_text(
    "..........",
    "..........",
    "..........",
    "..........",
    "..........",
    "...#......",
    "..........",
    "..........",
    "..........",
    "##########",
    "..........",
    "..........",
    "..........",
)
PLAYERS = ["ann", "bob", "cat", "dan", "eve"]

# Lights: one each for ann (G4, "the top right light"), bob (F2), cat (B5), dan (D8);
# priorities 2-5 are the same four cells for all four players, so L2 skips them for
# everyone; eve submits no lights and places nothing.
ROUND1 = {
    "ann": "G4 A1 B1 C1 D1",
    "bob": "F2 A1 B1 C1 D1",
    "cat": "B5 A1 B1 C1 D1",
    "dan": "D8 A1 B1 C1 D1",
}
# Cameras: dan centred on E5 (sees D4-F6), eve centred on F5 (the card's orange camera,
# sees E4-G6); the other two of each are parked in the dark far area.
ROUND2 = {"dan": "E5 B12 E12", "eve": "F5 B12 E12"}
# Actions: a diamond around the empty E5 (E4 top, D5 left, F5 right, E6 bottom) plus F6,
# one player each; everyone also names A11 and J13 in the far area.
ROUND3 = {
    "ann": "E4 A11 J13",
    "bob": "D5 A11 J13",
    "cat": "F5 A11 J13",
    "dan": "E6 A11 J13",
    "eve": "F6 A11 J13",
}
FILMED = ["E4", "D5", "F5", "E6", "F6"]  # reading order


def match():
    return play(new_match(STUDIO, PLAYERS), [ROUND1, ROUND2, ROUND3])


def test_placement_matches_the_example():
    g = match().state.g
    assert {p: list(cells) for p, cells in g.lights.placed.items()} == {
        "ann": [parse_cell("G4")],
        "bob": [parse_cell("F2")],
        "cat": [parse_cell("B5")],
        "dan": [parse_cell("D8")],
        "eve": [],
    }


def test_action_points_30_30_28_28_8():
    g = match().state.g
    pts = [g.actions.points[parse_cell(c)] for c in FILMED]
    # E4, D5: diamond 20 + line 0 + 2 steps x 5 = 30
    # F5: 20 + one action below (F6) 3 + 1 step x 5 = 28; E6: 20 + F6 to its right 3 + 5 = 28
    # F6: no diamond + line 1 (F5 above, E6 left) 3 + 1 step 5 = 8
    assert [p.total for p in pts] == [30, 30, 28, 28, 8]
    assert [(p.diamond, p.line, p.distance) for p in pts] == [
        (20, 0, 10),
        (20, 0, 10),
        (20, 3, 5),
        (20, 3, 5),
        (0, 3, 5),
    ]


def test_filming_numbers_cell_by_cell():
    g = match().state.g
    cells = {c.cell: c for c in g.filming.cells}
    # only the five example cells are filmed: the far area is dark
    assert sorted(cells) == sorted(parse_cell(c) for c in FILMED)
    rows = [cells[parse_cell(c)] for c in FILMED]
    # lit by 2, 1, 2, 1, 1 players; light levels the same (one light per player)
    assert [len(r.contributors) for r in rows] == [2, 1, 2, 1, 1]
    assert [r.level for r in rows] == [2, 1, 2, 1, 1]
    # each lights contributor earns A/(2|C|): 30/4, 30/2, 28/4, 28/2, 8/2
    assert [set(r.lights_part.values()) for r in rows] == [
        {Fraction(30, 4)},
        {Fraction(15)},
        {Fraction(7)},
        {Fraction(14)},
        {Fraction(4)},
    ]
    # camera: 2 x light level -> 4, 2, 4, 2, 2; eve's camera is centred on F5 -> 6 x 2 = 12
    assert [r.camera_part.get("dan") for r in rows] == [4, 2, 4, 2, 2]
    assert [r.camera_part.get("eve") for r in rows] == [4, None, 12, 2, 2]
    # light + camera counts 4, 2, 4, 3, 3 -> action-filming 12, 6, 12, 9, 9
    assert [r.lights + len(r.cameras) for r in rows] == [4, 2, 4, 3, 3]
    assert [sum(r.action_part.values()) for r in rows] == [12, 6, 12, 9, 9]


def test_top_right_light_earns_18_5_and_orange_camera_20():
    g = match().state.g
    lights_from_ann = sum(c.lights_part.get("ann", 0) for c in g.filming.cells)
    assert lights_from_ann == Fraction(37, 2)  # 7.5 + 7 + 4 = 18.5
    assert sum(c.camera_part.get("eve", 0) for c in g.filming.cells) == 20  # 4 + 12 + 2 + 2


def test_filming_scores_rounded_down_per_player():
    m = match()
    # ann: lights 7.5 + 7 + 4 + action 12 = 30.5 -> 30
    # bob: lights 7.5 + 7 + action 6 = 20.5 -> 20
    # cat: lights 15 + action 12 = 27
    # dan: lights 14 + cameras 4+2+4+2+2 = 14 + action 9 = 37
    # eve: cameras 4+12+2+2 = 20 + action 9 = 29
    assert m.state.g.filming.exact == {"ann": Fraction(61, 2), "bob": Fraction(41, 2), "cat": 27, "dan": 37, "eve": 29}
    table = {row["participant"]: row["filming"] for row in m.game.scores(m.state, HOST)["scores"]}
    assert table == {"ann": 30, "bob": 20, "cat": 27, "dan": 37, "eve": 29}


def test_action_scores_include_merged_far_actions():
    m = match()
    # A11 and J13 are 11 steps apart (> 10): 50 each, split 5 ways = 10 + 10 per player
    table = {row["participant"]: row["action"] for row in m.game.scores(m.state, HOST)["scores"]}
    assert table == {"ann": 50, "bob": 50, "cat": 48, "dan": 48, "eve": 28}


def test_amendment_divisor_1_doubles_lights_part():
    m = play(new_match(STUDIO, PLAYERS, {"filming_lights_divisor": "1"}), [ROUND1, ROUND2, ROUND3])
    # card wording before the Amendment: A/|C| -> ann 15 + 14 + 8 + action 12 = 49
    assert m.state.g.filming.scores["ann"] == 49
