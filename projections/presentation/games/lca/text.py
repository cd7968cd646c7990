"""Lights, Camera, Action! as terminal text: ``status`` and ``reveals`` with the studio
drawn in plain text (one line per row, with a legend), ``outcome`` and ``reveals`` in
the layout every game shares (:mod:`..layout`); the other read models take the generic
text.  Works only from the read model's dict, so a public picture can show
only what the public dict holds."""

from __future__ import annotations

from matchledger.engine.lca.studio import column_name, parse_cell
from matchledger.engine.state import View

from ...layout import notice_words, outcome_lines, private_notices, reveal_lines
from ...layout import reveals_text as reveals_text_of


def _header(width: int) -> list[str]:
    names = [column_name(c) for c in range(width)]
    depth = max(len(n) for n in names)
    lines = []
    for level in range(depth):
        chars = [n.rjust(depth)[level] for n in names]
        lines.append("     " + " ".join(chars).rstrip())
    return lines


def picture(rows: list[str], marks: dict[tuple[int, int], str]) -> list[str]:
    width = len(rows[0])
    lines = _header(width)
    for r, row in enumerate(rows):
        cells = [marks.get((r, c), ch) for c, ch in enumerate(row)]
        lines.append(f"{r + 1:>4} " + " ".join(cells))
    return lines


def _cells(names) -> list[tuple[int, int]]:
    return [parse_cell(n) for n in names]


def lights_picture(rows, lights, brightness) -> list[str]:
    marks = {cell: str(level) for cell, level in zip(_cells(brightness), brightness.values())}
    marks.update(dict.fromkeys(_cells(lights), "*"))
    return picture(rows, marks)


def camera_picture(rows, lights, cameras, actions=()) -> list[str]:
    marks = {}
    for r, c in _cells(cameras):
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if rows[r + dr][c + dc] != "#":
                    marks[(r + dr, c + dc)] = "o"
    marks.update(dict.fromkeys(_cells(lights), "*"))
    marks.update(dict.fromkeys(_cells(cameras), "C"))
    marks.update(dict.fromkeys(_cells(actions), "A"))
    return picture(rows, marks)


def _boards(data: dict, host: bool) -> list[str]:
    rows = data["studio"]
    out = []
    lights = data.get("lights", [])
    out.append("Lights (# wall, * light, 1-5 brightness, . dark floor):")
    out += lights_picture(rows, lights, data.get("brightness", {}))
    if "cameras" in data or (host and data.get("actions")):
        actions = list(data.get("actions", {})) if host else []
        legend = "Cameras (C camera centre, o seen by a camera, * light, # wall"
        legend += ", A action)" if actions else ")"
        out.append("")
        out.append(legend + ":")
        out += camera_picture(rows, lights, data.get("cameras", []), actions)
    return out


def status_text(data: dict, view: View) -> str:
    out = [
        f"match {data['match']} (lca) - {'finished' if data['finished'] else 'round ' + str(data['round']) + ': ' + data['phase']}"
    ]
    out.append("players: " + ", ".join(data["players"]))
    if "abandoned" in data:
        out.append(
            f"abandoned at seq {data['abandoned']['seq']}"
            + (f": {data['abandoned']['reason']}" if "reason" in data["abandoned"] else "")
        )
    if not data["finished"] and "submitted" in data:
        out.append("submitted this round: " + (", ".join(data["submitted"]) or "nobody yet"))
    if data.get("waiting_for"):
        out.append("waiting for: " + ", ".join(data["waiting_for"]))
    if "submissions" in data:
        for p, tokens in data["submissions"].items():
            out.append(f"  {p}: {' '.join(tokens)}")
    if "you" in data:
        you = data["you"]
        out.append(
            f"you ({you['participant']}): contract {' + '.join(you['contract']) or 'none'}; "
            f"this round {' '.join(you['submission']) or 'nothing submitted'}"
        )
    out.append("")
    out += _boards(data, view.is_host)
    if view.is_host:
        legend = _host_legend(data)
        if legend:
            out += ["", "Legend (host only):", *legend]
    return "\n".join(out)


def _host_legend(data: dict) -> list[str]:
    """Who owns what, for the host: nothing when nothing is owned or contracted yet."""
    out = []
    if data.get("contracts"):
        out.append("  contracts: " + "; ".join(f"{p} {'+'.join(c)}" for p, c in data["contracts"].items()))
    if data.get("light_owners"):
        owners: dict[str, list[str]] = {}
        for cell, p in data["light_owners"].items():
            owners.setdefault(p, []).append(cell)
        out.append("  lights:  " + "; ".join(f"{p} {' '.join(c)}" for p, c in owners.items()))
    if data.get("camera_owners"):
        owners = {}
        for entry in data["camera_owners"]:
            owners.setdefault(entry["participant"], []).append(entry["centre"])
        out.append("  cameras: " + "; ".join(f"{p} {' '.join(c)}" for p, c in owners.items()))
    if data.get("actions"):
        out.append("  actions: " + "; ".join(f"{c} {'+'.join(who)}" for c, who in data["actions"].items()))
    return out


def reveals_text(data: dict, view: View) -> str:
    """The announcements round by round (the brightness map is drawn on the board
    below, not listed), the boards as they stand, then the outcome."""
    rounds = []
    board: dict = {"studio": data["studio"]}
    for entry in data["rounds"]:
        board.update(entry["public"])
        notices = private_notices(entry.get("private"), view, keyed=False)
        rounds.append(
            reveal_lines(
                f"Round {entry['round']}",
                notice_words(entry["public"], skip=("brightness",)),
                [(who, notice_words(notice)) for who, notice in notices],
                shows_private=not view.is_public,
            )
        )
    if data["rounds"]:
        rounds.append(_boards(board, False))
    outcome = outcome_lines(data["outcome"]) if "outcome" in data else None
    return reveals_text_of(rounds, outcome)


def outcome_text(data: dict) -> str:
    return "\n".join(outcome_lines(data))


def text(model: str, data: dict, view: View) -> str | None:
    if model == "status":
        return status_text(data, view)
    if model == "reveals":
        return reveals_text(data, view)
    if model == "outcome":
        return outcome_text(data)
    return None
