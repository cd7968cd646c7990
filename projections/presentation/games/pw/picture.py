"""Parallel Worlds as a picture: a per-round table of action totals (what every view is
told), and in a participant's view their own notices; the host also sees pairs and
points."""

from __future__ import annotations

from matchledger.projections.presentation.panels import Panel, fmt, outcome_panels
from matchledger.projections.presentation.svg import INK, MUTED, Canvas

from .text import PAIR_LABEL, pair

TYPES = ["gift", "learn", "predict", "swap", "unique", "watch"]
COL = 66
ROW = 30
LEFT = 80
TOP = 26
SHADE = "#3f6fb5"


def _rounds(models: dict) -> dict[int, dict]:
    return {
        entry["round"]: entry.get("public", {}).get("type_counts", {}) for entry in models["reveals"].get("rounds", [])
    }


def board(models: dict) -> Canvas:
    counts = _rounds(models)
    n_rounds = int(models["status"].get("rounds", 3))
    canvas = Canvas(LEFT + COL * (len(TYPES) + 1) + 2, TOP + ROW * (n_rounds + 1) + 2)
    for i, kind in enumerate(TYPES + ["total"]):
        canvas.text(LEFT + i * COL + COL // 2, TOP - 8, kind, size=12, fill=MUTED, anchor="middle", weight="bold")
    peak = max([1] + [int(v) for c in counts.values() for v in c.values()])
    column_totals = [0] * len(TYPES)
    for r in range(1, n_rounds + 1):
        y = TOP + (r - 1) * ROW
        canvas.text(LEFT - 8, y + ROW // 2 + 4, f"round {r}", size=12, fill=MUTED, anchor="end")
        row = counts.get(r)
        for i, kind in enumerate(TYPES):
            x = LEFT + i * COL
            if row is None:
                canvas.rect(x, y, COL, ROW, "#f3f3f3", stroke="#ffffff", stroke_width=2, class_="pending")
                continue
            value = int(row.get(kind, 0))
            column_totals[i] += value
            canvas.rect(
                x,
                y,
                COL,
                ROW,
                SHADE,
                stroke="#ffffff",
                stroke_width=2,
                fill_opacity=round(0.1 + 0.6 * value / peak, 2),
                class_="count",
                data_round=r,
                data_type=kind,
            )
            canvas.text(x + COL // 2, y + ROW // 2 + 5, value, size=14, fill=INK, anchor="middle")
        x = LEFT + len(TYPES) * COL
        canvas.text(
            x + COL // 2,
            y + ROW // 2 + 5,
            "-" if row is None else sum(int(v) for v in row.values()),
            size=14,
            anchor="middle",
        )
    y = TOP + n_rounds * ROW
    canvas.line(LEFT, y + 1, LEFT + COL * (len(TYPES) + 1), y + 1, stroke=INK)
    canvas.text(LEFT - 8, y + ROW // 2 + 4, "total", size=12, fill=MUTED, anchor="end")
    for i, value in enumerate(column_totals + [sum(column_totals)]):
        canvas.text(LEFT + i * COL + COL // 2, y + ROW // 2 + 5, value, size=14, anchor="middle", weight="bold")
    return canvas


def headline(models: dict) -> str:
    status = models["status"]
    if status.get("finished"):
        return "finished"
    return f"round {status.get('round')} of {status.get('rounds', 3)}"


def _notice_rows(round_no: int, notice: dict) -> list[list[str]]:
    rows = [[f"round {round_no}", f"own {notice.get('own_points', 0)}, partner {notice.get('partner_points', 0)}"]]
    for item in notice.get("learn", []):
        acts = ", ".join(
            f"{a.get('type')}:{a.get('target')}" + (f" ({a['predict']})" if "predict" in a else "")
            for a in item.get("actions", [])
        )
        rows.append(["", f"learn {item.get('target')}: {acts or 'nothing'}"])
    for item in notice.get("watch", []):
        rows.append(
            ["", f"watch {item.get('target')}: seen {fmt(item.get('seen', [])) if item.get('seen') else 'nobody'}"]
        )
    return rows


def panels(models: dict) -> list[Panel]:
    status = models["status"]
    kind = models["view"]["kind"]
    out = [
        Panel(
            "Round",
            None,
            [["closed", fmt(status.get("closed", []))], ["players", fmt(status.get("players", []))]],
            key="round",
        )
    ]
    if kind == "host":
        if status.get("waiting_for"):
            out.append(Panel("Waiting for", None, [[fmt(status.get("waiting_for"))]], key="missing"))
        points = {row["participant"]: row["points"] for row in models["scores"].get("participants", [])}
        rows = [
            [p["player"], fmt(points.get(p["player"])), p["guest"], fmt(points.get(p["guest"]))]
            for p in status.get("pairs", [])
        ]
        out.append(Panel("Pairs and points", ["player", "points", "guest", "points"], rows, key="scores"))
        contracts = status.get("contracts", {})
        if contracts:
            out.append(Panel("Contracts", None, [[p, fmt(c)] for p, c in contracts.items()], key="contracts"))
        last = (models["reveals"].get("rounds") or [None])[-1]
        if last is not None:
            rows = []
            for who, notice in last.get("private", {}).items():
                for row in _notice_rows(last["round"], notice):
                    rows.append([who if row[0] else "", row[1]])
            out.append(Panel(f"Notices of round {last['round']}", None, rows, key="reveals"))
    elif kind == "participant":
        knowledge = models.get("knowledge") or {}
        me = [
            ["you", f"{knowledge.get('participant')} ({knowledge.get('role')})"],
            ["partner", fmt(knowledge.get("partner"))],
            [
                "points",
                f"own {knowledge.get('points', {}).get('own', 0)}, partner {knowledge.get('points', {}).get('partner', 0)}",
            ],
        ]
        if knowledge.get("contract"):
            me.append(["contract", fmt(knowledge.get("contract"))])
        if knowledge.get("guesses"):
            me.append(["guesses", ", ".join(f"{k}={v}" for k, v in knowledge["guesses"].items())])
        out.append(Panel("You", None, me, key="you"))
        notices = []
        for entry in knowledge.get("rounds", []):
            notices += _notice_rows(entry["round"], entry.get("notice", {}))
        out.append(Panel("Your notices", None, notices or [["nothing yet"]], key="reveals"))
    out += outcome_panels(models["outcome"], who=pair, who_label=PAIR_LABEL)
    return out


def legend(models: dict) -> list[tuple[str, str]]:
    return [("few", "#e2e9f4"), ("many", "#7f9fcf")]
