"""The picture of a match in one view: a title line, the board or table with its legend,
and the side panels, drawn by the game's ``picture`` module (:mod:`.games`), or for a
game without one by the generic picture (:mod:`.generic_picture`).  A picture
is drawn only from the read models of the chosen view, so a public picture can show
nothing the public read models do not hold.  :func:`read_models` is the one place that
looks at a state, and it only asks the game for its read models in that view.
"""

from __future__ import annotations

from types import ModuleType

from ..read_models import read_view
from . import generic_picture
from .games import presentation_module
from .panels import Panel, draw_panels, panels_size
from .svg import Canvas, attrs, text_width
from .wording import game_title

GAP = 24


def pictures_of(game: str) -> ModuleType:
    """``game``'s picture module: its own, else the generic one."""
    return presentation_module(game, "picture") or generic_picture


def read_models(game, state, view) -> dict:
    """The read models of ``view`` (and nothing else): what every picture is built from."""
    pictures_of(state.game)
    return read_view(state, view, game=game).as_dict()


def named(models: dict) -> str:
    """The match and the game's title, as the pages head them: ``m1 (Lights, Camera, Action!)``."""
    return f"{models['match']} ({game_title(models['game'])})"


def title(models: dict) -> str:
    return (
        f"{named(models)} — {pictures_of(models['game']).headline(models)} — "
        f"view: {models['view']['label']} — as of seq {models['seq']}"
    )


def _embed(outer: Canvas, inner: Canvas, x: int, y: int, **extra) -> None:
    outer.items.append(f"<g {attrs(transform=f'translate({x},{y})', **extra)}>")
    outer.items.extend(inner.items)
    outer.items.append("</g>")


def _legend_items(items: list[tuple[str, str]], x: int, y: int, width: int) -> list[tuple[str, str, int, int]]:
    """Legend entries placed left to right, wrapping at ``width``."""
    placed = []
    cx = x
    for label, colour in items:
        step = 16 + text_width(label, 11) + 12
        if cx > x and cx + step > x + width:
            cx, y = x, y + 18
        placed.append((label, colour, cx, y))
        cx += step
    return placed


def _legend(canvas: Canvas, placed: list[tuple[str, str, int, int]]) -> None:
    canvas.open_group(id="legend")
    for label, colour, cx, y in placed:
        canvas.rect(cx, y - 10, 12, 12, colour, stroke="#888888", stroke_width=1)
        canvas.text(cx + 16, y, label, size=11)
    canvas.close_group()


def board_svg(models: dict) -> str:
    """The board or table alone (what the replay page flips through)."""
    module = pictures_of(models["game"])
    inner = module.board(models)
    canvas = Canvas(inner.width + 20, inner.height + 20)
    _embed(canvas, inner, 10, 10, id="board")
    return canvas.render(f"{named(models)} — view: {models['view']['label']}")


def board_legend(models: dict) -> list[tuple[str, str]]:
    """What each colour of the board stands for, as (label, colour): the legend the
    picture draws under the board, for a page that shows the board alone."""
    return pictures_of(models["game"]).legend(models)


def side_panels(models: dict) -> list[Panel]:
    return pictures_of(models["game"]).panels(models)


def picture_svg(models: dict) -> str:
    """The whole picture: a title line, the board with its legend, and the panels
    (round, reveals, scores, outcome) beside it."""
    module = pictures_of(models["game"])
    inner = module.board(models)
    side = side_panels(models)
    side_w, side_h = panels_size(side)
    heading = title(models)
    top = 34
    placed = _legend_items(module.legend(models), 14, top + inner.height + 20, max(inner.width, 200))
    board_h = placed[-1][3] - top + 10 if placed else inner.height
    width = max(max(inner.width, 200) + GAP + side_w + 20, text_width(heading, 14) + 20)
    height = top + max(board_h, side_h) + 20
    canvas = Canvas(width, height)
    canvas.text(10, 22, heading, size=14, weight="bold", id="headline")
    _embed(canvas, inner, 10, top, id="board")
    _legend(canvas, placed)
    canvas.open_group(id="panels")
    draw_panels(canvas, side, max(inner.width, 200) + GAP + 10, top - 6)
    canvas.close_group()
    return canvas.render(heading)
