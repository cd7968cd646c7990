"""Фотограф as a picture: the table (face-down cards as colour + range, or the value
where the view knows it), every player's film rows, and hands where the view holds
them."""

from __future__ import annotations

import re

from matchledger.projections.presentation.panels import Panel, fmt, outcome_panels, scores_panel
from matchledger.projections.presentation.svg import INK, MUTED, Canvas
from matchledger.projections.presentation.wording import ending

COLOURS = {
    "blue": "#2f6fd0",
    "red": "#d03a2f",
    "yellow": "#e0b400",
    "green": "#2f9e44",
    "brown": "#8b5a2b",
    "grey": "#808080",
    "purple": "#7b3fb0",
}
CARD_W, CARD_H = 42, 58
SMALL_W, SMALL_H = 30, 40
GAP = 6
LEFT = 12
SCORE_KEYS = ["rows", "blurred", "missing", "good_shots"]

_CARD_RE = re.compile(r"([a-z]+)-(?:(\d+)|\[([0-9-]+)\])\Z")


def parse(card: str) -> tuple[str, str, bool]:
    """``red-7`` -> (red, '7', face up); ``red-[1-6]`` -> (red, '1-6', down);
    ``red-[4]`` -> (red, '[4]', down, value known to this view)."""
    match = _CARD_RE.match(str(card))
    if not match:
        return "", str(card), True
    colour, up, down = match.groups()
    if up is not None:
        return colour, up, True
    return colour, (down if "-" in down else f"[{down}]"), False


def draw_card(canvas: Canvas, x: int, y: int, card: str | None, w: int, h: int, size: int) -> None:
    if card is None:
        canvas.rect(
            x, y, w, h, "#ffffff", stroke="#bbbbbb", stroke_width=1, rx=4, stroke_dasharray="3 3", class_="card empty"
        )
        return
    colour, label, up = parse(card)
    fill = COLOURS.get(colour, "#cccccc")
    if up:
        canvas.rect(x, y, w, h, fill, stroke=INK, stroke_width=1, rx=4, class_="card up")
        canvas.text(
            x + w // 2, y + h // 2 + size // 2 - 1, label, size=size, fill="#ffffff", anchor="middle", weight="bold"
        )
    else:
        canvas.rect(x, y, w, h, fill, stroke=fill, stroke_width=2, rx=4, fill_opacity=0.35, class_="card down")
        canvas.text(x + w // 2, y + h // 2 + 4, label, size=max(size - 5, 9), fill=INK, anchor="middle")


def _section_title(canvas: Canvas, x: int, y: int, text: str) -> None:
    canvas.text(x, y, text, size=13, weight="bold", fill=INK)


def board(models: dict) -> Canvas:
    status = models["status"]
    table = status.get("table", [])
    players = status.get("players", [])
    hands = status.get("hands") or ({models["view"].get("participant"): status["hand"]} if "hand" in status else {})
    colours = list(status.get("good_shots", {}).keys()) or list(COLOURS)
    film_w = max([len(cards) for p in players for cards in p.get("film", {}).values()] + [5])
    width = max(
        LEFT + 4 * (CARD_W + GAP) + 120, LEFT + 70 + film_w * (SMALL_W + 3) + 10, LEFT + 70 + 12 * (SMALL_W + 3)
    )
    height = 24 + len(table) * (CARD_H + GAP) + 10
    height += len(players) * (24 + len(colours) * (SMALL_H + 4) + 10)
    height += (24 + SMALL_H + 20) * len(hands)
    canvas = Canvas(width, height)
    y = 18
    _section_title(
        canvas,
        LEFT,
        y,
        f"Table — deck {fmt(status.get('deck'))}" + (f", sunset {status['sunset']}" if status.get("sunset") else ""),
    )
    y += 8
    canvas.open_group(id="table")
    for r, row in enumerate(table):
        canvas.text(LEFT + 4 * (CARD_W + GAP) + 6, y + CARD_H // 2 + 4, f"row {r + 1}", size=11, fill=MUTED)
        for c, card in enumerate(row):
            draw_card(canvas, LEFT + c * (CARD_W + GAP), y, card, CARD_W, CARD_H, 18)
        y += CARD_H + GAP
    canvas.close_group()
    # the hands straight under the table: a turn is about both (take from a row, then
    # wind a card of the hand), so a form beside the board has both in sight; each card
    # carries its position, counted from 1 at the bottom as a wind names it (P4)
    for who, hand in hands.items():
        y += 16
        _section_title(canvas, LEFT, y, f"Hand of {who} (bottom first)")
        y += 8
        canvas.open_group(class_="hand", data_player=who)
        for i, card in enumerate(hand):
            draw_card(canvas, LEFT + 60 + i * (SMALL_W + 3), y, card, SMALL_W, SMALL_H, 13)
            canvas.text(
                LEFT + 60 + i * (SMALL_W + 3) + SMALL_W // 2,
                y + SMALL_H + 13,
                i + 1,
                size=11,
                fill=MUTED,
                anchor="middle",
                class_="position",
            )
        canvas.close_group()
        y += SMALL_H + 20
    y += 10
    for player in players:
        name = player.get("participant")
        shots = player.get("good_shots", [])
        title = f"Film of {name} (hand {player.get('hand_size')})" + (
            f" — successful shots: {', '.join(shots)}" if shots else ""
        )
        y += 16
        _section_title(canvas, LEFT, y, title)
        y += 8
        canvas.open_group(class_="film", data_player=name)
        for colour in colours:
            canvas.text(LEFT, y + SMALL_H // 2 + 4, colour, size=11, fill=MUTED)
            for i, card in enumerate(player.get("film", {}).get(colour, [])):
                draw_card(canvas, LEFT + 60 + i * (SMALL_W + 3), y, card, SMALL_W, SMALL_H, 13)
            y += SMALL_H + 4
        canvas.close_group()
        y += 10
    canvas.height = max(canvas.height, y + 4)
    return canvas


def headline(models: dict) -> str:
    status = models["status"]
    if status.get("phase") == "finished":
        return f"finished ({ending(status['end_reason'], models['game']) if status.get('end_reason') else 'over'})"
    return f"turn {status.get('turn')}, {status.get('to_play')} to play ({status.get('phase')} phase)"


def _turn_text(public: dict) -> str:
    parts = []
    take = public.get("take")
    if take:
        parts.append(
            f"took row {take.get('row')} {take.get('end')} x{take.get('count')}: {fmt(public.get('taken', []))}"
        )
    if public.get("shots"):
        parts.append(f"shot {fmt(public['shots'])}")
    if public.get("good_shots"):
        parts.append(f"successful {fmt(public['good_shots'])}")
    if public.get("refill"):
        parts.append(f"refill {fmt(public['refill'])}")
    if public.get("game_end"):
        parts.append(f"end: {ending(public['game_end'], 'photographer')}")
    return "; ".join(parts) or "-"


def panels(models: dict) -> list[Panel]:
    status = models["status"]
    kind = models["view"]["kind"]
    out = [
        Panel("Turn", None, [["phase", fmt(status.get("phase"))], ["to play", fmt(status.get("to_play"))]], key="round")
    ]
    turns = models["reveals"].get("turns", [])
    rows = []
    for entry in turns[-6:]:
        rows.append([f"turn {entry['turn']}", entry["participant"], _turn_text(entry.get("public", {}))])
        private = entry.get("private")
        if private:
            notice = private.get(entry["participant"], private) if kind == "host" else private
            if isinstance(notice, dict):
                rows.append(["", "privately", f"taken {fmt(notice.get('taken', []))}; wind {fmt(notice.get('wind'))}"])
    out.append(Panel("Last turns", None, rows or [["no turn yet"]], key="reveals"))
    score_rows = [
        {"participant": r["participant"], "points": r.get("points"), **r.get("scores", {})}
        for r in models["scores"].get("scores", [])
    ]
    out.append(scores_panel(score_rows, ["points", *SCORE_KEYS], models["game"]))
    out += outcome_panels(models["outcome"])
    if kind == "host" and status.get("deck_order") is not None:
        out.append(
            Panel(
                "Deck (top first)",
                None,
                [[fmt(status["deck_order"][:8]) + (" …" if len(status["deck_order"]) > 8 else "")]],
                key="deck",
            )
        )
    return out


def legend(models: dict) -> list[tuple[str, str]]:
    colours = list(models["status"].get("good_shots", {}).keys()) or list(COLOURS)
    return [(c, COLOURS.get(c, "#cccccc")) for c in colours]
