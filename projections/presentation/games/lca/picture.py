"""Lights, Camera, Action! as a picture: the studio (walls, lights, brightness as a heat
scale with numbers, each camera's 3x3 block) and, in the host's view, the actions and
who owns what.  Built only from the chosen view's read models."""

from __future__ import annotations

from matchledger.engine.lca import studio
from matchledger.engine.lca.studio import column_name
from matchledger.ledger.errors import MalformedInput
from matchledger.projections.presentation.panels import Panel, fmt, outcome_panels, pairs_text, scores_panel
from matchledger.projections.presentation.svg import INK, MUTED, Canvas

CELL = 30
LEFT = 30  # room for row numbers
TOP = 22  # room for column letters
WALL = "#3b3b3b"
#: brightness 0 (dark floor) .. 5 (the cap)
HEAT = ("#e9e9e9", "#fff2b3", "#ffdb70", "#ffb84d", "#ff8a3d", "#e8553d")
LIGHT = "#fff200"
CAMERA = "#1f5fbf"
ACTION = "#c2185b"
OWN = "#2e7d32"
CATEGORIES = ["lights", "camera", "action", "filming"]


def parse_cell(name: str) -> tuple[int, int] | None:
    """A cell name from a read model -> (row, col); None for anything else."""
    try:
        return studio.parse_cell(str(name))
    except MalformedInput:
        return None


def _xy(cell: tuple[int, int]) -> tuple[int, int]:
    return LEFT + cell[1] * CELL, TOP + cell[0] * CELL


def _own_cells(models: dict) -> tuple[list[str], list[str]]:
    """A participant's own lights (from their private notice) and own action cells
    (their own Round-3 submission)."""
    knowledge = models.get("knowledge")
    if not knowledge:
        return [], []
    lights: list[str] = []
    for entry in knowledge.get("announcements", []):
        lights += list(entry.get("private", {}).get("lights", []))
    actions = list(knowledge.get("submissions", {}).get("3", [])) if knowledge.get("round", 0) >= 3 else []
    return lights, actions


def board(models: dict) -> Canvas:
    status = models["status"]
    rows = status["studio"]
    height, width = len(rows), len(rows[0]) if rows else 0
    canvas = Canvas(LEFT + width * CELL + 2, TOP + height * CELL + 2)
    for c in range(width):
        canvas.text(LEFT + c * CELL + CELL // 2, TOP - 7, column_name(c), size=11, fill=MUTED, anchor="middle")
    for r in range(height):
        canvas.text(LEFT - 5, TOP + r * CELL + CELL // 2 + 4, r + 1, size=11, fill=MUTED, anchor="end")
    brightness = status.get("brightness", {})
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = _xy((r, c))
            name = f"{column_name(c)}{r + 1}"
            if ch == "#":
                canvas.rect(x, y, CELL, CELL, WALL, stroke="#ffffff", stroke_width=1, class_="wall", data_cell=name)
                continue
            level = int(brightness.get(name, 0))
            canvas.rect(
                x,
                y,
                CELL,
                CELL,
                HEAT[max(0, min(level, 5))],
                stroke="#ffffff",
                stroke_width=1,
                class_=f"floor heat{level}",
                data_cell=name,
            )
            if level:
                canvas.text(x + CELL - 4, y + CELL - 5, level, size=10, fill=INK, anchor="end", class_="level")
    own_lights, own_actions = _own_cells(models)
    for name in status.get("lights", []):
        cell = parse_cell(name)
        if cell is None:
            continue
        x, y = _xy(cell)
        mine = name in own_lights
        canvas.circle(
            x + CELL // 2,
            y + CELL // 2,
            8,
            LIGHT,
            stroke=OWN if mine else INK,
            stroke_width=3 if mine else 1.5,
            class_="light own" if mine else "light",
            data_cell=name,
        )
    centres: dict[str, int] = {}
    for name in status.get("cameras", []):
        centres[name] = centres.get(name, 0) + 1
    for name, count in centres.items():
        cell = parse_cell(name)
        if cell is None:
            continue
        r0, c0 = max(cell[0] - 1, 0), max(cell[1] - 1, 0)
        r1, c1 = min(cell[0] + 1, height - 1), min(cell[1] + 1, width - 1)
        x, y = _xy((r0, c0))
        canvas.rect(
            x + 2,
            y + 2,
            (c1 - c0 + 1) * CELL - 4,
            (r1 - r0 + 1) * CELL - 4,
            CAMERA,
            stroke=CAMERA,
            stroke_width=3,  # a board scaled down to a phone's width keeps a visible frame
            fill_opacity=0.15,
            class_="camera",
            data_cell=name,
        )
        cx, cy = _xy(cell)
        label = "C" if count == 1 else f"C{count}"
        # the centre's label on a white plate, so it reads on any brightness once scaled down
        canvas.rect(cx + 3, cy + 3, 9 * len(label) + 6, 17, "#ffffff", rx=3, fill_opacity=0.9, class_="camera-plate")
        canvas.text(cx + 6, cy + 16, label, size=14, fill=CAMERA, weight="bold", class_="camera-centre")
    for name in status.get("actions", {}) if models["view"]["kind"] == "host" else []:
        _diamond(canvas, name, ACTION, "action")
    for name in own_actions:
        _diamond(canvas, name, OWN, "action own")
    return canvas


def _diamond(canvas: Canvas, name: str, colour: str, css: str) -> None:
    cell = parse_cell(name)
    if cell is None:
        return
    x, y = _xy(cell)
    cx, cy, s = x + CELL // 2, y + CELL // 2, 9
    canvas.items.append(
        f'<polygon points="{cx},{cy - s} {cx + s},{cy} {cx},{cy + s} {cx - s},{cy}" fill="{colour}" '
        f'fill-opacity="0.8" stroke="{INK}" stroke-width="1" class="{css}" data-cell="{name}"/>'
    )


def headline(models: dict) -> str:
    status = models["status"]
    phase = status.get("phase", "")
    return f"round {status.get('round')} ({phase})" if phase != "finished" else "finished"


def reveal_panel(models: dict) -> Panel:
    rows = []
    for entry in models["reveals"].get("rounds", []):
        public = entry.get("public", {})
        shown = {k: v for k, v in public.items() if k != "brightness"}
        text = pairs_text(shown) if shown else "nothing public"
        if "brightness" in public:
            text += "; brightness (on the board)"
        rows.append([f"round {entry['round']}", "public", text])
        private = entry.get("private")
        if private is None:
            continue
        if models["view"]["kind"] == "host":
            for who, notice in private.items():
                rows.append(["", who, pairs_text(notice)])
        else:
            rows.append(["", "you", pairs_text(private)])
    return Panel("Reveals", None, rows or [["nothing revealed yet"]], key="reveals")


def panels(models: dict) -> list[Panel]:
    status = models["status"]
    host = models["view"]["kind"] == "host"
    rows = [["phase", fmt(status.get("phase"))]]
    if "submitted" in status and not status.get("finished"):
        # Who has submitted is the host's alone to know (the rules announce no such
        # thing): the other views' status has no such field, and no row shows its absence.
        rows.append(["submitted", fmt(status["submitted"]) if status["submitted"] else "nobody yet"])
    out = [Panel("Round", None, rows, key="round")]
    if host:
        subs = status.get("submissions", {})
        if subs:
            out.append(
                Panel("Submissions (open round)", None, [[p, fmt(t)] for p, t in subs.items()], key="submissions")
            )
        contracts = status.get("contracts", {})
        if contracts:
            out.append(Panel("Contracts", None, [[p, fmt(c)] for p, c in contracts.items()], key="contracts"))
        owners = status.get("light_owners", {})
        if owners:
            out.append(Panel("Light owners", None, [[cell, who] for cell, who in owners.items()], key="owners"))
        cams = status.get("camera_owners", [])
        if cams:
            out.append(Panel("Camera owners", None, [[c["centre"], c["participant"]] for c in cams], key="cameras"))
        actions = status.get("actions", {})
        if actions:
            out.append(Panel("Actions", None, [[cell, fmt(who)] for cell, who in actions.items()], key="actions"))
    elif "you" in status:
        you = status["you"]
        out.append(
            Panel(
                "You",
                None,
                [["contract", fmt(you.get("contract"))], ["this round", fmt(you.get("submission"))]],
                key="you",
            )
        )
    out.append(reveal_panel(models))
    out.append(scores_panel(models["scores"].get("scores", []), CATEGORIES + ["total"], models["game"]))
    out += outcome_panels(models["outcome"])
    return out


def legend(models: dict) -> list[tuple[str, str]]:
    items = [("wall", WALL), ("dark", HEAT[0])] + [(str(level), HEAT[level]) for level in range(1, 6)]
    items += [("light", LIGHT), ("camera", CAMERA)]
    if models["view"]["kind"] == "host":
        items.append(("action", ACTION))
    elif models.get("knowledge"):
        items.append(("yours", OWN))
    return items
