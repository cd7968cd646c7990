"""Hostile input through every command: hypothesis takes a legal command line of each
command, on a copy of a database holding a match of each game, and spoils some of its
values (names, match ids, notes, reasons, tokens, options, output names) with hostile
ones: control characters, escape sequences, overlong or reserved text.  It also draws
studios, decks, announced JSON, imports and scripts.  The harness (:mod:`.hostile`)
holds every run to the trust boundary: exit code 0-3 and never an internal error,
nothing written on refusal, no control character on the terminal, no file but the
database and the outputs named.  Each run must see both successes and refusals."""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.engine.photographer.deck import deck_from_seed
from tests.reliability.support import soak

from .forged import HOSTILE, export_file, forged_lca
from .hostile import DISPUTED, FORGED, HAND, LCA, LCA_HAND, PHOTO, PW, Harness, build_template

#: MATCHLEDGER_SOAK=N runs N times the examples (a local hunt; CI runs the default).
HOSTILE_RUNS = settings(max_examples=45 * soak(), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- values

#: Text that breaks rules: control characters, escape sequences, an undecodable byte
#: as the shell hands it over, overlong, reserved, a leading '-', a path.
BREAKING = [
    *HOSTILE,
    "\x00",
    "a\rb",
    "tab\there",
    "\x7f",
    "\u2028",
    "\udcff",
    "x" * 65,
    "n" * 41,
    "y" * 2001,
    "host",
    "Public",
    "-x",
    "",
    " ",
    "a b",
    "../x",
    "Ann",
    "1" * 30,
    "-1",
    "0",
]
text = st.one_of(
    st.sampled_from(BREAKING),
    st.text(max_size=10),
    st.builds(lambda a, b: a + b, st.sampled_from(["ann", "m1", "B2", "gift:bob"]), st.sampled_from(BREAKING)),
)


def spoil(items: list[str], changes) -> list[str]:
    """``items`` with the values of ``changes`` ((index, value) pairs) put in."""
    items = list(items)
    for index, value in changes:
        items[index] = value
    return items


def spoiled(base: list[str]):
    """``base`` (a command line) with up to two of its values (never the command's name
    or a flag) replaced by hostile text, and sometimes hostile tokens added."""
    slots = [i for i, arg in enumerate(base) if i > 0 and not arg.startswith("--")]
    changes = st.lists(st.tuples(st.sampled_from(slots), text), min_size=1, max_size=2) if slots else st.just([])
    extra = st.lists(text, min_size=1, max_size=40)
    return st.builds(
        lambda chosen, more: spoil(base, chosen) + more,
        st.one_of(st.just([]), changes, changes),
        st.one_of(st.just([]), st.just([]), extra),
    )


def json_values():
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 10**6), st.floats(allow_nan=False), text)
    return st.recursive(
        scalars,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
        max_leaves=12,
    )


def spoiled_json(base):
    """``base`` (decoded JSON) as it is, or with one value inside it replaced by any JSON."""

    def paths(value, prefix=()):
        yield prefix
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            yield from paths(child, (*prefix, key))

    def replace(path, new):
        if not path:
            return new
        copy = json.loads(json.dumps(base))
        target = copy
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = new
        return copy

    return st.one_of(st.just(base), st.builds(replace, st.sampled_from(list(paths(base))), json_values()))


def studios():
    """Studio files of any size (some past the limits; the legal ones at least 6 x 6, L4),
    with walls, a stray character, a byte order mark, a comment."""

    def grid(width, height, walls, noise, head):
        rows = ["".join("#" if (r * 7 + c * 3) % 23 < walls else "." for c in range(width)) for r in range(height)]
        if noise and rows:
            rows[-1] = rows[-1][:-1] + noise
        return head + "\n".join(rows) + "\n"

    legal = st.builds(
        grid,
        st.integers(6, 14),
        st.integers(6, 13),
        st.integers(0, 4),
        st.just(""),
        st.sampled_from(["", "\ufeff", "# studio\n"]),
    )
    sides = st.integers(0, 45)
    anything = st.builds(
        grid,
        sides,
        sides,
        st.integers(0, 23),
        st.sampled_from(["", "x", "\x1b", " "]),
        st.sampled_from(["", "\ufeff# \x07\n"]),
    )
    return st.one_of(legal, anything)


def decks():
    cards = deck_from_seed(7, 2, "deck_empty")
    changes = st.lists(st.tuples(st.integers(0, len(cards) - 1), text), min_size=1, max_size=2)
    return st.builds(lambda chosen: "\n".join(spoil(cards, chosen)) + "\n", st.one_of(st.just([]), changes))


def actor():
    return st.one_of(st.just([]), st.just([]), st.builds(lambda a: ["--actor", a], text))


# --------------------------------------------------------------------------- the runs


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return build_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def harness(template, tmp_path):
    return Harness(template, tmp_path)


def test_creating_matches(harness):
    new = st.one_of(
        spoiled(["new", "lca", "n1", "--players", "ann,bob,cat", "--option", "filming_lights_divisor=1"]),
        spoiled(["new", "pw", "n1", "--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan"]),
        spoiled(["new", "photographer", "n1", "--players", "ann,bob", "--seed", "7"]),
        spoiled(["new", "photographer", "n1", "--players", "ann,bob", "--option", "row_points=1:1,2:3"]),
    )

    @HOSTILE_RUNS
    @given(actor(), new, studios(), decks())
    def run(who, args, studio, deck):
        harness.reset()
        if args[1] == "lca":
            args += ["--studio", harness.file("studio.txt", studio)]
        if args[1] == "photographer" and "--seed" not in args:
            args += ["--deck", harness.file("deck.txt", deck)]
        harness.run(*who, *args)

    run()
    print(harness.codes)
    assert harness.codes[0] and harness.codes[1], harness.codes


#: Legal next commands of the template's matches (ann's submission to m1 is seq 2).
RECORDING = [
    ["submit", LCA, "ann", "A1", "B2", "C3", "D4", "E6"],
    ["contract", LCA, "ann", "lights", "supremacy"],
    ["void", LCA, "2", "--reason", "typo"],
    ["correct", LCA, "2", "A1", "B2", "C3", "D4", "E6", "--reason", "typo"],
    ["amend", LCA, "--option", "filming_lights_divisor=1", "--from-round", "3", "--reason", "house rule"],
    ["note", LCA, "studio booked"],
    ["close", LCA],
    ["submit", PW, "ann", "gift:bob", "predict:yan=swap"],
    ["contract", PW, "bob", "generosity", "sabotage:ann"],
    ["close", PW],
    ["submit", PHOTO, "ann", "take", "1", "left", "3", "wind", "1:2"],
    ["note", FORGED, "seen"],
]


def test_recording_commands(harness):
    @HOSTILE_RUNS
    @given(actor(), st.lists(st.one_of(*map(spoiled, RECORDING)), min_size=1, max_size=4))
    def run(who, commands):
        harness.reset()
        for command in commands:
            harness.run(*who, *command)

    run()
    print(harness.codes)
    assert harness.codes[0] and harness.codes[1], harness.codes


def test_announced_json(harness, template):
    announced = st.one_of(
        st.tuples(st.just(LCA), st.just("close"), spoiled_json(template.round_of[LCA])),
        st.tuples(st.just(PW), st.just("close"), spoiled_json(template.round_of[PW])),
        st.tuples(st.just(HAND), st.just("outcome"), spoiled_json(template.outcome_of[HAND])),
        st.tuples(st.just(LCA_HAND), st.just("outcome"), spoiled_json(template.outcome_of[LCA_HAND])),
        st.tuples(
            st.sampled_from([LCA, PW, HAND, PHOTO, FORGED]), st.sampled_from(["close", "outcome"]), json_values()
        ),
    )

    @HOSTILE_RUNS
    @given(announced, st.sampled_from([0, 0, 0, 40, 10**5]))
    def run(chosen, nesting):
        match, command, payload = chosen
        harness.reset()
        body = "[" * nesting + json.dumps(payload) + "]" * nesting
        harness.run(command, match, "--announced", harness.file("announced.json", body))

    run()
    print(harness.codes)
    assert harness.codes[0] and harness.codes[1], harness.codes


READING = [
    ["status", LCA, "--as", "ann"],
    ["scores", PW, "--as", "zed", "--json"],
    ["outcome", HAND, "--public"],
    ["reveals", FORGED, "--at", "3"],
    ["knowledge", PW, "--as", "yan", "--at", "4"],
    ["log", FORGED, "--at", "2"],
    ["log", DISPUTED, "--json"],
    ["head", PHOTO],
    ["verify", DISPUTED, "--head", "1:" + "0" * 64],
    ["verify", "--all", "--jobs", "1"],
    ["audit", DISPUTED],
    ["explain", FORGED, "bob\nforged"],
    ["diff", LCA, FORGED],
    ["diff", HAND, "--db-b", "missing.db"],
    ["rescore", DISPUTED, "--option", "filming_lights_divisor=1"],
    ["checkpoint", HAND],
    ["export", FORGED],
    ["messages", FORGED, "--as", "bob\nforged"],
    ["messages", LCA, "--json"],
]


def test_reading_commands(harness):
    @HOSTILE_RUNS
    @given(st.lists(st.one_of(*map(spoiled, READING)), min_size=1, max_size=4))
    def run(commands):
        harness.reset()
        for command in commands:
            harness.run(*command, raw_stdout=command[0] == "export")

    # Each as written, once, first: the answers below (a read, a refusal, a log that
    # does not verify) are then reached whatever the draws spoil (a draw once spoiled
    # every verify it made, and the run proved nothing about exit 3).
    harness.reset()
    for command in READING:
        harness.run(*command, raw_stdout=command[0] == "export")
    assert harness.codes[0] and harness.codes[1] and harness.codes[3], harness.codes
    run()
    print(harness.codes)


PICTURES = [
    ["render", LCA, "--as", "ann", "-o", "b.svg"],
    ["render", FORGED, "-o", "b.png"],
    ["render", HAND, "--public", "-o", "b.png"],
    ["report", PW, "--as", "zed", "-o", "r.html"],
    ["report", FORGED, "-o", "r.html"],
    ["messages", FORGED, "-o", "sent"],
]


def test_files_and_pictures(harness):
    # a log holds UTF-8 text only: no undecodable byte can be in one
    stored = text.filter(lambda value: "\udcff" not in value)
    imports = st.tuples(stored, st.lists(stored, min_size=2, max_size=2), stored, stored)
    scripts = st.lists(st.one_of(*map(spoiled, RECORDING)), min_size=1, max_size=4)

    @HOSTILE_RUNS
    @given(
        st.one_of(*map(spoiled, PICTURES)),
        scripts,
        imports,
        json_values(),
        st.sampled_from(["picture", "picture", "script", "import", "junk"]),
    )
    def run(picture, script, forged, junk, which):
        harness.reset()
        if which == "picture":
            harness.run(*picture, outputs=(picture[picture.index("-o") + 1],) if "-o" in picture else ())
        elif which == "script":
            lines = "\n".join(shlex.join(line) for line in script)
            harness.run("script", "--atomic", harness.file("s.txt", lines))
        elif which == "import":
            match, players, note, who = forged
            harness.run(
                "import", str(export_file(harness.data / "f.jsonl", match, forged_lca(match, players, note), who))
            )
        else:
            harness.run("import", harness.file("j.jsonl", json.dumps(junk) + "\n"))

    run()
    print(harness.codes)
    assert harness.codes[0] and harness.codes[1], harness.codes


def test_the_template_reads_cleanly(harness):
    """The examples start from a database every read accepts (so a refusal is the input's)."""
    harness.reset()
    for match in (LCA, PW, PHOTO, HAND, FORGED, DISPUTED, LCA_HAND):
        assert harness.run("status", match).exit_code == 0
    assert harness.run("verify", DISPUTED).exit_code == 3  # a hand-scored match with one wrong number
