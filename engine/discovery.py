"""Finding the installed games: the entry points of the group ``matchledger.games``.

``importlib.metadata`` would do this, but importing it and scanning every installed
distribution costs tens of milliseconds, and every command pays start-up (a host types
many in a row).  The entry points of a distribution are one small INI file,
``entry_points.txt``, in its ``.dist-info`` (or ``.egg-info``) folder on ``sys.path``;
this reads only those files, and only their ``[matchledger.games]`` section.

As with imports, the first distribution on ``sys.path`` of a given name wins (an
installed copy shadowed by a later one is not read); a game name declared by two
distributions is taken from the first.
"""

from __future__ import annotations

import os
import re
import sys

GROUP = "matchledger.games"
_SECTION = f"[{GROUP}]"
#: ``name-1.2.3.dist-info`` -> the distribution's normalized name.
_DIST_FOLDER = re.compile(r"(?P<name>.+?)(?:-[^-]*)?\.(?:dist|egg)-info\Z")


def game_entry_points() -> dict[str, str]:
    """{game name: "module:attribute"} of every installed game, in ``sys.path`` order,
    and within a distribution in the order its entry points are listed."""
    found: dict[str, str] = {}
    seen: set[str] = set()
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))  # sorted: the same order on every file system
        except OSError:  # not a folder (a zip, a missing path)
            continue
        for folder in names:
            if not folder.endswith("-info"):  # most names are not: the pattern only for the rest
                continue
            matched = _DIST_FOLDER.match(folder)
            if matched is None:
                continue
            dist = re.sub(r"[-_.]+", "-", matched["name"]).lower()
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(os.path.join(entry or ".", folder, "entry_points.txt"), encoding="utf-8") as file:
                    text = file.read()
            except (OSError, UnicodeDecodeError):  # unreadable, or not UTF-8: declares no game we could read
                continue
            if _SECTION in text:
                for name, target in _section(text):
                    found.setdefault(name, target)
    return found


def _section(text: str) -> list[tuple[str, str]]:
    """The ``name = target`` lines of the ``[matchledger.games]`` section of an
    entry_points.txt (INI: ``#`` and ``;`` comments, blank lines)."""
    entries = []
    inside = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            inside = line == _SECTION
            continue
        if inside and "=" in line:
            name, _, target = line.partition("=")
            entries.append((name.strip(), target.strip().partition(" ")[0]))  # no [extras]
    return entries
