"""The shape every game's ``explain`` returns: categories of lines (:func:`line`) whose
points (exact rationals, as strings) sum to the category's ``exact`` value; ``score`` is
that value as the game scores it (rounded where its rules say) and ``total`` sums the
scores."""

from __future__ import annotations

from fractions import Fraction

from .state import MatchState


def line(points: int | Fraction, rule: str, detail: str) -> dict:
    """One line: ``points`` as an exact rational in text (a whole number prints as
    itself), the rule that gives them and what they were given for."""
    return {"points": str(Fraction(points)), "rule": rule, "detail": detail}


def category(name: str, lines: list[dict], score: int | None = None) -> dict:
    """One category; ``score`` defaults to ``exact`` for games that never round."""
    exact = sum((Fraction(each["points"]) for each in lines), Fraction(0))
    if score is None:
        score = int(exact)
    return {"category": name, "score": int(score), "exact": str(exact), "lines": lines}


def explanation(state: MatchState, participant: str, categories: list[dict]) -> dict:
    return {
        "match": state.match_id,
        "game": state.game,
        "participant": participant,
        "categories": categories,
        "total": sum(c["score"] for c in categories),
    }
