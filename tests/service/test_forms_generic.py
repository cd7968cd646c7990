"""commands/service/forms.py draws a form from any legal-choices description, and maps
what it posts back through it, with no game's name or notation: each kind of part
(grid, fields, a list, checkboxes, ordered places) once, in process."""

from __future__ import annotations

import re

import pytest

from matchledger.commands.service.forms import form_html, tokens_from_form
from matchledger.engine.choices import nothing
from matchledger.ledger.errors import MalformedInput

pytestmark = pytest.mark.guarantee("service.forms-from-choices")


def part(name, options, low=1, high=1, ordered=False, **more):
    return {"name": name, "label": name, "min": low, "max": high, "ordered": ordered, "options": options, **more}


def option(words, **more):
    return {"tokens": words.split(), "label": words, **more}


def described(*parts):
    return {"prompt": "Choose", "parts": list(parts), "constraints": [], "typed": "x y"}


GRID = part(
    "cells",
    [option("P", cell=[0, 0]), option("Q", cell=[1, 0]), option("R", cell=[1, 1])],
    low=2,
    high=2,
    ordered=True,
    grid={
        "width": 2,
        "height": 2,
        "marks": [{"name": "hole", "label": "hole", "symbol": "o", "cells": [[0, 1], [1, 1]]}],
    },
)


def test_a_sole_grid_fills_the_typed_field_and_draws_its_marks():
    html = form_html(described(GRID))
    assert re.search(r'<table class="pick" data-count="2" data-min="2" data-ordered="true" data-into="tokens">', html)
    assert re.findall(r'data-tokens="([^"]+)"', html) == ["P", "Q", "R"]
    assert 'data-mark="hole" data-cell="R"' in html  # an option standing on a mark
    assert '<td class="mark" data-mark="hole" title="hole">o</td>' in html  # a mark with no option
    assert 'placeholder="e.g. x y"' in html and 'name="tokens"' in html
    assert tokens_from_form(described(GRID), [("tokens", " Q  P ")]) == ["Q", "P"]


def test_a_grid_beside_other_parts_has_a_field_of_its_own():
    description = described(GRID, part("extra", [option("s"), option("t")], low=0))
    html = form_html(description)
    assert 'data-into="cells"' in html and '<input name="cells"' in html
    assert tokens_from_form(description, [("cells", "R P"), ("extra", "t")]) == ["R", "P", "t"]
    assert tokens_from_form(description, [("cells", "R P"), ("extra", ""), ("tokens", "typed wins")]) == [
        "typed",
        "wins",
    ]


def test_fields_pick_the_option_whose_values_they_are():
    options = [
        option("a-1", fields={"kind": "a", "n": 1}),
        option("a-2", fields={"kind": "a", "n": 2}),
        option("b", fields={"kind": "b"}),
    ]
    description = described(
        part("x", options, fields=[{"name": "kind", "label": "kind"}, {"name": "n", "label": "number"}])
    )
    html = form_html(description)
    assert re.findall(r'<select name="(x_[a-z]+)">', html) == ["x_kind", "x_n"]
    assert (
        'number <select name="x_n"><option value="">—</option><option value="1">1</option><option value="2">2</option>'
        in html
    )
    assert tokens_from_form(description, [("x_kind", "a"), ("x_n", "2")]) == ["a-2"]
    assert tokens_from_form(description, [("x_kind", "b"), ("x_n", "2")]) == ["b"]  # a value b does not take: aside
    assert (
        tokens_from_form(description, [("x_kind", ""), ("x_n", "")]) == []
    )  # nothing chosen: the rules say what is missing
    with pytest.raises(MalformedInput, match="x: no choice is kind a; choose every list"):
        tokens_from_form(description, [("x_kind", "a")])


def test_lists_checkboxes_and_ordered_places():
    options = [option("one"), option("two words"), option("three")]
    any_order = part("some", options, low=0, high=2)
    in_order = part("ranked", options, low=2, high=2, ordered=True)
    single = part("pick", options)
    description = described(single, any_order, in_order)
    html = form_html(description)
    assert '<select name="pick"><option value="">—</option><option value="one">one</option>' in html
    assert html.count('type="checkbox" name="some"') == 3
    assert re.findall(r'<select name="(ranked_\d)">', html) == ["ranked_1", "ranked_2"]
    posted = [("pick", "two words"), ("some", "three"), ("some", "one"), ("ranked_1", "three"), ("ranked_2", "one")]
    assert tokens_from_form(description, posted) == ["two", "words", "three", "one", "three", "one"]
    with pytest.raises(MalformedInput, match="pick: 'four' is not one of its choices now"):
        tokens_from_form(description, [("pick", "four")])


def test_nothing_to_submit_says_why_and_no_description_is_the_typed_field_alone():
    assert form_html(nothing("Waiting for <b> to play.")) == '<p class="closed">Waiting for &lt;b&gt; to play.</p>'
    typed_only = form_html(None, [("tokens", "3 4")])
    assert '<input name="tokens" value="3 4"' in typed_only and "<select" not in typed_only
    assert "over" in form_html(None, over=True) and "<form" not in form_html(None, over=True)
    assert tokens_from_form(None, [("tokens", "3 4")]) == ["3", "4"]
