"""``A1, B1, D1`` and ``A1,B1`` are read as ``A1 B1 D1`` and ``A1 B1`` at every door a
submission comes in by: the command line's ``submit`` and ``correct``, a ``script``
line, the JSON API and the page's form (its typed field and a grid's field), for every
game's notation.  The log records the tokens split, as if typed with spaces."""

from __future__ import annotations

import pytest

from tests.helpers import invoke

from .support import STUDIO, Server, bearer, cli_json, invite

ROUND_1 = ["G4", "A1", "B1", "C1", "D1"]


def submitted(db, match: str, who: str) -> list[str]:
    """The tokens of ``who``'s last submission in ``match``."""
    log = cli_json(db, "log", match)
    return [r for r in log if r["kind"] == "SubmissionRecorded" and r["event"]["participant"] == who][-1]["event"][
        "tokens"
    ]


@pytest.fixture
def lca(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    return db


def test_the_command_line_reads_commas_as_spaces(lca):
    written = invoke(lca, "submit", "m1", "ann", "G4,", "A1,B1", ",", "C1", ",D1").output
    assert submitted(lca, "m1", "ann") == ROUND_1
    assert "ann: G4 A1 B1 C1 D1;" in written  # what was recorded, as the host would type it
    invoke(lca, "submit", "m1", "bob", "G4, A1, B1, C1, D1")  # one quoted argument
    assert submitted(lca, "m1", "bob") == ROUND_1


def test_a_correction_and_a_script_line_read_commas_as_spaces(lca, tmp_path):
    seq = cli_json(lca, "submit", "m1", "ann", *ROUND_1)["events"][0]["seq"]
    invoke(lca, "correct", "m1", str(seq), "F2,A1,B1,C1,D1", "--reason", "typo")
    assert [r for r in cli_json(lca, "log", "m1") if r["seq"] == seq + 1][0]["event"]["tokens"] == [
        "F2",
        "A1",
        "B1",
        "C1",
        "D1",
    ]
    script = tmp_path / "s.txt"
    script.write_text("submit m1 cat G4, A1, B1, C1, D1\n", encoding="utf-8")
    invoke(lca, "script", str(script))
    assert submitted(lca, "m1", "cat") == ROUND_1


def test_pw_and_photographer_tokens_split_at_commas_too(tmp_path):
    db = tmp_path / "g.db"
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    invoke(db, "submit", "p1", "ann", "gift:bob,watch:yan")
    assert submitted(db, "p1", "ann") == ["gift:bob", "watch:yan"]
    invoke(db, "new", "photographer", "f1", "--players", "ann,bob", "--seed", "3")
    invoke(db, "submit", "f1", "ann", "take, 1, left, 1, wind, 1:2")
    assert submitted(db, "f1", "ann") == ["take", "1", "left", "1", "wind", "1:2"]


def test_the_json_api_and_the_form_read_commas_as_spaces(lca):
    ann = invite(lca, "m1", "--as", "ann", "--submit")["token"]
    bob = invite(lca, "m1", "--as", "bob", "--submit")["token"]
    with Server(lca) as server:
        answer = server.client.post(
            "/api/v1/matches/m1/submissions", json={"tokens": ["G4,A1", "B1, C1,", "D1"]}, headers=bearer(ann)
        )
        assert answer.status_code == 201, answer.text
        assert submitted(lca, "m1", "ann") == ROUND_1
        answer = server.client.post(f"/p/{bob}", data={"tokens": "G4, A1, B1,C1 ,D1"})
        assert answer.status_code == 303, answer.text
        assert submitted(lca, "m1", "bob") == ROUND_1


def test_the_forms_grid_field_reads_commas_as_spaces():
    from matchledger.commands.service.forms import tokens_from_form

    from .test_forms_generic import GRID, described, option, part

    assert tokens_from_form(described(GRID), [("tokens", "Q,P")]) == ["Q", "P"]
    two = described(GRID, part("extra", [option("t")], low=0))
    assert tokens_from_form(two, [("cells", "R, P")]) == ["R", "P"]
    assert tokens_from_form(described(GRID), [("tokens", " , ")]) == []  # nothing typed: the lists count
