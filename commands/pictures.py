"""Pictures: `render` (an SVG or PNG of the board/table in one view) and `report` (a
self-contained HTML replay page).  Both draw only from the chosen view's read models."""

from __future__ import annotations

from pathlib import Path

import click

from matchledger.projections.presentation.events import event_summary
from matchledger.projections.presentation.picture import picture_svg
from matchledger.projections.presentation.png import PNG_FONT, render_png
from matchledger.projections.presentation.report import Step, report_html
from matchledger.projections.presentation.wording import plural
from matchledger.projections.read_models import read_view

from .files import write_output
from .options import at_option, usage_error, view_options
from .output import say
from .session import app


def _suffix(output: str, allowed: tuple[str, ...]) -> str:
    suffix = Path(output).suffix.lower()
    if suffix not in allowed:
        raise usage_error(f"-o {output!r}: the file name must end in {' or '.join(allowed)}")
    return suffix


@click.command("render")
@click.argument("match_id", metavar="MATCH")
@view_options
@at_option
@click.option("-o", "--output", required=True, metavar="FILE.svg|FILE.png", help="Where to write the picture.")
def render_cmd(match_id, public, as_participant, at, output):
    """Draw the board or table as an SVG or PNG picture in one view.

    The host's view (default), the public's (--public) or one participant's (--as NAME).
    lca: the studio (walls, lights, brightness, camera blocks; actions and owners for
    the host). photographer: the table and every film row. pw: the per-round action
    totals (and, with --as, that participant's notices). A game without pictures of
    its own: its rounds, what each announced, the status, the scores and the outcome.
    A public picture shows only what the public read models hold.

    A PNG needs the system library libcairo (Debian/Ubuntu: apt-get install libcairo2);
    an SVG needs nothing.  The PNG's font (DejaVu Sans) has no CJK glyphs: a character
    it lacks is drawn as its escape (\\u674e) and named on stderr; the SVG shows it.

    \b
    Examples:
      matchledger render m1 --public -o board.svg
      matchledger render m3 --as ann --at 20 -o ann.png
    """
    suffix = _suffix(output, (".svg", ".png"))
    readings = app().query(match_id, public=public, participant=as_participant, at=at)
    svg = picture_svg(readings.as_dict())
    png = render_png(svg) if suffix == ".png" else None
    write_output(output, png.data if png else svg.encode("utf-8"))
    say(f"wrote {output} ({suffix[1:]}, {match_id} as of seq {readings.seq}, view: {readings.view.label()})", err=True)
    if png and png.escaped:
        them, are = ("it", "is") if len(png.escaped) == 1 else ("them", "are")
        say(
            f"note: {output} draws {' '.join(png.escaped)} as escapes (\\u…): its font, {PNG_FONT}, has no "
            f"glyph for {them}; write .svg to see {them} as {them} {are}",
            err=True,
        )


@click.command("report")
@click.argument("match_id", metavar="MATCH")
@view_options
@click.option("-o", "--output", required=True, metavar="FILE.html", help="Where to write the page.")
def report_cmd(match_id, public, as_participant, output):
    """Write a self-contained HTML page to step through the match event by event.

    The page needs no network: buttons, a slider or the arrow keys step through the
    board or table, the reveals, the scores and the outcome in the chosen view.  A public
    or participant page steps only through the events that view may know of (as `log`
    --public or --as lists them).  FILE.html#seq=N opens at event N.

    \b
    Examples:
      matchledger report m1 --public -o m1.html
      matchledger report m2 --as ann -o ann.html
    """
    _suffix(output, (".html", ".htm"))
    view, steps = app().history(match_id, public=public, participant=as_participant)
    frames = []
    for row, state, shown in steps:
        models = read_view(state, view).as_dict()
        frames.append(Step.of(row.seq, row.kind, event_summary(shown), models))
    html = report_html(match_id, state.game, view.label(), frames)
    write_output(output, html.encode("utf-8"))
    say(f"wrote {output} ({plural(len(frames), 'event')} of {match_id}, view: {view.label()})", err=True)
