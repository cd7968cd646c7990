"""A phone set to a Chinese or Japanese keyboard types the full-width comma (U+FF0C) or
the ideographic one (U+3001) where others type ",": ``G4，A1，B1`` was one token,
refused as a bad cell, while ``G4,A1,B1`` was three: they separate as ``,`` does (no
game's token holds any comma: tests/engine/test_token_separators.py)."""

from __future__ import annotations

import pytest

from matchledger.engine.commands import split_typed


@pytest.mark.parametrize("comma", ["\uff0c", "\u3001"], ids=["full-width", "ideographic"])
def test_a_phone_keyboards_comma_separates_tokens_as_a_comma_does(comma):
    assert split_typed([f"G4{comma}A1{comma} B1"]) == ["G4", "A1", "B1"]


def test_an_ascii_comma_separates_them():
    assert split_typed(["G4,A1, B1"]) == ["G4", "A1", "B1"]
