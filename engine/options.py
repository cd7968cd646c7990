"""Ruleset options: how each game declares them and how their text is read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def parse_bool(text: str) -> bool:
    lowered = str(text).strip().lower()
    if lowered in ("true", "yes", "1", "on"):
        return True
    if lowered in ("false", "no", "0", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def parse_int(text: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise ValueError(f"expected a whole number, got {text!r}") from None


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    parse: Callable[[str], Any]
    help: str = ""
    # The last round whose resolution reads this option (None: any round may).  An
    # amendment taking effect after it could change nothing, so it is refused.
    last_round_used: int | None = None
    # Why the option can never be amended (None: it can), e.g. it shaped the set-up.
    fixed_because: str | None = None

    def text(self, value: Any) -> str:
        """The text ``parse`` reads back as ``value`` (how a host would have typed it):
        a recorded value is checked by parsing this text again, as `new` and `amend`
        parse what a host types."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, dict):  # a table such as photographer's row_points
            return ",".join(f"{key}:{points}" for key, points in value.items())
        return str(value)
