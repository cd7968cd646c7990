"""Ruling P8, row by row: every film-row length 1-8 under the default table and under a
custom one.  Expected points are read off the rules' table, never taken from the engine."""

from __future__ import annotations

import pytest

from matchledger.engine.photographer.cards import all_cards, colours_for
from matchledger.engine.photographer.scoring import DEFAULT_ROW_POINTS, parse_row_points, player_scores
from matchledger.engine.photographer.table import deal

# The rules' default `row_points`, written out from photographer.md (P8); a row longer
# than 7 scores row_points[min(L, 7)], so 8 scores the 7 value.
RULES_TABLE = {1: 1, 2: 3, 3: 5, 4: 7, 5: 9, 6: 10, 7: 11, 8: 11}
# A host's table with a different value for every length: powers of two, so a row scored
# by a neighbouring length's entry (6 read as 7, say) gives another number.
CUSTOM_TEXT = "1:2,2:4,3:8,4:16,5:32,6:64,7:128"
CUSTOM_TABLE = {1: 2, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128, 8: 128}


def rows_points(length: int, table: dict[str, int]) -> dict[str, int]:
    """ann's scores with one blue row of ``length`` face-up cards and one blurred card
    after them (blurred cards are no part of the row's length)."""
    g = deal(["ann", "bob"], all_cards(colours_for(2)))
    # values 1..length going up by 1 (every card continues the row), then a blurred 12
    g.film["ann"]["blue"] = [(f"blue-{v}", True) for v in range(1, length + 1)] + [("blue-12", False)]
    return player_scores(g, "ann", table)


@pytest.mark.parametrize("length", range(1, 9))
@pytest.mark.ruling("P8")
def test_p8_each_row_length_1_to_8_scores_the_rules_table_with_6_at_10_and_8_as_7(length):
    # 2 players: 5 colours; blue holds the row, the other 4 are missing (-3 each = -12);
    # the one blurred card -2.
    assert rows_points(length, DEFAULT_ROW_POINTS) == {
        "rows": RULES_TABLE[length],
        "blurred": -2,
        "missing": -12,
        "good_shots": 0,
    }


@pytest.mark.parametrize("length", range(1, 9))
@pytest.mark.ruling("P8")
def test_p8_each_row_length_1_to_8_scores_a_custom_tables_own_value_for_that_length(length):
    assert rows_points(length, parse_row_points(CUSTOM_TEXT))["rows"] == CUSTOM_TABLE[length]


@pytest.mark.ruling("P8")
def test_p8_the_default_table_is_the_rules_table():
    assert {int(k): v for k, v in DEFAULT_ROW_POINTS.items()} == {n: RULES_TABLE[n] for n in range(1, 8)}
