"""Text output reads well: no Python repr, counts with their plural, and one layout for
`outcome` and `reveals` across the games that keeps every number of the JSON."""

from __future__ import annotations

import re

import pytest

from matchledger.ledger.verify import Finding
from matchledger.projections.presentation.layout import WIDTH
from matchledger.projections.presentation.wording import award_words, notation, plural

from ..helpers import REPO, invoke, read_json, run_script

pytestmark = pytest.mark.guarantee("output.text-layout")

SCRIPTS = {
    "ties8": REPO / "fixtures" / "lca" / "ties-and-contracts.txt",  # lca, 8 players, finished
    "pw3": REPO / "fixtures" / "pw" / "ec_collision.txt",  # pw, 7 pairs, finished
    "g2": REPO / "fixtures" / "photographer" / "g2-seed7.txt",  # photographer, finished
}
PARTICIPANT = {"ties8": "ann", "pw3": "xio", "g2": "bob"}
# a Python repr: None/True/False as words, a dict or list of strings, a quoted key
REPR = re.compile(r"\b(None|True|False)\b|\{'|\['|'\]|'\}|\w\(s\)")


@pytest.fixture(scope="module")
def layout_fixtures_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("layout") / "m.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)  # studio paths in scripts are relative to the repo root
        for script in SCRIPTS.values():
            run_script(db, script)
    return db


def _views(match):
    return [(), ("--public",), ("--as", PARTICIPANT[match])]


@pytest.mark.parametrize("match", SCRIPTS)
def test_no_python_repr_in_any_text_output(layout_fixtures_db, match):
    outputs = []
    for model in ("status", "scores", "outcome", "reveals"):
        for view in _views(match):
            for at in ((), ("--at", "2"), ("--at", "30")):
                outputs.append(invoke(layout_fixtures_db, model, match, *view, *at).output)
    outputs.append(invoke(layout_fixtures_db, "knowledge", match, "--as", PARTICIPANT[match]).output)
    outputs.append(invoke(layout_fixtures_db, "explain", match, PARTICIPANT[match]).output)
    for command in ("log", "audit", "verify", "head"):
        outputs.append(invoke(layout_fixtures_db, command, match).output)
    for text in outputs:
        assert not REPR.search(text), REPR.search(text).group(0) + "\n" + text


def test_rescore_and_findings_show_values_as_typed_or_as_json(layout_fixtures_db):
    rescored = invoke(layout_fixtures_db, "rescore", "ties8", "--option", "diamond_center_must_be_empty=false").output
    assert "with diamond_center_must_be_empty=false (nothing written)" in rescored
    rows = invoke(layout_fixtures_db, "rescore", "g2", "--option", "row_points=1:2,2:4,3:6,4:8,5:10,6:12,7:14").output
    assert "with row_points=1:2,2:4,3:6,4:8,5:10,6:12,7:14 (nothing written)" in rows
    finding = Finding("m1", 8, "RoundClosed differs", "private.ann", None, {"lights": ["E3"], "on": True})
    assert (
        finding.describe()
        == 'm1 seq 8: RoundClosed differs [private.ann: recorded null, recomputed {"lights":["E3"],"on":true}]'
    )
    assert notation({"1": 1, "2": 3}) == "1:1,2:3" and notation(False) == "false" and notation(["a", "b"]) == "a,b"


def test_counts_take_their_plural(tmp_path):
    assert [plural(n, "command") for n in (0, 1, 2)] == ["0 commands", "1 command", "2 commands"]
    assert plural(1, "discrepancy", "discrepancies") == "1 discrepancy"
    one = tmp_path / "one.db"
    invoke(one, "new", "photographer", "g9", "--players", "ann,bob", "--seed", str(2**50))
    assert "g9: ok (1 event;" in invoke(one, "verify", "g9").output
    assert "log of g9: 1 event, head 1:" in invoke(one, "log", "g9").output
    assert "exported 1 event of 'g9'" in invoke(one, "export", "g9", "-o", tmp_path / "g9.jsonl").stderr
    script = tmp_path / "one.txt"
    script.write_text("note g9 'one line'\n", encoding="utf-8")
    assert invoke(one, "script", script).output.endswith("one.txt: 1 command ran\n")


def _row_numbers(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\w-])-?\d+(?![\w-])", line)]


@pytest.mark.parametrize("match", SCRIPTS)
def test_outcome_has_the_shared_layout_and_every_number_of_the_json(layout_fixtures_db, match):
    data = read_json(layout_fixtures_db, "outcome", match)
    text = invoke(layout_fixtures_db, "outcome", match).output
    lines = text.splitlines()[1:]
    assert lines[0] == "Final standings"
    header = lines[1].split()
    assert header[:1] == ["rank"] and "total" in header
    table = lines[3 : 3 + len(data["standings"])]
    for standing, line in zip(data["standings"], table):
        assert standing["participant"] in line
        assert _row_numbers(line) == [standing["rank"], standing["total"], *standing["scores"].values()], line
    if data["awards"]:
        start = lines.index("Awards")
        for award, line in zip(data["awards"], lines[start + 3 :]):
            words = award_words(award, data["game"])  # the award as every output form words it
            assert line.split()[0] == award["participant"] and words in line
            if "shards" in award:  # the count is in the award's words: "ToL 3/4", "2 shards"
                assert str(award["shards"]) in words
    else:
        assert "Awards" not in lines
    assert all(len(line) <= WIDTH for line in lines)


@pytest.mark.parametrize("match", SCRIPTS)
@pytest.mark.parametrize("view", ["host", "public", "participant"])
def test_reveals_go_round_by_round_public_then_private(layout_fixtures_db, match, view):
    args = {"host": (), "public": ("--public",), "participant": ("--as", PARTICIPANT[match])}[view]
    data = read_json(layout_fixtures_db, "reveals", match, *args)
    lines = invoke(layout_fixtures_db, "reveals", match, *args).output.splitlines()[1:]
    entries = data.get("rounds") or data.get("turns")
    label = "Round" if "rounds" in data else "Turn"
    headings = [i for i, line in enumerate(lines) if line.startswith(f"{label} ")]
    assert len(headings) == len(entries)
    for index, entry in zip(headings, entries):
        number = entry.get("round") or entry.get("turn")
        assert re.match(rf"{label} {number}\b", lines[index])
        assert lines[index + 1].startswith("  public:  ")
        block = lines[index + 1 : lines.index("", index) if "" in lines[index:] else None]
        shows_private = any(line == "  private:" for line in block)
        assert shows_private == (view != "public" and bool(entry.get("private")))
    assert ("Final standings" in lines or "Final outcome (standings not announced)" in lines) == ("outcome" in data)
    assert all(
        len(line) <= WIDTH for line in lines if not line.startswith("Lights (") and not line.startswith("Cameras (")
    )


def test_lca_private_notices_keep_their_numbers(layout_fixtures_db):
    data = read_json(layout_fixtures_db, "reveals", "ties8")
    lines = invoke(layout_fixtures_db, "reveals", "ties8").output.splitlines()
    for entry in data["rounds"]:
        start = lines.index(f"Round {entry['round']}")
        for who, notice in entry["private"].items():
            line = next(line for line in lines[start:] if line.startswith(f"    {who}  "))
            numbers = [v for v in notice.values() if isinstance(v, int)]
            assert _row_numbers(line)[-len(numbers) :] == numbers, line


def test_pw_private_notices_read_as_typed(layout_fixtures_db):
    lines = invoke(layout_fixtures_db, "reveals", "pw3", "--as", "tof").output.splitlines()
    assert "    tof  own points 0; partner points 3; learn dan: predict:tof=gift swap:eve" in lines
    assert "  public:  action types gift 5, learn 4, predict 5, swap 5, unique 5, watch 4" in lines


def test_pw_after_its_last_round_reads_finished(layout_fixtures_db):
    status = invoke(layout_fixtures_db, "status", "pw3").output.splitlines()
    assert "round: finished" in status and "round: 4" not in status
    assert read_json(layout_fixtures_db, "status", "pw3")["round"] == 4  # the JSON keeps its contract


def test_an_empty_host_legend_is_left_out(tmp_path):
    db = tmp_path / "m.db"
    studio = tmp_path / "studio.txt"
    studio.write_text("\n".join(["." * 8] * 8) + "\n", encoding="utf-8")
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", studio)
    assert "Legend (host only):" not in invoke(db, "status", "m1").output
    invoke(db, "contract", "m1", "ann", "lights")
    assert "Legend (host only):\n  contracts: ann lights" in invoke(db, "status", "m1").output
