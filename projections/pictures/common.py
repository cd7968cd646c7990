"""Panels shared by the games: scores, outcome, small formatting helpers."""

from __future__ import annotations

from .svg import Panel


def fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(fmt(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {fmt(v)}" for k, v in value.items()) or "-"
    return str(value)


def pairs_text(data: dict) -> str:
    """``{'lights': ['G4'], 'lights_score': 60}`` -> ``lights G4; lights score 60``."""
    return "; ".join(f"{k.replace('_', ' ')} {fmt(v)}" for k, v in data.items()) or "-"


def scores_panel(rows: list[dict], columns: list[str], title: str = "Scores") -> Panel:
    if not rows:
        return Panel(title, None, [["none known in this view yet"]], key="scores")
    header = ["participant", *columns]
    body = [[str(r.get("participant", "")), *(fmt(r.get(c)) for c in columns)] for r in rows]
    return Panel(title, header, body, key="scores")


def outcome_panels(
    outcome: dict | None, score_keys: list[str], extra: tuple[str, ...] = (), labels: list[str] | None = None
) -> list[Panel]:
    """Standings (when the view has them) and awards of an outcome read model."""
    if not outcome or not outcome.get("finished"):
        return [Panel("Outcome", None, [["not finished yet"]], key="outcome")]
    panels = []
    standings = outcome.get("standings") or []
    if standings:
        header = ["rank", "participant", *extra, "total", *(labels or score_keys)]
        body = []
        for s in standings:
            scores = s.get("scores", {})
            body.append(
                [fmt(s.get("rank")), fmt(s.get("participant")), *(fmt(s.get(k)) for k in extra), fmt(s.get("total")),
                 *(fmt(scores.get(k)) for k in score_keys)]
            )
        panels.append(Panel("Outcome: standings", header, body, key="outcome"))
    awards = outcome.get("awards") or []
    if awards:
        body = [[fmt(a.get("participant")), fmt(a.get("kind")), fmt(a.get("shards")) if "shards" in a else "", fmt(a.get("reason"))] for a in awards]
        panels.append(Panel("Outcome: awards", ["participant", "award", "shards", "reason"], body, key="awards"))
    if not panels:
        panels.append(Panel("Outcome", None, [["finished"]], key="outcome"))
    return panels
