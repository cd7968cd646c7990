"""Panels: titled tables of text beside a picture and in the replay page.  Holds the
scores and outcome panels the games share, the text of a read-model value in a panel,
and the drawing of panels onto a canvas (and the room that takes)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import results
from .svg import INK, MUTED, Canvas, text_width
from .wording import score_label


@dataclass
class Panel:
    """A titled table of text, drawn beside a picture or shown by the replay page."""

    title: str
    header: list[str] | None
    rows: list[list[str]]
    key: str = ""

    def as_dict(self) -> dict:
        return {"title": self.title, "header": self.header, "rows": self.rows, "key": self.key}


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


def records_panel(title: str, records: list[dict], key: str) -> Panel:
    """Records (a column's heading -> value, as :mod:`.results` words them) as a panel."""
    header: list[str] = []
    for record in records:
        header += [column for column in record if column not in header]
    return Panel(title, header, [[fmt(record.get(column)) for column in header] for record in records], key=key)


def scores_panel(rows: list[dict], columns: list[str], game: str | None, title: str = "Scores") -> Panel:
    """The scores so far: a row per participant, each of ``columns`` under the heading
    ``game`` declares for it."""
    if not rows:
        return Panel(title, None, [["none known in this view yet"]], key="scores")
    header = ["participant", *(score_label(c, game) for c in columns)]
    body = [[str(r.get("participant", "")), *(fmt(r.get(c)) for c in columns)] for r in rows]
    return Panel(title, header, body, key="scores")


def outcome_panels(
    outcome: dict | None, who: Callable[[dict], str] | None = None, who_label: str = "participant"
) -> list[Panel]:
    """Standings (when the view has them), awards and contract results of an outcome
    read model, in the records and words of the command line's text (:mod:`.results`);
    ``who`` names a standing's participant (a pair, say), under ``who_label``."""
    if not outcome or not outcome.get("finished"):
        return [Panel("Outcome", None, [["not finished yet"]], key="outcome")]
    panels = []
    if outcome.get("standings"):
        standings = results.standings(outcome, who, who_label) if who else results.standings(outcome)
        panels.append(records_panel("Outcome: standings", standings, key="outcome"))
    if outcome.get("awards"):
        panels.append(records_panel("Outcome: awards", results.awards(outcome), key="awards"))
    if outcome.get("contracts"):  # every contract held, and whether it succeeded
        panels.append(records_panel("Outcome: contracts", results.contracts(outcome), key="contracts"))
    if not panels:
        panels.append(Panel("Outcome", None, [["finished"]], key="outcome"))
    return panels


def draw_panels(canvas: Canvas, panels: list[Panel], x: int, y: int, size: int = 12) -> int:
    """Draw panels as plain text tables from (x, y) down; returns the y below them."""
    line_h = size + 5
    for panel in panels:
        y += line_h
        canvas.text(x, y, panel.title, size=size + 1, weight="bold", class_="panel-title")
        y += 4
        table = ([panel.header] if panel.header else []) + panel.rows
        if not table:
            y += line_h
            canvas.text(x, y, "(nothing yet)", size=size, fill=MUTED)
            y += 6
            continue
        ncols = max(len(r) for r in table)
        widths = [max(text_width(r[i], size) if i < len(r) else 0 for r in table) + 14 for i in range(ncols)]
        for index, row in enumerate(table):
            y += line_h
            cx = x
            is_header = panel.header is not None and index == 0
            for i, cell in enumerate(row):
                canvas.text(
                    cx, y, cell, size=size, fill=MUTED if is_header else INK, weight="bold" if is_header else None
                )
                cx += widths[i]
        y += 6
    return y


def panels_size(panels: list[Panel], size: int = 12) -> tuple[int, int]:
    """Width and height :func:`draw_panels` needs."""
    line_h = size + 5
    height = 0
    width = 0
    for panel in panels:
        height += line_h + 4 + 6
        width = max(width, text_width(panel.title, size + 1))
        table = ([panel.header] if panel.header else []) + panel.rows
        if not table:
            height += line_h
            continue
        ncols = max(len(r) for r in table)
        widths = [max(text_width(r[i], size) if i < len(r) else 0 for r in table) + 14 for i in range(ncols)]
        width = max(width, sum(widths))
        height += line_h * len(table)
    return width, height
