"""The picture of a game that has no ``picture`` module of its own (:mod:`.games`): the
view's read models as they are, drawn the same way for every game.

The board is a track of the rounds (announced, open, still to come) above the public
announcement of each announced round and the status; the side panels are the scores,
what the view was told privately of the last announced round, and the outcome.  Like a
game's own picture, it is drawn from the chosen view's read models alone, so it shows
nothing that view's read models do not hold; and as it knows no game, it reads only
the shapes every game's read models share (a ``rounds`` list of entries with a
``round``, a ``public`` and a ``private`` part; ``standings`` in the outcome), showing
anything else as generic key/value rows.
"""

from __future__ import annotations

from .panels import Panel, draw_panels, fmt, outcome_panels, pairs_text, panels_size
from .svg import MUTED, Canvas, text_width

#: More rounds than this are not drawn as a track (the panels still list them).
MAX_TRACK = 24
STEP = 40
RADIUS = 13
TRACK_TOP = 34
ANNOUNCED = "#3f6fb5"
OPEN = "#ffffff"
TO_COME = "#eeeeee"
#: A value longer than this is cut in a panel (the read commands show it whole).
MAX_CELL = 90


def _cell(value) -> str:
    text = value if isinstance(value, str) else fmt(value)
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def _entries(reveals) -> list[dict]:
    """The announced rounds of a reveals read model, each a dict with its ``round``."""
    rounds = reveals.get("rounds") if isinstance(reveals, dict) else None
    if not isinstance(rounds, list):
        return []
    return [entry for entry in rounds if isinstance(entry, dict) and isinstance(entry.get("round"), int)]


def _word(status: dict) -> str:
    return "turn" if "turn" in status and "round" not in status else "round"


def _current(status: dict) -> int | None:
    value = status.get(_word(status))
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _finished(models: dict) -> bool:
    return bool((models.get("outcome") or {}).get("finished") or models["status"].get("finished"))


def _track(models: dict) -> tuple[list[int], set[int], int | None]:
    """The rounds the track shows, those announced, and the open one (None: none)."""
    status = models["status"]
    announced = {entry["round"] for entry in _entries(models["reveals"])}
    current = None if _finished(models) else _current(status)
    total = status.get(f"{_word(status)}s")
    last = max([*announced, current or 0, total if isinstance(total, int) and not isinstance(total, bool) else 0])
    if not 1 <= last <= MAX_TRACK:
        return [], announced, current
    return list(range(1, last + 1)), announced, current


def data_rows(data) -> tuple[list[str] | None, list[list[str]]]:
    """Any read-model value as a panel's header and rows: a mapping of mappings as a
    table (one row per inner key, one column per outer key), a list of flat records as
    a table, anything else as key/value rows."""
    if (
        isinstance(data, dict)
        and data
        and all(isinstance(v, dict) and v for v in data.values())
        and all(not isinstance(x, (dict, list)) for v in data.values() for x in v.values())
    ):
        keys: list[str] = []
        for inner in data.values():
            keys += [k for k in inner if k not in keys]
        return ["", *data], [[_cell(k), *(_cell(inner.get(k)) for inner in data.values())] for k in keys]
    if isinstance(data, dict) and len(data) == 1:
        (only,) = data.values()
        if (
            isinstance(only, list)
            and only
            and all(isinstance(r, dict) and all(not isinstance(x, (dict, list)) for x in r.values()) for r in only)
        ):
            columns: list[str] = []
            for row in only:
                columns += [k for k in row if k not in columns]
            return columns, [[_cell(row.get(c)) for c in columns] for row in only]
    if isinstance(data, dict):
        return None, [[str(k).replace("_", " "), _cell(v)] for k, v in data.items()]
    if isinstance(data, list):
        return None, [[_cell(item)] for item in data]
    return None, [[_cell(data)]]


def data_panel(title: str, data, key: str, empty: str) -> Panel:
    if isinstance(data, dict) and all(v in ({}, [], None) for v in data.values()):
        return Panel(title, None, [[empty]], key=key)  # nothing in it in this view
    header, rows = data_rows(data)
    return Panel(title, header, rows or [[empty]], key=key)


def _announced_panel(models: dict) -> Panel:
    entries = _entries(models["reveals"])
    word = _word(models["status"])
    if entries:
        rows = [
            [
                f"{word} {e['round']}",
                _cell(pairs_text(e["public"]) if isinstance(e.get("public"), dict) else e.get("public")),
            ]
            for e in entries
        ]
        return Panel("Announced", None, rows, key="reveals")
    if _holds_anything(models["reveals"]):
        return data_panel("Announced", models["reveals"], "reveals", "nothing yet")
    return Panel("Announced", None, [["nothing yet"]], key="reveals")


def _holds_anything(reveals) -> bool:
    """Whether a reveals read model holds something other than an empty ``rounds``."""
    return isinstance(reveals, dict) and any(v not in ([], {}, None) for v in reveals.values())


def board(models: dict) -> Canvas:
    rounds, announced, current = _track(models)
    word = _word(models["status"])
    inner = [_announced_panel(models), data_panel("Status", models["status"], "status", "nothing to say")]
    panels_w, panels_h = panels_size(inner)
    track_w = 2 * RADIUS + STEP * (len(rounds) - 1) if rounds else 0
    top = TRACK_TOP + RADIUS + 12 if rounds else 0
    canvas = Canvas(max(panels_w, track_w, text_width(f"{word}s", 12)) + 24, top + panels_h + 12)
    if rounds:
        canvas.text(12, 14, f"{word}s", size=12, fill=MUTED, weight="bold")
        canvas.open_group(id="track")
        for index, number in enumerate(rounds):
            x = 12 + RADIUS + index * STEP
            if index:
                canvas.line(x - STEP + RADIUS, TRACK_TOP, x - RADIUS, TRACK_TOP, stroke="#cccccc", stroke_width=2)
            if number in announced:
                fill, ink, state = ANNOUNCED, "#ffffff", "announced"
            elif number == current:
                fill, ink, state = OPEN, ANNOUNCED, "open"
            else:
                fill, ink, state = TO_COME, MUTED, "to-come"
            canvas.circle(
                x,
                TRACK_TOP,
                RADIUS,
                fill,
                stroke=ANNOUNCED if state != "to-come" else "#cccccc",
                stroke_width=2,
                class_=state,
                data_round=number,
            )
            canvas.text(x, TRACK_TOP + 4, number, size=12, fill=ink, anchor="middle", weight="bold")
        canvas.close_group()
    draw_panels(canvas, inner, 12, top)
    return canvas


def headline(models: dict) -> str:
    if _finished(models):
        return "finished"
    status = models["status"]
    word, current = _word(status), _current(status)
    if current is None:
        return "in play"
    total = status.get(f"{word}s")
    return f"{word} {current}" + (f" of {total}" if isinstance(total, int) and not isinstance(total, bool) else "")


def _told_panel(models: dict) -> Panel | None:
    """What the view was told privately of the last announced round (the host: what
    each participant was told)."""
    entries = [e for e in _entries(models["reveals"]) if e.get("private")]
    if not entries:
        return None
    last = entries[-1]
    word = _word(models["status"])
    private = last["private"]
    if (
        models["view"]["kind"] == "host"
        and isinstance(private, dict)
        and all(isinstance(v, dict) for v in private.values())
    ):
        rows = [[str(who), _cell(pairs_text(told))] for who, told in private.items()]
        return Panel(f"Told privately, {word} {last['round']}", None, rows, key="private")
    title = (
        f"Told you, {word} {last['round']}"
        if models["view"]["kind"] == "participant"
        else f"Told privately, {word} {last['round']}"
    )
    return data_panel(title, private, "private", "nothing")


def panels(models: dict) -> list[Panel]:
    out = [data_panel("Scores", models["scores"], "scores", "none known in this view yet")]
    told = _told_panel(models)
    if told is not None:
        out.append(told)
    out += outcome_panels(models.get("outcome") or {})
    return out


def legend(models: dict) -> list[tuple[str, str]]:
    """The states the track shows, in its order."""
    rounds, announced, current = _track(models)
    shown = {"announced" if n in announced else "open" if n == current else "to come" for n in rounds}
    return [
        (label, colour)
        for label, colour in (("announced", ANNOUNCED), ("open", OPEN), ("to come", TO_COME))
        if label in shown
    ]
