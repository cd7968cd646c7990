"""`deadline`: when the open round (or turn) must be in, and the schedule of later ones.

The command line is a door: it reads the time now (the application's clock), turns
``+2d`` into an absolute UTC time and hands both to the engine, which records them.
"""

from __future__ import annotations

import click

from .options import write_options
from .output import report_written
from .session import app


@click.command("deadline")
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--at",
    "at",
    metavar="TIME",
    help="The open round's (or turn's) deadline: ISO 8601 with a zone (2026-12-05T18:00Z, "
    "2026-12-05T20:00+02:00), or from now: +2d, +36h, +90m.  Setting it again moves it.",
)
@click.option(
    "--each",
    metavar="PERIOD",
    help="Every later round (or turn) gets a deadline this long after it opens: 48h, 2d, 90m.",
)
@click.option(
    "--remind",
    metavar="PERIOD",
    help="Post a reminder this long before each deadline (this one and later ones) to the hooks "
    "that ask for one (hook add --on reminder), from a running serve: 6h, 1d, 30m.",
)
@click.option("--reason", default="", help="Why (kept in the log, shown with the deadline).")
@click.option("--clear", is_flag=True, help="Take the open round's deadline away, and stop --each and --remind.")
@write_options
def deadline_cmd(match_id, at, each, remind, reason, clear, as_json):
    """Set or move the open round's deadline, or one for every later round.

    The open round's (or turn's) deadline is set with --at (again: moved); with --each,
    every later round gets one that long after it opens (from the recorded times); with
    --remind, a running serve posts a reminder that long before each deadline.

    Deadlines are public.  After one, a participant's link refuses submissions; the host
    can still record one with `submit`, and `log` and `audit` mark it late.

    \b
    Examples:
      matchledger deadline m1 --at 2026-12-05T18:00Z --reason "Main Match, round 1"
      matchledger deadline m1 --at +2d --each 48h
      matchledger deadline m1 --at +2d --each 48h --remind 6h
      matchledger deadline m1 --clear --reason "paused for the holidays"
    """
    from matchledger.engine.commands import ClearDeadline, SetDeadline
    from matchledger.projections import deadlines

    if clear:
        if at is not None or each is not None or remind is not None:
            raise click.UsageError("--clear takes neither --at, --each nor --remind")
        command: ClearDeadline | SetDeadline = ClearDeadline(reason)
    else:
        if at is None and each is None and remind is None:
            raise click.UsageError("give --at TIME, --each PERIOD, --remind PERIOD (or several), or --clear")
        application = app(write=True)
        now = application.clock()
        command = SetDeadline(
            now,
            None if at is None else deadlines.resolve(at, now),
            None if each is None else deadlines.parse_period(each),
            reason,
            None if remind is None else deadlines.parse_period(remind, "remind"),
        )
    rows = app(write=True).execute(match_id, command)
    report_written(match_id, rows, as_json)
