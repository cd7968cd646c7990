"""A round reopened and closed again is announced anew: its public post (in `messages`
and in what a hook posts) says that it corrects the earlier one and which lines changed,
instead of reading as a new round."""

from __future__ import annotations

import json

from tests.helpers import REPO, invoke, read_json
from tests.service.hook_support import Receiver, add_hook, deliver_all

STUDIO = REPO / "fixtures" / "lca" / "studio-example-10x13.txt"


def closed_twice(db, bob_last: str = "E1") -> None:
    invoke(db, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
    for name in ("ann", "bob", "cat"):
        invoke(db, "submit", "m1", name, "G4", "A1", "B1", "C1", "D1")
    invoke(db, "close", "m1")
    invoke(db, "reopen", "m1", "--reason", "bob mistyped")
    invoke(db, "submit", "m1", "bob", "G4", "A1", "B1", "C1", bob_last)
    invoke(db, "close", "m1")


def test_a_round_closed_again_says_it_corrects_the_earlier_post_and_what_changed(tmp_path):
    db = tmp_path / "m.db"
    closed_twice(db)
    first = read_json(db, "messages", "m1", "--public", "--json", "--at", "5")
    again = read_json(db, "messages", "m1", "--public", "--json")
    assert "corrects" not in first
    assert again["corrects"] == {"seq": first["seq"], "public": first["public"]}
    text = invoke(db, "messages", "m1", "--public").stdout.splitlines()
    assert text[:4] == [
        "=== public post ===",
        f"Correction: this replaces the post of round 1 (after event {first['seq']}).",
        "What changed:",
        "  was: 0 lights: -",
    ]
    assert "  now: 1 light: E1" in text
    assert "corrects" not in read_json(db, "messages", "m1", "--as", "ann", "--json")  # the post's, not a message's


def test_a_round_closed_again_unchanged_says_nothing_changed(tmp_path):
    db = tmp_path / "m.db"
    closed_twice(db, bob_last="D1")
    text = invoke(db, "messages", "m1", "--public").stdout.splitlines()
    assert text[1:3] == [
        "Correction: this replaces the post of round 1 (after event 5).",
        "Nothing in the post changed.",
    ]


def test_the_hook_posts_the_correction_too(tmp_path):
    receiver = Receiver()
    try:
        # a hook added before the round was closed again: the new close is posted, as a correction
        db2 = tmp_path / "n.db"
        invoke(db2, "new", "lca", "m1", "--players", "ann,bob,cat", "--studio", STUDIO)
        for name in ("ann", "bob", "cat"):
            invoke(db2, "submit", "m1", name, "G4", "A1", "B1", "C1", "D1")
        invoke(db2, "close", "m1")
        add_hook(db2, receiver.url)
        invoke(db2, "reopen", "m1", "--reason", "bob mistyped")
        invoke(db2, "submit", "m1", "bob", "G4", "A1", "B1", "C1", "E1")
        invoke(db2, "close", "m1")
        [delivered] = deliver_all(db2)
    finally:
        receiver.close()
    content = json.loads(receiver.requests[0].body)["content"]
    assert delivered.state == "delivered"
    assert content.startswith("Correction: this replaces the post of round 1 (after event 5).\nWhat changed:\n")
