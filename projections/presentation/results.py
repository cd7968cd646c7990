"""A match's results as tables in words: the standings, the awards and the contract
results of an outcome read model, each a list of records (a column's heading -> the
value), worded as the game declares (:mod:`.wording`).

The command line's text prints these records as aligned tables (:mod:`.layout`), and
the panels of the pages, the pictures and the replay page show the very same records
(:mod:`.panels`), so a result reads the same in every output form; only the JSON keeps
the codes (``tol``, ``good_shots``)."""

from __future__ import annotations

from collections.abc import Callable

from .wording import award_reason, award_words, contract, score_label


def _participant(standing: dict) -> str:
    return str(standing.get("participant"))


def standings(outcome: dict, who: Callable[[dict], str] = _participant, who_label: str = "participant") -> list[dict]:
    """Rank, the participant (``who``, headed ``who_label``), total, then each score under
    its declared heading."""
    game = outcome.get("game")
    return [
        {
            "rank": s.get("rank"),
            who_label: who(s),
            "total": s.get("total"),
            **{score_label(k, game): v for k, v in (s.get("scores") or {}).items()},
        }
        for s in outcome.get("standings") or []
    ]


def awards(outcome: dict) -> list[dict]:
    """Participant, award (``ToL 3/4``), and the reason where it says more than the award."""
    game = outcome.get("game")
    return [
        {"participant": a.get("participant"), "award": award_words(a, game), "reason": award_reason(a, game)}
        for a in outcome.get("awards") or []
    ]


def contracts(outcome: dict) -> list[dict]:
    """Participant, contract (its whole name), and whether it succeeded."""
    game = outcome.get("game")
    return [
        {
            "participant": r.get("participant"),
            "contract": contract(r, game),
            "result": "succeeded" if r.get("succeeded") else "failed",
        }
        for r in outcome.get("contracts") or []
    ]
