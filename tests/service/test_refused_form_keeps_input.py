"""A refused submission never loses what the participant entered: the page drawn again
keeps every input as sent (the typed field as typed, each list's choice, each box
ticked, a list's choice that is no option now), under the same form key (``data-form``)
as the page's stream draws it empty, so ``assets/live.js`` does not swap an empty form
in on load.  The key moves only with what may be submitted."""

from __future__ import annotations

import re

import pytest

from matchledger.commands.service.forms import form_html
from tests.helpers import invoke

from .support import STUDIO, Server, cli_json, invite
from .test_forms_generic import described, option, part

pytestmark = pytest.mark.guarantee("service.forms-from-choices")

KEY = re.compile(r'data-form="([0-9a-f]+)"')


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("refused") / "r.db"
    invoke(db, "new", "lca", "m1", "--players", "ann,bob", "--studio", STUDIO)
    invoke(db, "new", "pw", "p1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan")
    tokens = {
        "ann": invite(db, "m1", "--as", "ann", "--submit")["token"],
        "zed": invite(db, "p1", "--as", "zed", "--submit")["token"],
    }
    with Server(db) as server:
        yield db, server, tokens


def key_of(html: str) -> str:
    [key] = KEY.findall(html)
    return key


def selected(html: str, name: str) -> str | None:
    """The value of the option chosen in the list ``name`` (None: none marked)."""
    select = re.search(rf'<select name="{name}">(.*?)</select>', html, re.S).group(1)
    chosen = re.findall(r'<option value="([^"]*)" selected>', select)
    assert len(chosen) <= 1, select
    return chosen[0] if chosen else None


def refuse(server: Server, token: str, data: dict) -> str:
    answer = server.client.post(f"/p/{token}", data=data)
    assert answer.status_code == 422, answer.text
    return answer.text


def test_a_refused_typed_submission_keeps_the_field_as_typed_under_the_streams_key(served):
    db, server, tokens = served
    drawn = server.client.get(f"/p/{tokens['ann']}").text  # what the stream draws too: the empty form
    page = refuse(server, tokens["ann"], {"tokens": "A1 B1 D1 E1"})  # four lights: Round 1 takes five
    assert "round 1 takes exactly 5" in page
    assert '<input name="tokens" value="A1 B1 D1 E1"' in page
    assert key_of(page) == key_of(drawn)  # live.js keeps the form it has: the input stays
    assert not [row for row in cli_json(db, "log", "m1") if row["kind"] == "SubmissionRecorded"]


def test_the_streams_first_form_has_the_key_of_the_refused_page(served):
    """The form the stream sends on connecting is keyed as the refused page's form."""
    _db, server, tokens = served
    page = refuse(server, tokens["ann"], {"tokens": "A1 B1"})
    with server.client.stream("GET", f"/p/{tokens['ann']}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: ") and "data-form" in line:
                assert key_of(line.replace('\\"', '"')) == key_of(page)
                break


def test_refused_lists_keep_each_choice_and_the_typed_field_holds_only_what_was_typed(served):
    _db, server, tokens = served
    drawn = server.client.get(f"/p/{tokens['zed']}").text
    sent = {"a1_type": "gift", "a1_target": "bob", "a2_type": "watch", "a2_target": "bob"}
    page = refuse(server, tokens["zed"], sent)  # both actions on bob: W2
    assert "W2" in page or "bob" in page
    for name, value in sent.items():
        assert selected(page, name) == value, name
    assert selected(page, "a1_predict") is None
    # the lists made "gift:bob watch:bob"; typed, it would win over a later change of a list
    assert '<input name="tokens" value=""' in page
    assert key_of(page) == key_of(drawn)


def test_a_lists_choice_that_is_no_option_is_kept_marked_and_the_rest_too(served):
    """MalformedInput (the choices moved on since the page was drawn): refused, naming
    the choice, and every input is still as sent."""
    _db, server, tokens = served
    drawn = server.client.get(f"/p/{tokens['zed']}").text
    sent = {"a1_type": "gift", "a1_target": "nobody", "a2_type": "watch", "a2_target": "yan", "tokens": ""}
    page = refuse(server, tokens["zed"], sent)
    assert "nobody" in page
    assert selected(page, "a1_target") == "nobody"
    assert '<option value="nobody" selected>nobody (not a choice now)</option>' in page
    assert selected(page, "a1_type") == "gift" and selected(page, "a2_target") == "yan"
    assert key_of(page) == key_of(drawn)


def test_ticked_boxes_stay_ticked_and_a_grids_own_field_keeps_its_cells():
    description = described(
        part("cells", [option("P", cell=[0, 0])], grid={"width": 1, "height": 1}),
        part("pick", [option(w) for w in ("one", "two", "three")], low=0, high=3),
    )
    html = form_html(description, [("cells", "P"), ("pick", "one"), ("pick", "three"), ("pick", "four")])
    assert '<input name="cells" value="P"' in html
    assert re.findall(r'value="(\w+)" checked>', html) == ["one", "three", "four"]
    assert "four (not a choice now)" in html
    assert " checked" not in form_html(description)
