"""A deadline as the engine checks it: UTC text, compared as text, with no clock.

The door reads "now", turns what the host typed into UTC (``projections.deadlines``) and
hands both in; the engine only checks their shape and that the deadline lies ahead.
Times of one shape compare as text in time order (``2026-12-05T18:00:00Z``).
"""

from __future__ import annotations

import re

from matchledger.ledger.errors import InvalidParameter

#: A deadline as recorded: UTC, to the second.
DEADLINE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
#: The time a door read (as ``recorded_at``): UTC, with a fraction of a second or none.
NOW = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})(\.[0-9]{1,6})?Z")
#: The longest period a schedule (``each``) may give: a year, far beyond any match.
LONGEST_SECONDS = 366 * 86_400


def check_ahead(at: str, now: str) -> str:
    """``at`` (a recorded deadline's shape) once it is shown later than ``now`` (to the
    second); refused, naming it, otherwise."""
    found_now = NOW.fullmatch(now) if isinstance(now, str) else None
    if found_now is None or not _on_the_calendar(found_now[1]):
        raise InvalidParameter("now", now, "is not a UTC time such as 2026-12-01T10:00:00Z")
    if not (isinstance(at, str) and DEADLINE.fullmatch(at) and _on_the_calendar(at[:-1])):
        raise InvalidParameter("at", at, "is not a UTC time such as 2026-12-05T18:00:00Z")
    second = found_now[1] + "Z"
    if at <= second:
        raise InvalidParameter("at", at, f"is not later than now ({second}); a deadline must lie ahead")
    return at


def _on_the_calendar(second: str) -> bool:
    """Whether ``YYYY-MM-DDTHH:MM:SS`` names a real second (no month 13, no hour 25, no
    30 February): the time a deadline is recorded at is the row's ``recorded_at``,
    which `verify` reads so.  Arithmetic only: the engine imports no clock module."""
    year, month, day = (int(part) for part in second[:10].split("-"))
    hour, minute, sec = (int(part) for part in second[11:].split(":"))
    return (
        1 <= year
        and 1 <= month <= 12
        and 1 <= day <= _days_in(year, month)
        and hour <= 23
        and minute <= 59
        and sec <= 59
    )


def _days_in(year: int, month: int) -> int:
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]


def check_period(each: int, parameter: str = "each") -> int:
    """``each`` seconds, a schedule's period (or a reminder's lead): more than none, at
    most a year."""
    if each.__class__ is not int or not 0 < each <= LONGEST_SECONDS:
        raise InvalidParameter(parameter, each, "must be a period longer than nothing and at most a year")
    return each
