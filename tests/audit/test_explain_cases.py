"""`explain` on small matches whose every number was worked out by hand from the rules."""

from __future__ import annotations

from matchledger.engine.commands import CloseRound, CreateMatch, Submit
from matchledger.engine.state import HOST
from matchledger.projections.fold import InMemoryMatch
from tests.helpers import REPO, read_json, run_script
from tests.lca.util import new_match, play, studio_text

from .common import check_explain, score_rows


def lines(data: dict, category: str) -> list[tuple[str, str, str]]:
    [found] = [c for c in data["categories"] if c["category"] == category]
    return [(line["points"], line["rule"], line["detail"]) for line in found["lines"]]


def summary(data: dict) -> dict[str, tuple[int, str]]:
    return {c["category"]: (c["score"], c["exact"]) for c in data["categories"]}


def check_against_scores(m: InMemoryMatch, game: str) -> None:
    rows = score_rows(game, m.game.scores(m.state, HOST))
    for participant, (total, categories) in rows.items():
        check_explain(m.game.explain(m.state, participant), game, m.state.match_id, participant, total, categories)


# --------------------------------------------------------------------------- lca

# Rows 1-3 lit area, row 4 wall, rows 5-10 a dark area where cameras and actions park.
LCA_STUDIO = studio_text("....", "....", "....", "####", *["...."] * 6)
# Only ann's A1 is placed (L2): bob's and cat's D1 collide at priority 1, and every
# later priority names one cell for all three.  A1 brightens B1 C1 D1 A2 B2 C2 A3 B3
# (3 steps; C3 and D2 are 4 away): 8 cells at brightness 1 -> lights 8 x 3 = 24.
LCA_R1 = {"ann": "A1 D3 C3 B3 D2", "bob": "D1 D3 C3 B3 D2", "cat": "D1 D3 C3 B3 D2"}
# bob's B2 sees A1-C3, cat's C2 sees B1-D3 (the rest park in the dark; ann has none).
# bob: A2 3 + A3 3 (alone) + B1 C1 B2 C2 B3 at 3/2 (seen twice) = 27/2 -> 13
# cat: B1 C1 B2 C2 B3 at 3/2 + D1 3 (alone) = 21/2 -> 10
LCA_R2 = {"bob": "B2 B6 B9", "cat": "C2 B6 B9"}
# All three name B2, A5, D10 (3 sharers each).  B2: no diamond, no line, no action
# reachable past the wall row -> 50.  A5 and D10: 8 steps apart -> 40 each.
# action = 130/3 -> 43 each.
# Filming: only B2 (lit 1, seen by bob's B2 as centre and cat's C2): lights A/(2x1) =
# 25 to ann; camera 6 x 1 = 6 to bob, 2 x 1 = 2 to cat; action 3 x (1 + 2) = 9 / 3 = 3
# each -> ann 28, bob 9, cat 5.
LCA_R3 = dict.fromkeys(("ann", "bob", "cat"), "B2 A5 D10")


def lca_match():
    return play(new_match(LCA_STUDIO, ["ann", "bob", "cat"]), [LCA_R1, LCA_R2, LCA_R3])


def test_lca_explain_by_hand():
    m = lca_match()
    ann, bob, cat = (m.game.explain(m.state, p) for p in ("ann", "bob", "cat"))
    assert summary(ann) == {"lights": (24, "24"), "camera": (0, "0"), "action": (43, "130/3"), "filming": (28, "28")}
    assert summary(bob) == {"lights": (0, "0"), "camera": (13, "27/2"), "action": (43, "130/3"), "filming": (9, "9")}
    assert summary(cat) == {"lights": (0, "0"), "camera": (10, "21/2"), "action": (43, "130/3"), "filming": (5, "5")}
    assert (ann["total"], bob["total"], cat["total"]) == (95, 65, 58)

    placement = [(p, rule) for p, rule, _d in lines(ann, "lights") if rule.startswith("L2")]
    assert placement[0] == ("0", "L2: light placed")
    assert len(placement) == 5 and all(p == "0" and "skipped" in r for p, r in placement[1:])
    lit = [(p, d) for p, r, d in lines(ann, "lights") if r.startswith("lights table")]
    assert [d.split()[0] for _p, d in lit] == ["B1", "C1", "D1", "A2", "B2", "C2", "A3", "B3"]  # reading order
    assert {p for p, _d in lit} == {"3"}
    assert "A1" in lit[0][1] and "brightness 1" in lit[0][1]
    assert any("also named by cat" in d for _p, _r, d in lines(bob, "lights"))

    camera = [(p, d) for p, _r, d in lines(bob, "camera") if p != "0"]
    assert sorted(p for p, _d in camera) == sorted(["3", "3", "3/2", "3/2", "3/2", "3/2", "3/2"])

    b2 = [(p, r) for p, r, d in lines(ann, "action") if d.startswith("action B2")]
    assert [p for p, _r in b2] == ["0", "0", "50/3"]
    assert "no other action reachable: 50 / 3 sharers" in b2[2][1]
    a5 = [(p, r) for p, r, d in lines(ann, "action") if d.startswith("action A5")]
    assert a5[2] == (
        "40/3",
        "distance: min(50, 5 x 8 steps) = 40 / 3 sharers (ann, bob, cat); walls and lights block the path (Clarification)",
    )

    assert [p for p, _r, _d in lines(ann, "filming")] == ["25", "3"]
    assert "A(X) / (2 x |C|) = 50 / (2 x 1)" in lines(ann, "filming")[0][1]
    assert [(p, r) for p, r, _d in lines(bob, "filming")][0] == (
        "6",
        "filming camera: 6 x light 1 (X is the camera's centre)",
    )
    assert [p for p, _r, _d in lines(cat, "filming")] == ["2", "3"]
    check_against_scores(m, "lca")


def test_lca_explain_before_the_end_shows_what_is_scored_so_far():
    m = play(new_match(LCA_STUDIO, ["ann", "bob", "cat"]), [LCA_R1])
    assert summary(m.game.explain(m.state, "ann")) == {"lights": (24, "24")}
    m.do(Submit("bob", LCA_R2["bob"].split()))
    assert summary(m.game.explain(m.state, "bob")) == {"lights": (0, "0")}  # round 2 still open
    check_against_scores(m, "lca")


def test_lca_explain_cites_l5_when_the_diamond_centre_holds_an_action():
    # 6x6 floor (three cameras fit apart, L4), no lights: ann names the four arms around
    # C3, bob names C3 itself.
    studio = studio_text(*["......"] * 6)
    rounds = [{}, {}, {"ann": "C2 B3 D3", "bob": "C4 C3 A1"}]
    for option, diamond in (("true", "0"), ("false", "20")):
        m = play(new_match(studio, ["ann", "bob"], {"diamond_center_must_be_empty": option}), rounds)
        c2 = [(p, r) for p, r, d in lines(m.game.explain(m.state, "ann"), "action") if d == "action C2: diamond part"]
        assert c2[0][0] == diamond
        assert "centre C3 holds an action" in c2[0][1]
        check_against_scores(m, "lca")


# --------------------------------------------------------------------------- pw


def pw_round1(yan: str = "predict:zed=gift unique:ann"):
    m = InMemoryMatch(
        CreateMatch(match_id="p1", game="pw", players=["ann", "bob"], setup={"pairs": {"ann": "zed", "bob": "yan"}})
    )
    for who, tokens in (
        ("ann", "gift:bob predict:yan=learn"),
        ("zed", "learn:bob swap:yan"),
        ("bob", "gift:ann watch:zed"),
        ("yan", yan),
    ):
        m.do(Submit(who, tokens.split()))
    m.do(CloseRound())
    return m


def test_pw_explain_round_one_by_hand():
    # ann gift:bob -> partner(bob) = yan +1; ann predict:yan=learn misses (bob used gift,
    # watch); bob gift:ann -> zed +1; yan predict:zed=gift hits (ann used gift): yan +2,
    # ann -1; one Swap on yan does not swap the pair (W6 needs two).
    m = pw_round1()
    explained = {p: m.game.explain(m.state, p) for p in ("ann", "zed", "bob", "yan")}
    assert {p: d["total"] for p, d in explained.items()} == {"ann": -1, "zed": 1, "bob": 0, "yan": 3}
    assert [c["category"] for c in explained["ann"]["categories"]] == ["round points"]  # unique/guesses at Round 3
    assert [(p, r) for p, r, _d in lines(explained["ann"], "round points")] == [
        ("0", "predict missed: partner(E) did not use learn"),
        ("-1", "predict hit: partner(E) loses 1"),
    ]
    assert [(p, r, d) for p, r, d in lines(explained["yan"], "round points")] == [
        ("1", "gift: partner(E) gains 1", "round 1: ann's gift:bob; E = bob, whose partner yan gains 1"),
        ("2", "predict hit: the submitter gains 2", "round 1: yan's predict:zed=gift; partner(E) = ann used gift"),
    ]
    assert lines(explained["zed"], "round points") == [
        ("1", "gift: partner(E) gains 1", "round 1: bob's gift:ann; E = ann, whose partner zed gains 1")
    ]
    assert lines(explained["bob"], "round points") == []
    check_against_scores(m, "pw")


def test_pw_explain_cites_w6_and_w8_in_the_fixtures(tmp_path, monkeypatch):
    # The fixtures' own hand-checked stories: swap_both_members round 2 (tof's gift:cat
    # goes to yul, so cat gains 1; wim's predict:yul=learn hits yul, partner of cat), and
    # ec_collision (gus's Unique collides with bob's on fay).
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    run_script(db, REPO / "fixtures" / "pw" / "swap_both_members.txt")
    run_script(db, REPO / "fixtures" / "pw" / "ec_collision.txt")
    cat = read_json(db, "explain", "pw2", "cat")
    assert (
        "1",
        "W6 swap redirected gift:cat to yul; gift: partner(E) gains 1",
        "round 2: tof's gift:cat; E = yul, whose partner cat gains 1",
    ) in lines(cat, "round points")
    yul = read_json(db, "explain", "pw2", "yul")
    assert (
        "-1",
        "W6 swap redirected predict:yul=learn to cat; predict hit: partner(E) loses 1",
        "round 2: wim's predict:yul=learn; E = cat, whose partner yul used learn",
    ) in lines(yul, "round points")
    gus = read_json(db, "explain", "pw3", "gus")
    clash = [(p, r, d) for p, r, d in lines(gus, "unique") if "unique:fay" in d]
    assert clash and clash[0][0] == "0" and clash[0][1].startswith("W8 unique scores nothing")
    assert "bob's unique:fay" in clash[0][2]


# --------------------------------------------------------------------------- photographer


def test_photographer_explain_by_hand(tmp_path, monkeypatch):
    # g2-seed7, read off `status --json` film rows.  ann: blue 12-9 (2 face up: 3), red
    # 8-10-11 (5), yellow 5-2-1 (5), green 10-9-7-5 (7), brown 7-5-3 (5) = 25; 13 blurred
    # (blue 2, red 2, yellow 2, green 3, brown 4) = -26; green successful shot +5 -> 4.
    # bob: blue 4-7, red 2-5, yellow 12-9, green 11-8, brown 2-1: 5 x 3 = 15; 13 blurred
    # (3 + 5 + 2 + 0 + 3) = -26 -> -11.  After seq 10 bob had blue 4, red 2-5, yellow 12,
    # green 11 and no brown: 1 + 3 + 1 + 1 - 3 = 3.
    monkeypatch.chdir(REPO)
    db = tmp_path / "m.db"
    run_script(db, REPO / "fixtures" / "photographer" / "g2-seed7.txt")
    ann = read_json(db, "explain", "g2", "ann")
    assert summary(ann) == {"rows": (25, "25"), "blurred": (-26, "-26"), "missing": (0, "0"), "good_shots": (5, "5")}
    assert [(p, d) for p, _r, d in lines(ann, "rows")] == [
        ("3", "blue: 12-9"),
        ("5", "red: 8-10-11"),
        ("5", "yellow: 5-2-1"),
        ("7", "green: 10-9-7-5"),
        ("5", "brown: 7-5-3"),
    ]
    assert lines(ann, "rows")[3][1] == "P8 row of 4 face-up cards: row_points[4] = 7"
    blurred = lines(ann, "blurred")
    assert len(blurred) == 13 and {p for p, _r, _d in blurred} == {"-2"}
    assert blurred[0][2] == "blue-[2] played face down on the blue row"
    assert [p for p, _r, _d in lines(ann, "good_shots")] == ["5"]
    assert ann["total"] == 4
    bob = read_json(db, "explain", "g2", "bob")
    assert summary(bob) == {"rows": (15, "15"), "blurred": (-26, "-26"), "missing": (0, "0"), "good_shots": (0, "0")}
    assert bob["total"] == -11
    early = read_json(db, "explain", "g2", "bob", "--at", 10)
    assert [(p, d) for p, _r, d in lines(early, "rows")] == [
        ("1", "blue: 4"),
        ("3", "red: 2-5"),
        ("1", "yellow: 12"),
        ("1", "green: 11"),
    ]
    assert lines(early, "missing") == [("-3", "a colour with no face-up card costs 3", "brown: no face-up card")]
    assert early["total"] == 3
    assert {r["participant"]: r["points"] for r in read_json(db, "scores", "g2", "--at", 10)["scores"]}["bob"] == 3
