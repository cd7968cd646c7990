"""P2 with a secret seed: a deck order nobody can guess from what they see."""

from __future__ import annotations

import json

import pytest

from tests.helpers import invoke


def created_setup(db, match_id):
    log = json.loads(invoke(db, "log", match_id, "--json").output)
    return log[0]["event"]["setup"]


@pytest.mark.ruling("P2")
@pytest.mark.guarantee("privacy.drawn-seed")
def test_p2_a_photographer_match_without_seed_or_deck_gets_a_secret_64_bit_seed_recorded(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "photographer", "m1", "--players", "ann,bob")
    invoke(db, "new", "photographer", "m2", "--players", "ann,bob")
    first, second = created_setup(db, "m1"), created_setup(db, "m2")
    assert 0 <= first["seed"] < 2**64 and first["seed"] != second["seed"]
    assert first["deck"] != second["deck"]
    # recorded, so replay draws nothing: verify re-derives the same match
    assert invoke(db, "verify", "m1").exit_code == 0
    # a player's knowledge never holds the seed
    assert "seed" not in invoke(db, "knowledge", "m1", "--as", "ann", "--json").output


@pytest.mark.guarantee("privacy.drawn-seed")
def test_a_guessable_seed_is_recorded_with_a_warning_and_a_large_one_without(tmp_path):
    db = tmp_path / "m.db"
    small = invoke(db, "new", "photographer", "m1", "--players", "ann,bob", "--seed", "42")
    assert "warning: seed 42 can be found by trying every smaller seed" in small.stderr
    assert created_setup(db, "m1")["seed"] == 42
    large = invoke(db, "new", "photographer", "m2", "--players", "ann,bob", "--seed", str(2**63 + 12345))
    assert large.stderr == ""
    refused = invoke(
        db, "new", "photographer", "m3", "--players", "ann,bob", "--seed", "42", "--option", "nope=1", expect=1
    )
    assert "warning" not in refused.stderr  # nothing created, nothing to warn of
