"""Logging, configured once per process: JSON lines on stderr with ``--log-json``, else
only warnings, for a person (and `serve`'s access lines: ``verbose``).  structlog (and the standard library's logging under it)
is imported on first use: a command that logs nothing should not pay for it."""

from __future__ import annotations

import sys

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
        processors = [structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso", utc=True)]
        processors.append(structlog.processors.JSONRenderer() if _json else structlog.dev.ConsoleRenderer(colors=False))
        structlog.configure(
            processors=processors,
            wrapper_class=structlog.make_filtering_bound_logger(logging.INFO if _json or _verbose else logging.WARNING),
            logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
            cache_logger_on_first_use=False,
        )
        _configured = True
    return structlog.get_logger("matchledger")
