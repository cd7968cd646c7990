"""The shape every game's ``explain`` returns: categories of lines whose points (exact
rationals, as strings) sum to the category's ``exact`` value; ``score`` is that value
as the game scores it (rounded where its rules say) and ``total`` sums the scores."""

from __future__ import annotations

from fractions import Fraction

from .base import MatchState


def category(name: str, lines: list[dict], score: int | None = None) -> dict:
    """One category; ``score`` defaults to ``exact`` for games that never round."""
    exact = sum((Fraction(line["points"]) for line in lines), Fraction(0))
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
