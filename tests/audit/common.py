"""Shared helpers of the audit tests: the fixture scripts and checks of `explain`."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from tests.helpers import REPO

LCA_CATEGORIES = ("lights", "camera", "action", "filming")


def first_command(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line
    return ""


def script_fixtures() -> list[Path]:
    """Every fixture that is a host script (its first command is `new ...`); studio and
    deck files are skipped."""
    return sorted(p for p in (REPO / "fixtures").glob("*/*.txt") if first_command(p).startswith("new "))


def match_of(path: Path) -> tuple[str, str]:
    """(game, match id) of a fixture script."""
    words = first_command(path).split()
    return words[1], words[2]


def score_rows(game: str, scores: dict) -> dict[str, tuple[int, dict[str, int] | None]]:
    """participant -> (total, category scores or None) from `scores --json` (host view)."""
    if game == "lca":
        return {r["participant"]: (r["total"], {k: r[k] for k in LCA_CATEGORIES if k in r}) for r in scores["scores"]}
    if game == "pw":
        return {r["participant"]: (r["points"], None) for r in scores["participants"]}
    if game == "photographer":
        return {r["participant"]: (r["points"], dict(r["scores"])) for r in scores["scores"]}
    raise AssertionError(f"unknown game {game!r}")


def check_explain(data: dict, game: str, match: str, participant: str, total: int, categories: dict | None) -> None:
    """The contract of `explain --json`: exact strings, lines summing to `exact`, `score`
    the rules' rounding of `exact`, category scores and total as `scores` shows them."""
    assert (data["match"], data["game"], data["participant"]) == (match, game, participant)
    for category in data["categories"]:
        exact = Fraction(category["exact"])
        assert str(exact) == category["exact"]
        points = [Fraction(line["points"]) for line in category["lines"]]
        for line, value in zip(category["lines"], points):
            assert str(value) == line["points"], line  # canonical str(Fraction)
            assert line["rule"] and line["detail"], line
        assert sum(points, Fraction(0)) == exact, (participant, category["category"])
        if game == "lca":
            assert category["score"] == math.floor(exact), (participant, category["category"])  # rounded down once
        else:
            assert exact.denominator == 1 and category["score"] == exact, (participant, category["category"])
    shown = {c["category"]: c["score"] for c in data["categories"]}
    if categories is not None:
        assert shown == categories, participant
    assert data["total"] == sum(shown.values()) == total, participant
