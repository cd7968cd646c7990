"""The repository is self-contained: its code, tests and docs cite its own files (the
rules in engine/<game>/rules.md, the design in docs/design.md), never a folder beside
it that a clone or an unpacked sdist does not have."""

from __future__ import annotations

import re

import pytest

from . import trace

# What once pointed outside: the shared folder of the project's first sessions (its
# rules, its seed cards, its design brief), by a relative or an absolute path.
# The shared rules' file names were cited from that folder as `rules/NAME.md` too.
OUTSIDE = re.compile(
    r"\.\./shared\b|/shared/(?:rules|seeds)\b|\bshared/rules\b|\.\./seeds/|\bDESIGN\.md\b"
    r"|\brules/(?:lights-camera-action|parallel-worlds|photographer)\.md\b"
)

#: Files still citing outside the repository, each to be reworded (empty: a file listed
#: here that no longer cites outside fails the test below, so the list cannot go stale).
AWAITING: set[str] = set()

_TEXT = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".in", ".html", ".js", ".css", ".json", ".sh"}
_NOT_OURS = {"build", "dist", "node_modules", "__pycache__", "venv", "site-packages"}


def _our_text_files():
    for path in sorted(trace.REPO.rglob("*")):
        parts = path.relative_to(trace.REPO).parts
        if any(p in _NOT_OURS or p.endswith(".egg-info") or p.startswith(".") and p != ".ci" for p in parts[:-1]):
            continue  # a build's output, a cache, a virtual environment, the git folder
        if path.is_file() and (path.suffix in _TEXT or parts == (".ci", "run")):
            yield path


def _citations_outside() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in _our_text_files():
        if path == trace.REPO / "tests" / "traceability" / "test_self_contained.py":
            continue  # its own pattern
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.setdefault(path.relative_to(trace.REPO).as_posix(), []).append(f"{number}: {line.strip()}")
    return found


@pytest.fixture(scope="module")
def citations_outside():
    return _citations_outside()


def test_no_file_cites_a_folder_outside_the_repository(citations_outside):
    outside = {name: lines for name, lines in citations_outside.items() if name not in AWAITING}
    assert not outside, "cite docs/design.md or engine/<game>/rules.md instead:\n" + "\n".join(
        f"{name}:{line}" for name, lines in outside.items() for line in lines
    )


def test_a_file_awaiting_its_citations_still_has_some(citations_outside):
    mended = sorted(AWAITING - set(citations_outside))
    assert not mended, f"these files cite only the repository now: remove them from AWAITING: {mended}"


def test_the_pattern_finds_each_way_of_citing_outside():
    cited = [
        "rules: ../shared/rules/photographer.md",
        "Written from /work/shared/rules/parallel-worlds.md alone",
        "Rules: shared/rules/photographer.md (rulings P1-P9)",
        "Source: `../seeds/000_ce7f391eecb9863d.txt`",
        '(DESIGN.md, "Store")',
        "the ``lca`` game engine (rules: rules/lights-camera-action.md)",
    ]
    own = ['(docs/design.md, "Store")', "engine/pw/rules.md", "a shared lock", "docs/rules.md"]
    assert [bool(OUTSIDE.search(line)) for line in cited + own] == [True] * len(cited) + [False] * len(own)
