"""``docs/architecture.md`` lists the application method for method: its table (section
"The application") names every public method and property of ``Application`` and
nothing else, and each of them says what it does (a docstring)."""

from __future__ import annotations

import inspect
import re

from matchledger.projections.application import Application
from tests.helpers import REPO

DOC = REPO / "docs" / "architecture.md"
#: A table row whose first cell is one method in backticks: `name(...)` or `name`.
_ROW = re.compile(r"^\|\s*`(?P<name>[A-Za-z_]\w*)[^`]*`\s*\|")


def documented() -> list[str]:
    """The methods the section's table lists, in its order."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The application", 1)[1].split("\n## ", 1)[0]
    return [match["name"] for line in section.splitlines() if (match := _ROW.match(line))]


def public() -> dict[str, object]:
    """Every public method and property the facade defines."""
    return {
        name: member
        for name, member in vars(Application).items()
        if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, (property, classmethod)))
    }


def test_the_table_lists_every_public_method_of_the_application_and_nothing_else():
    listed = documented()
    assert len(listed) == len(set(listed)), f"listed twice: {sorted({n for n in listed if listed.count(n) > 1})}"
    offered = set(public())
    assert sorted(offered - set(listed)) == [], "public methods docs/architecture.md does not list"
    assert sorted(set(listed) - offered) == [], "methods docs/architecture.md lists that the application lacks"


def test_every_public_method_says_what_it_does():
    def doc(member) -> str | None:
        if isinstance(member, property):
            return member.fget.__doc__
        if isinstance(member, classmethod):
            return member.__func__.__doc__
        return member.__doc__

    assert [name for name, member in public().items() if not (doc(member) or "").strip()] == []


def test_the_table_is_read_as_a_table():
    """The parser finds the rows it must (a parser that finds none would pass anything)."""
    listed = documented()
    assert {"execute", "query", "log", "submit_through_links", "open", "location"} <= set(listed)
