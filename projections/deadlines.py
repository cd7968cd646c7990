"""Times as the doors read deadlines: what a host types, made UTC, and the arithmetic of
periods and lateness on recorded times.

Every function here is a pure function of the text it is given (no clock: the door reads
"now" and hands it in).  Deadlines are recorded UTC, ``YYYY-MM-DDTHH:MM:SSZ``; the
envelope's ``recorded_at`` has microseconds too: both are read here alike.  The engine
checks what it records without ``datetime`` (``engine/deadlines.py``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from matchledger.engine.deadlines import LONGEST_SECONDS
from matchledger.ledger.errors import InvalidParameter

#: ``+2d``, ``+36h``, ``+90m``: a time from now, as a host types it.
_RELATIVE = re.compile(r"\+([0-9]{1,6})([dhm])")
#: ``48h``, ``2d``, ``90m``: a period (``--each``).
_PERIOD = re.compile(r"([0-9]{1,6})([dhm])")
_UNIT_SECONDS = {"d": 86_400, "h": 3_600, "m": 60}
#: The longest time text read (an ISO 8601 time with a zone is well within it).
TIME_MAX_LENGTH = 40


def parse_time(text: str, parameter: str = "at") -> datetime:
    """The time ``text`` names: ISO 8601 with a zone (``Z`` or ``+02:00``); a time
    without a zone is refused, since nobody could say which one was meant."""
    if not isinstance(text, str) or len(text) > TIME_MAX_LENGTH or not text.isprintable():
        raise InvalidParameter(parameter, text, "is not a time", shown=repr(str(text)[:TIME_MAX_LENGTH]))
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidParameter(
            parameter, text, "is not an ISO 8601 time with a zone (e.g. 2026-12-05T18:00Z or 2026-12-05T20:00+02:00)"
        ) from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidParameter(parameter, text, "has no time zone; add one (Z for UTC, or an offset such as +02:00)")
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:00-12:00 names a time in year 10000
        raise InvalidParameter(parameter, text, "lies outside the years 1 to 9999 once made UTC") from None


def written(moment: datetime) -> str:
    """``moment`` as a deadline records it: UTC, to the second."""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_period(text: str, parameter: str = "each") -> int:
    """The seconds a period such as ``48h``, ``2d`` or ``90m`` names (more than none, at
    most a year)."""
    found = _PERIOD.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise InvalidParameter(parameter, text, "is not a period such as 48h, 2d or 90m")
    seconds = int(found[1]) * _UNIT_SECONDS[found[2]]
    if not 0 < seconds <= LONGEST_SECONDS:
        raise InvalidParameter(parameter, text, "must be longer than nothing and at most a year")
    return seconds


def resolve(text: str, now: str, parameter: str = "at") -> str:
    """The deadline ``text`` names, in UTC as recorded: an absolute time with a zone,
    later than ``now``, or one relative to ``now`` (``+2d``, ``+36h``, ``+90m``)."""
    relative = _RELATIVE.fullmatch(text) if isinstance(text, str) else None
    if relative is not None:
        seconds = int(relative[1]) * _UNIT_SECONDS[relative[2]]
        if not 0 < seconds <= LONGEST_SECONDS:
            raise InvalidParameter(parameter, text, "must be later than now and at most a year ahead")
        return written(parse_time(now, "now") + timedelta(seconds=seconds))
    moment = parse_time(text, parameter)
    if moment.replace(microsecond=0) <= parse_time(now, "now").replace(microsecond=0):
        raise InvalidParameter(
            parameter, text, f"is not later than now ({written(parse_time(now, 'now'))}); a deadline must lie ahead"
        )
    return written(moment)


def after(now: str, seconds: int) -> str:
    """The deadline ``seconds`` after ``now`` (a round's, under ``--each``)."""
    return written(parse_time(now, "now") + timedelta(seconds=seconds))


def before(deadline: str, seconds: int) -> str:
    """The time ``seconds`` before ``deadline`` (a reminder's, under ``--remind``)."""
    return written(parse_time(deadline, "deadline") - timedelta(seconds=seconds))


def is_past(deadline: str, now: str) -> bool:
    """Whether ``now`` is later than ``deadline``: a submission recorded then is late."""
    return parse_time(now, "now") > parse_time(deadline, "deadline")


def with_passed(status: dict, now: str) -> dict:
    """``status`` (a `status` read model) saying that its deadline has passed at ``now``
    (``"passed": true`` in ``deadline``; a deadline ahead reads as before): a door that
    reads the clock tells the host the round stays open past it (pw; no `serve` running)."""
    deadline = status.get("deadline")
    if not isinstance(deadline, dict) or not deadline.get("at") or not is_past(deadline["at"], now):
        return status
    return {**status, "deadline": {**deadline, "passed": True}}


def period_text(seconds: int) -> str:
    """``seconds`` as a host types a period: ``2d``, ``36h``, ``90m``."""
    for unit in ("d", "h", "m"):
        if seconds % _UNIT_SECONDS[unit] == 0:
            return f"{seconds // _UNIT_SECONDS[unit]}{unit}"
    return f"{seconds}s"
