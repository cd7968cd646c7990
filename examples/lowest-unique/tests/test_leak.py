"""Noninterference (U9): before a round closes, nothing the public or another player
reads moves with a player's hidden number, nor with whether they changed it.  Two
matches differ only in bob's submissions; every read of every other viewer, JSON and
text, is the same byte for byte until the close, and differs after it (so the
comparison can see a difference)."""

from __future__ import annotations

import pytest
from conftest import invoke, play

from matchledger import engine
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application

START = """
new lowest-unique m1 --players ann,bob,cat,dan --option rounds=2
submit m1 ann 2
submit m1 cat 2
close m1 --force --reason "a first round for the others"
submit m1 ann 1
"""
BOB = {
    "bob chose 3": "submit m1 bob 3",
    "bob chose 9": "submit m1 bob 9",
    "bob chose 1, then 9": "submit m1 bob 1\nsubmit m1 bob 9",
    "bob has not chosen": "",
}
REST = "submit m1 cat 4"

READS = ("status", "scores", "outcome", "reveals")
#: Every viewer but bob and the host: the public and the other players.
VIEWERS = (("--public",), ("--as", "ann"), ("--as", "cat"), ("--as", "dan"))


def everything_seen(db) -> dict[str, str]:
    seen = {}
    for viewer in VIEWERS:
        for read in READS:
            for form in (("--json",), ()):
                seen[" ".join((read, *viewer, *form))] = invoke(db, read, "m1", *viewer, *form).stdout
        if viewer[0] == "--as":
            for form in (("--json",), ()):
                seen[" ".join(("knowledge", *viewer, *form))] = invoke(db, "knowledge", "m1", *viewer, *form).stdout
    return seen


def choices_seen(db) -> dict[str, object]:
    game = engine.get("lowest-unique")
    store = open_store(db)
    try:
        state = Application(store).state("m1")
        return {p: game.choices(state, p) for p in ("ann", "cat", "dan")}
    finally:
        store.close()


@pytest.fixture
def matches(tmp_path):
    dbs = {}
    for index, (name, bob) in enumerate(BOB.items()):
        db = tmp_path / f"variant{index}.db"
        play(db, "\n".join([START, bob, REST]))
        dbs[name] = db
    return dbs


def test_u9_no_read_of_another_viewer_moves_with_bobs_hidden_number(matches):
    seen = {name: everything_seen(db) for name, db in matches.items()}
    reference = seen.pop("bob chose 3")
    assert len(reference) == len(VIEWERS) * 8 + 6
    for name, reads in seen.items():
        for read, text in reads.items():
            assert text == reference[read], f"{read} differs when {name}"


def test_u9_the_legal_choices_do_not_move_with_bobs_hidden_number(matches):
    seen = {name: choices_seen(db) for name, db in matches.items()}
    reference = seen.pop("bob chose 3")
    assert reference["ann"]["parts"][0]["options"][-1]["tokens"] == ["10"]
    for name, choices in seen.items():
        assert choices == reference, name


def test_u7_after_the_close_the_numbers_are_public(matches):
    for db in (matches["bob chose 3"], matches["bob chose 9"]):
        invoke(db, "submit", "m1", "dan", "5")
        invoke(db, "close", "m1")
    three, nine = (everything_seen(matches[name]) for name in ("bob chose 3", "bob chose 9"))
    assert three["reveals --public --json"] != nine["reveals --public --json"]
    assert '"numbers": [\n          1,\n          3,' in three["reveals --public --json"].replace("\r", "")
