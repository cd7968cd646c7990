"""Exact sums without Fraction arithmetic in the loop: integer numerators are summed per
denominator and one Fraction is built at the end (the same value, normalized)."""

from __future__ import annotations

import math
from fractions import Fraction

from ..memo import Memo

ZERO = Fraction(0)

#: Fractions by (numerator, denominator): a Fraction never changes, so one object serves
#: every equal value (a division by zero raises and is not kept)
FRACTIONS: Memo[tuple[int, int], Fraction] = Memo(lambda terms: Fraction(*terms))


def fraction(numerator, denominator=1) -> Fraction:
    """``Fraction(numerator, denominator)``, kept for integer arguments."""
    if type(numerator) is int and type(denominator) is int:
        return FRACTIONS[(numerator, denominator)]
    return Fraction(numerator, denominator)


def add(parts: dict[int, int], numerator: int, denominator: int) -> None:
    """Add ``numerator / denominator`` to ``parts`` ({denominator: numerator sum})."""
    parts[denominator] = parts.get(denominator, 0) + numerator


def total(parts: dict[int, int]) -> Fraction:
    """The exact sum of ``parts`` ({denominator: numerator sum}) as one Fraction."""
    if not parts:
        return ZERO
    if len(parts) == 1:
        ((denominator, numerator),) = parts.items()
        return fraction(numerator, denominator)
    common = math.lcm(*parts)
    return fraction(sum(numerator * (common // denominator) for denominator, numerator in parts.items()), common)


def scored(parts: dict[str, dict[int, int]]) -> tuple[dict[str, Fraction], dict[str, int]]:
    """Each player's exact sum of ``parts`` ({player: {denominator: numerator sum}}) and
    its score, the sum rounded down once (taken from the integers, not the Fraction)."""
    exact: dict[str, Fraction] = {}
    scores: dict[str, int] = {}
    for player, into in parts.items():
        if not into:
            exact[player], scores[player] = ZERO, 0
            continue
        if len(into) == 1:
            ((common, numerator),) = into.items()
        else:
            common = math.lcm(*into)
            numerator = sum(n * (common // d) for d, n in into.items())
        exact[player] = fraction(numerator, common)  # (first: it is what refuses a zero denominator)
        scores[player] = numerator // common
    return exact, scores
