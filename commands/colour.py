"""Colour where it helps a person read (a verdict, a finding, the word "Error"), and
nowhere else: never in JSON, never in a file, never where it was not asked for.

Whether colour is on is decided once per command line: `--color` or `--no-color`
decides; else `NO_COLOR` in the environment (whatever its value, even empty) turns it
off; else it is on exactly where the text goes to a terminal.  The root group hands the
decision to click as the context's ``color``, so `click.echo` strips the codes from
anything painted when colour is off; text is therefore painted with :func:`paint` and
printed with `click.echo` (or `commands/output.py::say`), never written to a stream
directly.

Paint text after it has been made printable (`presentation/printable.py`): escaping
turns the escape character itself into visible `\\x1b`.
"""

from __future__ import annotations

import io
import os
import re

import click

#: What each kind of text looks like when colour is on.
ROLES: dict[str, dict] = {
    "ok": {"fg": "green"},
    "finding": {"fg": "red", "bold": True},
    "error": {"fg": "red", "bold": True},
    "warning": {"fg": "yellow"},
    "heading": {"bold": True},
}

NO_COLOR = "NO_COLOR"

#: --color (True) or --no-color (False) of the command line being run; None: neither.
_flag: bool | None = None


def choose(flag: bool | None) -> None:
    """Record the command line's --color / --no-color (None: neither was given)."""
    global _flag
    _flag = flag


def wanted() -> bool | None:
    """True or False when colour is decided whatever the output; None when it is on
    exactly where the output is a terminal (click's own rule)."""
    if _flag is not None:
        return _flag
    if NO_COLOR in os.environ:
        return False
    return None


def paint(text: str, role: str) -> str:
    """``text`` in the colour of ``role`` (a key of :data:`ROLES`); `click.echo` removes
    the colour again where it is off."""
    return click.style(text, **ROLES[role])


_ERROR_PREFIX = re.compile(r"^Error:", re.MULTILINE)


def paint_errors_of(exc: click.ClickException) -> None:
    """Make ``exc`` show its "Error:" painted: what click prints, unchanged but for
    that one word."""
    show = exc.show

    def painted_show(file=None) -> None:
        text = io.StringIO()
        show(text)
        message = _ERROR_PREFIX.sub(lambda _m: paint("Error:", "error"), text.getvalue(), count=1)
        decided = wanted()
        click.echo(message, file=file, err=file is None, nl=False, color=decided)

    exc.show = painted_show  # type: ignore[method-assign]  # this one instance's, on purpose: it is re-raised
