"""engine/choices.py: the legal-choices description's shape, what it offers and what it
draws, each constraint kind once, held to a brute-force reading of the definition."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.engine.choices import check, nothing, offers, sample
from matchledger.ledger.errors import MalformedInput

pytestmark = pytest.mark.guarantee("log.choices-contract")


def part(name, options, low=1, high=1, ordered=False, **more):
    return {"name": name, "label": name, "min": low, "max": high, "ordered": ordered, "options": options, **more}


def option(tokens, **more):
    tokens = tokens.split() if isinstance(tokens, str) else tokens
    return {"tokens": tokens, "label": " ".join(tokens), **more}


def described(parts, constraints=()):
    return {"prompt": "choose", "parts": parts, "constraints": list(constraints), "typed": "x"}


def cells(names_at):
    return [option(name, cell=[x, y]) for name, (x, y) in names_at.items()]


# --------------------------------------------------------------------------- each kind, once


def test_a_part_takes_between_min_and_max_distinct_options_in_any_order():
    d = described([part("p", [option("a"), option("b"), option("c")], low=1, high=2)])
    assert offers(d, ["a"]) and offers(d, ["a", "b"]) and offers(d, ["b", "a"])
    assert not offers(d, []) and not offers(d, ["a", "a"]) and not offers(d, ["a", "b", "c"]) and not offers(d, ["z"])


def test_parts_are_written_in_their_order_and_an_option_may_be_several_tokens():
    d = described([part("first", [option("take 1"), option("take 2")]), part("then", [option("wind 1:2")], low=0)])
    assert offers(d, ["take", "1", "wind", "1:2"]) and offers(d, ["take", "2"])
    assert not offers(d, ["wind", "1:2", "take", "1"]) and not offers(d, ["take"])


def test_distinct_keeps_a_field_apart_over_parts():
    options = [
        option("gift:bob", fields={"type": "gift", "target": "bob"}),
        option("swap:bob", fields={"type": "swap", "target": "bob"}),
        option("gift:yan", fields={"type": "gift", "target": "yan"}),
    ]
    d = described(
        [part("a1", options), part("a2", options)], [{"kind": "distinct", "parts": ["a1", "a2"], "field": "target"}]
    )
    assert offers(d, ["gift:bob", "gift:yan"]) and not offers(d, ["gift:bob", "swap:bob"])


def test_at_most_bounds_how_often_a_value_is_chosen_and_leaves_others_unbounded():
    options = [
        option(f"{kind}:{who}", fields={"type": kind, "target": who})
        for kind in ("gift", "swap")
        for who in ("bob", "yan")
    ]
    counts = {"gift": 1, "swap": 0}
    d = described(
        [part("a1", options), part("a2", options)],
        [{"kind": "at_most", "parts": ["a1", "a2"], "field": "type", "counts": counts}],
    )
    assert offers(d, ["gift:bob", "gift:yan"]) is False and not offers(d, ["swap:bob", "gift:yan"])
    counts["gift"] = 2
    assert offers(d, ["gift:bob", "gift:yan"])
    del counts["swap"]
    assert offers(d, ["swap:bob", "swap:yan"])


def test_apart_keeps_cells_at_a_chebyshev_distance():
    grid = cells({"B2": (1, 1), "D2": (3, 1), "E2": (4, 1), "E5": (4, 4)})
    d = described([part("cameras", grid, low=2, high=2)], [{"kind": "apart", "parts": ["cameras"], "distance": 3}])
    assert offers(d, ["B2", "E2"]) and offers(d, ["E5", "B2"]) and not offers(d, ["B2", "D2"])


def test_when_lets_an_option_be_chosen_only_with_one_of_another_parts_options():
    take = [option(f"take {n}", fields={"count": n}) for n in (1, 2, 3)]
    wind = [option("wind 1:2"), option("wind 1:5", when={"take": {"count": [2, 3]}})]
    d = described([part("take", take), part("wind", wind)])
    assert offers(d, ["take", "2", "wind", "1:5"]) and offers(d, ["take", "1", "wind", "1:2"])
    assert not offers(d, ["take", "1", "wind", "1:5"])
    rng = random.Random(1)
    for _ in range(200):
        drawn = sample(d, rng)
        assert offers(d, drawn) and not (drawn[1] == "1" and drawn[-1] == "1:5")


def test_nothing_and_no_description_offer_nothing():
    assert not offers(None, ["a"]) and sample(None, random.Random(1)) is None
    assert not offers(nothing("not your turn"), []) and sample(nothing("why"), random.Random(1)) is None
    check(nothing("not your turn"))


def test_a_description_whose_constraints_nothing_meets_draws_none():
    d = described(
        [part("cameras", cells({"A1": (0, 0), "B1": (1, 0)}), low=2, high=2)],
        [{"kind": "apart", "parts": ["cameras"], "distance": 3}],
    )
    assert sample(d, random.Random(1)) is None


@pytest.mark.parametrize(
    "broken, says",
    [
        ([], "JSON object"),
        ({"none": ""}, "none"),
        ({**described([part("p", [option("a")])]), "parts": []}, "at least one part"),
        (described([part("p", [option("a")]), part("p", [option("b")])]), "part name 'p'"),
        (described([part("bad name", [option("a")])]), "part name"),
        (described([part("p", [option("a")], low=2, high=1)]), "min and max"),
        (described([part("p", [option("a"), option("a")])]), "two options are 'a'"),
        (described([part("p", [option(["a b"])])]), "each a word"),
        (described([part("p", [option("a", cell=[5, 0])], grid={"width": 2, "height": 2})]), "outside its grid"),
        (described([part("p", [option("a")])], [{"kind": "nearby", "parts": ["p"]}]), "unknown kind"),
        (described([part("p", [option("a")])], [{"kind": "distinct", "parts": ["q"], "field": "x"}]), "naming parts"),
        (described([part("p", [option("a")])], [{"kind": "apart", "parts": ["p"], "distance": 3}]), "has a cell"),
        (described([part("p", [option("a", when={"q": {"n": [1]}})])]), "'when' names part 'q'"),
    ],
)
def test_a_description_of_another_shape_is_refused_naming_the_problem(broken, says):
    with pytest.raises(MalformedInput, match=says):
        check(broken)


# --------------------------------------------------------------------------- against the definition


WORDS = ["a", "b", "c", "d", "e"]


@st.composite
def descriptions(draw):
    """Up to 3 parts of up to 4 one- or two-token options over a few words (so readings
    may be ambiguous), fields and cells on every option, and constraints of each kind."""
    parts = []
    for index in range(draw(st.integers(1, 3))):
        seen, options = set(), []
        for _ in range(draw(st.integers(0, 4))):
            tokens = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=2))
            if tuple(tokens) in seen:
                continue
            seen.add(tuple(tokens))
            options.append(
                option(
                    tokens,
                    fields={"f": draw(st.integers(0, 2))},
                    cell=[draw(st.integers(0, 4)), draw(st.integers(0, 4))],
                )
            )
        low = draw(st.integers(0, 2))
        parts.append(
            part(f"p{index}", options, low=low, high=low + draw(st.integers(0, 2)), ordered=draw(st.booleans()))
        )
    names = [p["name"] for p in parts]
    constraints = []
    for kind in draw(st.lists(st.sampled_from(["distinct", "at_most", "apart"]), max_size=3)):
        over = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
        constraint = {"kind": kind, "parts": over}
        if kind == "apart":
            constraint["distance"] = draw(st.integers(0, 3))
        else:
            constraint["field"] = "f"
        if kind == "at_most":
            constraint["counts"] = {
                str(v): n for v, n in draw(st.dictionaries(st.integers(0, 2), st.integers(0, 2))).items()
            }
        constraints.append(constraint)
    return described(parts, constraints)


def holds(description, chosen) -> bool:
    """The definition, read literally (the module's own reading is not used)."""
    for c in description["constraints"]:
        picked = [o for name in c["parts"] for o in chosen[name]]
        if c["kind"] == "apart" and any(
            max(abs(a["cell"][0] - b["cell"][0]), abs(a["cell"][1] - b["cell"][1])) < c["distance"]
            for a, b in itertools.combinations(picked, 2)
        ):
            return False
        if c["kind"] == "distinct" and len({o["fields"]["f"] for o in picked}) < len(picked):
            return False
        if c["kind"] == "at_most" and any(
            sum(1 for o in picked if str(o["fields"]["f"]) == v) > n for v, n in c["counts"].items()
        ):
            return False
    return True


def every_offered(description) -> set[tuple[str, ...]]:
    """Every submission the description offers, by enumeration."""
    per_part = []
    for p in description["parts"]:
        ways = [
            perm
            for k in range(p["min"], min(p["max"], len(p["options"])) + 1)
            for perm in itertools.permutations(p["options"], k)
        ]
        per_part.append([(p["name"], list(way)) for way in ways])
    found = set()
    for combination in itertools.product(*per_part):
        chosen = dict(combination)
        if holds(description, chosen):
            found.add(tuple(t for _name, way in combination for o in way for t in o["tokens"]))
    return found


def at_most_as_strings(description):
    """The same description with the at_most counts' keys matching the fields' values."""
    for c in description["constraints"]:
        if c["kind"] == "at_most":
            c["counts"] = dict(c["counts"].items())
    for p in description["parts"]:
        for o in p["options"]:
            o["fields"]["f"] = str(o["fields"]["f"])
    return description


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(descriptions(), st.lists(st.sampled_from(WORDS), max_size=6), st.integers(0, 2**32))
def test_offers_is_the_definition_and_sample_draws_only_what_it_offers(description, tokens, seed):
    description = at_most_as_strings(description)
    check(description)
    offered = every_offered(description)
    assert offers(description, tokens) == (tuple(tokens) in offered)
    for submission in list(offered)[:20]:
        assert offers(description, list(submission))
    drawn = sample(description, random.Random(seed))
    if drawn is not None:
        assert tuple(drawn) in offered
    elif not description["constraints"]:
        assert not offered  # unconstrained, a draw fails only where nothing is offered
