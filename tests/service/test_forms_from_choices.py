"""The participant's form is drawn from the game's legal choices, so it offers what the
rules accept and nothing else: lca's Round 2 offers every camera centre whose 3x3 block
lies inside the studio, walls and lights included (L4), and no edge cell; Round 3 no
cell holding a light; pw's predicted type may be Predict itself (W1).  The choices are
published as JSON at /p/{token}/choices and /api/v1/matches/{match}/choices."""

from __future__ import annotations

import json
import re

import pytest

from matchledger.engine.choices import offers
from tests.helpers import invoke

from .support import STUDIO, Server, bearer, cli_json, invite

pytestmark = pytest.mark.guarantee("service.forms-from-choices")

ROUND_1 = {"ann": "G4 A1 B1 C1 D1", "bob": "F2 A1 B1 C1 D1"}
ROUND_2 = {"ann": "B2 E2 H2", "bob": "B5 E5 H5"}
FORM = re.compile(r'<section id="form-area">(.*?)</section>', re.S)


def studio_rows() -> list[str]:
    return [line for line in STUDIO.read_text().splitlines() if line]


def cell_name(row: int, col: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def offered_cells(server: Server, token: str) -> set[str]:
    form = FORM.search(server.client.get(f"/p/{token}").text).group(1)
    return set(re.findall(r'<button type="button" class="cell"[^>]* data-cell="([A-Z]+\d+)"', form))


@pytest.fixture(scope="module")
def forms_db(tmp_path_factory):
    """lca m2 in Round 2 and m3 in Round 3; pw p1 in Round 1."""
    db = tmp_path_factory.mktemp("forms") / "forms.db"
    for match, rounds in (("m2", [ROUND_1]), ("m3", [ROUND_1, ROUND_2])):
        invoke(db, "new", "lca", match, "--players", "ann,bob", "--studio", STUDIO)
        for submissions in rounds:
            for player, cells in submissions.items():
                invoke(db, "submit", match, player, *cells.split())
            invoke(db, "close", match)
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    return db


@pytest.fixture(scope="module")
def form_tokens(forms_db):
    return {
        key: invite(forms_db, match, "--as", who, "--submit")["token"]
        for key, (match, who) in {"m2": ("m2", "ann"), "m3": ("m3", "ann"), "p1": ("p1", "zed")}.items()
    }


@pytest.fixture(scope="module")
def forms_server(forms_db, form_tokens):
    with Server(forms_db) as running:
        yield running


def test_lca_round_2_offers_every_centre_whose_block_is_inside_the_studio_walls_included(forms_server, form_tokens):
    rows = studio_rows()
    height, width = len(rows), len(rows[0])
    inside = {cell_name(r, c) for r in range(1, height - 1) for c in range(1, width - 1)}  # L4
    walls = {cell_name(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "#"}
    offered = offered_cells(forms_server, form_tokens["m2"])
    assert offered == inside
    assert "D6" in offered and "B10" in offered  # walls: a camera may be centred on one
    assert offered & walls == inside & walls and inside & walls
    assert not offered & {"A1", "J1", "A5", "J13", "E13", "E1"}  # edge cells: their block leaves the studio


def test_lca_round_3_offers_no_cell_holding_a_light(forms_server, forms_db, form_tokens):
    lights = set(cli_json(forms_db, "reveals", "m3", "--public")["rounds"][0]["public"]["lights"])
    rows = studio_rows()
    floor = {cell_name(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "."}
    offered = offered_cells(forms_server, form_tokens["m3"])
    assert lights and not offered & lights
    assert offered == floor - lights


def test_pw_offers_predict_as_a_predicted_type_and_records_it(forms_server, forms_db, form_tokens):
    page = forms_server.client.get(f"/p/{form_tokens['p1']}").text
    predicted = re.search(r'<select name="a1_predict">(.*?)</select>', page, re.S).group(1)
    assert 'value="predict"' in predicted  # W1: predict:bob=predict is legal
    answer = forms_server.client.post(
        f"/p/{form_tokens['p1']}",
        data={"a1_type": "predict", "a1_target": "bob", "a1_predict": "predict", "a2_type": "gift", "a2_target": "yan"},
        follow_redirects=False,
    )
    assert answer.status_code == 303, answer.text
    [row] = [r for r in cli_json(forms_db, "log", "p1") if r["actor"] == "zed"]
    assert row["event"]["tokens"] == ["predict:bob=predict", "gift:yan"]


def test_the_choices_are_published_as_json_to_the_participant_alone(forms_server, forms_db, form_tokens):
    by_link = forms_server.client.get(f"/p/{form_tokens['m2']}/choices")
    by_bearer = forms_server.client.get("/api/v1/matches/m2/choices", headers=bearer(form_tokens["m2"]))
    assert by_link.status_code == by_bearer.status_code == 200
    assert by_link.content == by_bearer.content
    assert by_link.headers["content-type"] == "application/json"
    assert by_link.headers["cache-control"] == "no-store"
    data = json.loads(by_link.content)
    assert data["participant"] == "ann"
    assert offers(data["choices"], ["B2", "E2", "H2"]) and not offers(data["choices"], ["B2", "C2", "H2"])  # apart
    assert forms_server.client.get("/p/not-a-link-at-all-0123456789abcdef/choices").status_code == 403
    assert (
        forms_server.client.get("/p/not-a-link-at-all-0123456789abcdef/choices").headers["content-type"]
        == "application/problem+json"
    )
    assert forms_server.client.get("/api/v1/matches/m3/choices", headers=bearer(form_tokens["m2"])).status_code == 401
