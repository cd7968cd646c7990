"""Logging, configured once per process: JSON lines on stderr with ``--log-json``, else
only warnings, for a person (and `serve`'s access lines: ``verbose``).  structlog (and the standard library's logging under it)
is imported on first use: a command that logs nothing should not pay for it.

`serve` logs a line per request, so a line's making is kept cheap: msgspec writes the
JSON, and the timestamp's date and time are formatted once a second."""

from __future__ import annotations

import functools
import json
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # structlog is imported on first use (above)
    from structlog.typing import EventDict, Processor, WrappedLogger

_json: bool = False
_verbose: bool = False
_configured = False


def configure(log_json: bool, verbose: bool = False) -> None:
    global _json, _verbose, _configured
    _json, _verbose, _configured = log_json, verbose, False


def wants_json() -> bool:
    return _json


def log():
    global _configured
    import logging

    import structlog

    if not _configured:
        processors: list[Processor] = [structlog.processors.add_log_level, timestamp]
        if _json:
            processors.append(structlog.processors.JSONRenderer(json_line))
        else:
            processors += [printable_values, structlog.dev.ConsoleRenderer(colors=False)]
        structlog.configure(
            processors=processors,
            wrapper_class=structlog.make_filtering_bound_logger(logging.INFO if _json or _verbose else logging.WARNING),
            logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
            cache_logger_on_first_use=False,
        )
        _configured = True
    return structlog.get_logger("matchledger")


_second: int | None = None
_second_text = ""


def timestamp(_logger: WrappedLogger, _name: str, event_dict: EventDict) -> EventDict:
    """``timestamp``: UTC, ISO 8601 to the microsecond (``2026-12-01T09:30:00.000000Z``)."""
    global _second, _second_text
    now = time.time()
    second = int(now)
    if second != _second:
        _second, _second_text = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    event_dict["timestamp"] = f"{_second_text}.{int((now - second) * 1_000_000):06d}Z"
    return event_dict


def json_line(event_dict: EventDict, **_options: Any) -> str:
    """The record as one line of JSON, in ASCII: a value's control or direction-changing
    characters (a hostile request's path) reach a terminal escaped, never raw."""
    try:
        line = _encoder().encode(event_dict)
    except (TypeError, ValueError):  # a value msgspec does not know: the standard library's repr fallback
        line = None
    if line is not None and line.isascii() and b"\x7f" not in line:  # msgspec leaves DEL as it is
        return line.decode("ascii")
    return json.dumps(event_dict, default=repr, separators=(",", ":"))


def printable_values(_logger: WrappedLogger, _name: str, event_dict: EventDict) -> EventDict:
    """Every text in the record with its unprintable characters escaped: the console
    writes text as it is, and a hostile request's path may hold a terminal's control
    sequences."""
    from matchledger.projections.presentation.printable import printable_data

    return printable_data(event_dict)


@functools.cache
def _encoder():
    import msgspec  # here, not at start-up: `--help` and commands that log nothing never need it

    return msgspec.json.Encoder()
