"""Commas separate tokens as whitespace does (``A1, B1, D1`` and ``A1,B1`` are what
people type), in one place every door builds its command through: ``Submit`` and
``Correct`` (engine/commands.py).  That is safe only while no game's token holds a
comma or whitespace: every game's sampled matches (what they record and what their
choices offer) are held to it here, so a game whose notation needed one fails."""

from __future__ import annotations

import random

import pytest

from matchledger import engine
from matchledger.engine.commands import Correct, Submit, split_typed
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import TOKENS_MAX
from matchledger.projections.fold import play
from matchledger.testing.choices_contract import played_submissions
from tests.helpers import sampled_games

SEEDS = range(1, 4)


def test_commas_and_whitespace_separate_tokens_and_empty_pieces_are_left_out():
    assert split_typed(["A1,", "B1,C1", " , ", "D1 ,E1", ""]) == ["A1", "B1", "C1", "D1", "E1"]
    assert split_typed(["take", "2", "left", "2", "wind", "1:6"]) == ["take", "2", "left", "2", "wind", "1:6"]


def test_a_submission_and_a_correction_read_commas_as_separators():
    assert Submit("ann", ["A1,", "B1,C1", "D1", ",E1"]).tokens == ["A1", "B1", "C1", "D1", "E1"]
    assert Submit("ann", ["gift:bob,watch:yan"]).tokens == ["gift:bob", "watch:yan"]
    assert Correct(7, ["A1, B1"], "typo").tokens == ["A1", "B1"]
    assert Submit("ann", ["A1", "B1"]).tokens == ["A1", "B1"]  # nothing to split: as given


def test_a_token_is_checked_as_given_before_it_is_split():
    with pytest.raises(MalformedInput, match="printable"):
        Submit("ann", ["A1,\x00B1"])  # a control character is refused, not split away
    with pytest.raises(MalformedInput, match="printable"):
        Submit("ann", ["A1\tB1"])  # only the space is printable whitespace
    with pytest.raises(MalformedInput, match=str(TOKENS_MAX)):
        Submit("ann", [",".join(["A1"] * (TOKENS_MAX + 1))])  # one word, too many tokens once split
    assert len(Submit("ann", [",".join(["AA12"] * TOKENS_MAX)]).tokens) == TOKENS_MAX  # a long word, split


@pytest.mark.parametrize("game", sampled_games())
def test_no_game_records_or_offers_a_token_holding_a_comma_or_whitespace(game):
    rules = engine.get(game)
    seen = 0
    for seed in SEEDS:
        sample = rules.sample(random.Random(seed), f"{game}-{seed}")
        for event in play(sample).events:
            for token in getattr(event, "tokens", None) or []:
                assert split_typed([token]) == [token], f"{game} recorded {token!r}"
                seen += 1
        sample = rules.sample(random.Random(seed), f"{game}-{seed}")
        for state, _command in played_submissions(sample):
            for participant in state.participants:
                description = rules.choices(state, participant) or {}
                for part in description.get("parts", []):
                    for option in part["options"]:
                        for token in option["tokens"]:
                            assert split_typed([token]) == [token], f"{game} offers {token!r}"
                            seen += 1
    assert seen
