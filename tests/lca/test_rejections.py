"""Every rejection: the error class, and a message that quotes the offending value.
A rejected command leaves the state untouched."""

import copy

import pytest

from matchledger.engine.commands import Amend, CloseRound, CreateMatch, RecordContract, Submit
from matchledger.engine.lca import GAME
from matchledger.engine.lca.studio import cell_name, column_name, parse_cell
from matchledger.ledger.errors import IllegalMove, MalformedInput

from .util import close, new_match, open_floor, play, studio_text

STUDIO = studio_text(".....#", *["......"] * 5)  # 6 wide, 6 tall (three cameras fit apart, L4), wall F1


def create(setup, options=None):
    return GAME.create(
        CreateMatch(match_id="x", game="lca", players=["ann", "bob"], options=options or {}, setup=setup)
    )


def test_cell_names_round_trip_and_are_case_insensitive():
    assert parse_cell("a1") == (0, 0) and parse_cell("B1") == (0, 1) and parse_cell("A2") == (1, 0)
    assert parse_cell("aa12") == (11, 26) and cell_name((11, 26)) == "AA12"
    assert column_name(25) == "Z" and column_name(26) == "AA" and column_name(27) == "AB" and column_name(701) == "ZZ"
    assert column_name(702) == "AAA"


def test_setup_is_normalized_to_rows():
    [created] = create({"studio": "..#\n" + "...\n" * 8 + "\n"})
    assert created.setup == {"studio": ["..#"] + ["..."] * 8}


@pytest.mark.parametrize(
    "setup, error, needle",
    [
        ({}, MalformedInput, "lca needs the setup parameter 'studio'"),
        ({"studio": "...\n..\n"}, MalformedInput, "line 2"),
        ({"studio": "...\n.x.\n"}, MalformedInput, "'x'"),
        ({"studio": "\n\n"}, MalformedInput, "empty"),
        ({"studio": "...\n\n...\n"}, MalformedInput, "line 2 is empty"),
        ({"studio": "...", "seed": 3}, MalformedInput, "not 'seed'"),
    ],
)
def test_bad_setup_rejected(setup, error, needle):
    with pytest.raises(error, match=needle):
        create(setup)


@pytest.mark.parametrize(
    "options, needle",
    [
        ({"filming_lights_divisor": "0"}, "filming_lights_divisor='0'"),
        ({"filming_lights_divisor": "two"}, "'two'"),
        ({"lights_light_lights": "maybe"}, "'maybe'"),
        ({"no_such_option": "1"}, "'no_such_option'"),
    ],
)
def test_bad_options_rejected(options, needle):
    with pytest.raises(MalformedInput, match=needle):
        create({"studio": STUDIO}, options)


def test_options_defaults_recorded():
    [created] = create({"studio": STUDIO})
    assert created.options == {
        "lights_light_lights": True,
        "diamond_center_must_be_empty": True,
        "filming_lights_divisor": 2,
    }


def rejected(m, cmd, error, needle):
    before = copy.deepcopy(m.state)
    with pytest.raises(error) as info:
        m.game.decide(m.state, cmd)
    assert needle in str(info.value), str(info.value)
    assert m.state == before  # decide never mutates


@pytest.mark.parametrize(
    "names, error, needle",
    [
        (["lights", "camera"], IllegalMove, "'camera'"),
        (["supremacy"], IllegalMove, "exactly one"),
        (["fame"], MalformedInput, "'fame'"),
        ([], MalformedInput, "one of lights"),
        (["action", "supremacy", "Supremacy"], MalformedInput, "'Supremacy'"),
    ],
)
def test_bad_contracts_rejected(names, error, needle):
    rejected(new_match(STUDIO, ["ann", "bob"]), RecordContract("ann", names), error, needle)


def test_contract_normalized_and_replaced_then_closed_after_round_1():
    m = new_match(STUDIO, ["ann", "bob"])
    m.do(RecordContract("ann", ["SUPREMACY", "Camera"]))
    assert m.state.contracts["ann"] == ["camera", "supremacy"]
    m.do(RecordContract("ann", ["lights"]))
    assert m.state.contracts["ann"] == ["lights"]
    rejected(m, RecordContract("zed", ["lights"]), IllegalMove, "'zed'")
    close(m)
    rejected(m, RecordContract("bob", ["lights"]), IllegalMove, "round 1")


@pytest.mark.parametrize(
    "tokens, error, needle",
    [
        ("A1 B1 C1 D1", MalformedInput, "exactly 5"),
        ("A1 B1 C1 D1 E1 A2", MalformedInput, "exactly 5"),
        ("A1 B1 C1 D1 1A", MalformedInput, "'1A'"),
        ("A1 B1 C1 D1 A0", MalformedInput, "'A0'"),
        ("A1 B1 C1 D1 G1", IllegalMove, "cell 'G1' is outside the 6x6 studio"),
        ("A1 B1 C1 D1 A7", IllegalMove, "'A7' is outside"),
        ("A1 B1 C1 D1 f1", IllegalMove, "cell 'F1' is a wall"),
        ("A1 B1 C1 D1 a1", IllegalMove, "'A1' is listed twice"),
    ],
)
def test_round1_rejections(tokens, error, needle):
    rejected(new_match(STUDIO, ["ann", "bob"]), Submit("ann", tokens.split()), error, needle)


def test_round1_tokens_normalized_upper_case_and_resubmission_supersedes():
    m = new_match(STUDIO, ["ann", "bob"])
    m.do(Submit("ann", "a1 b1 c1 d1 e1".split()))
    m.do(Submit("ann", "a2 b2 c2 d2 e2".split()))
    assert m.state.current_submission(1, "ann").tokens == ["A2", "B2", "C2", "D2", "E2"]
    close(m)
    assert m.state.announcements[1].private["ann"]["lights"] == ["A2", "B2", "C2"]
    rejected(m, Submit("nobody", ["B2", "E2", "B3"]), IllegalMove, "'nobody'")


def round2():
    m = new_match(STUDIO, ["ann", "bob"])
    play(m, [{"ann": "A2 B2 C2 D2 E2"}])
    return m


@pytest.mark.parametrize(
    "tokens, error, needle",
    [
        ("B2 E2", MalformedInput, "exactly 3"),
        ("A1 E2 B3", IllegalMove, "camera at 'A1': its 3x3 block leaves the 6x6 studio"),
        ("B2 F3 B3", IllegalMove, "camera at 'F3'"),
        ("B2 E3 B6", IllegalMove, "camera at 'B6'"),
        ("B2 E2 C3", IllegalMove, "cameras 'B2' and 'C3' overlap at 'B2'"),
        ("B2 E2 E2", IllegalMove, "camera 'E2' is listed twice"),
        ("B2 E2 Q9", IllegalMove, "'Q9' is outside"),
    ],
)
def test_round2_rejections(tokens, error, needle):
    rejected(round2(), Submit("ann", tokens.split()), error, needle)


@pytest.mark.parametrize(
    "submission, edge",
    [("A2 E2 H5", "A2"), ("B1 E2 H5", "B1"), ("B2 E2 I5", "I5"), ("B2 E2 H6", "H6")],
)
@pytest.mark.ruling("L4")
def test_L4_a_camera_centred_on_the_studios_edge_is_rejected_one_cell_in_is_accepted(submission, edge):
    # 9x6 floor (A-I, 1-6): a 3x3 block lies wholly inside when its centre is in columns
    # B-H and rows 2-5.  B2, E2, H5 are the outermost such centres (blocks A1-C3, D1-F3,
    # G4-I6: no shared cell); each case moves one of them a cell out, onto the edge.
    m = new_match(open_floor(9, 6), ["ann", "bob"])
    play(m, [{}])
    rejected(
        m, Submit("ann", submission.split()), IllegalMove, f"camera at '{edge}': its 3x3 block leaves the 9x6 studio"
    )
    [event] = m.do(Submit("ann", ["B2", "E2", "H5"]))
    assert event.tokens == ["B2", "E2", "H5"]


def test_round2_centre_may_be_a_wall_or_a_light():
    # 6x6 with a wall on B2; ann's light lands on E2
    studio = studio_text("......", ".#....", "......", "......", "......", "......")
    m = new_match(studio, ["ann", "bob"])
    play(m, [{"ann": "E2 A1 A2 A3 A4"}])
    [event] = m.do(Submit("ann", ["b2", "e2", "b5"]))
    assert event.tokens == ["B2", "E2", "B5"]


def round3():
    m = round2()
    close(m)
    return m


@pytest.mark.parametrize(
    "tokens, error, needle",
    [
        ("A1 B1", MalformedInput, "exactly 3"),
        ("A1 B1 F1", IllegalMove, "cell 'F1' is a wall"),
        ("A1 B1 C2", IllegalMove, "cell 'C2' holds a light"),
        ("A1 B1 b1", IllegalMove, "'B1' is listed twice"),
        ("A1 B1 Z1", IllegalMove, "'Z1' is outside"),
    ],
)
def test_round3_rejections(tokens, error, needle):
    rejected(round3(), Submit("ann", tokens.split()), error, needle)


def test_closing_after_round_3_and_amending_a_closed_round_rejected():
    m = round3()
    rejected(
        m, Amend("filming_lights_divisor", "1", 2, "too late"), IllegalMove, "from round 2: round 2 is already over"
    )
    close(m)
    assert m.state.finished
    rejected(m, CloseRound(), IllegalMove, "finished")
    rejected(m, Submit("ann", ["A1", "B1", "A3"]), IllegalMove, "finished")
