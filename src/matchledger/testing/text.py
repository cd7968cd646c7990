"""The snapshot text of a history, meant to be read top to bottom and reviewed in a pull
request.

After the title and what `verify` finds, a section a step holds what the step changed,
as ``path: value`` lines (:mod:`.paths`): what a view shows differently from the step
before, so a studio map or a past round is written once, where it first appears, and a
correction is a few lines where it lands.  A line that changed the same way in several
views is written once, under all of them (``views host, public``; a participant's own
news under ``view ann``).  Last, the log, an event a line with a digest of what it
records, so a log that moved shows apart from a replay that changed::

    match amend5, game lca
    verify: []
    round 1 (seq 6), views host, public
      reveals.rounds[*].round: [1]
      …
    round 1 (seq 6), view host
      scores.scores[*].participant: ["ann", "bob", "cat", "dan", "eve"]
      scores.scores[participant=ann]: {"lights": 60, "total": 60}
    round 2 (seq 10), views ann, bob, cat, dan, eve
      knowledge.announcements[round=2].public: {"cameras": ["E5", "F5", "B12", "B12", "E12", "E12"]}
    round 2 (seq 10), views dan, eve
      knowledge.announcements[round=2].private: {"camera_score": 24}
    …
    log: 17 events (checkpoints aside)
      1 MatchCreated 4c908f18
      …
      17 OutcomeAnnounced 2d971bda

:func:`parse` reads a text back into its sections (the findings compare them), and
reads the texts earlier versions wrote too: a section a view, ``(removed)`` written for
every line a path replaced, and no log.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .history import History, LogEntry
from .paths import (  # noqa: F401 (the names this module has always offered)
    PATH,
    RECORD_KEYS,
    REMOVED,
    apply,
    changes,
    flatten,
    is_flat,
    is_leaf,
    is_scalar,
    record_key,
    segment,
    value_text,
)

INDENT = "  "
VIEWS_SEPARATOR = ", "
#: The end of the header of a step that changes nothing any view shows.
UNCHANGED = ": no view shows anything new"
LOG_NOTE = " (checkpoints aside)"

_ENTRY = re.compile(rf"{INDENT}({PATH}): (.*)")
_HEADER = re.compile(rf"(.+?) \(seq (\d+)\)(?:, views? (.+)|{UNCHANGED})")
_LOG = re.compile(rf"log: (\d+) events?{re.escape(LOG_NOTE)}")
_LOG_ENTRY = re.compile(rf"{INDENT}(\d+) ([A-Za-z]+) ([0-9a-f]+)")

#: A step of a text: its label and the seq of the event it follows.
StepKey = tuple[str, int]
#: A view's lines: path -> value text.
Lines = dict[str, str]


@dataclass
class Sections:
    """A history's text, read back: the changes of each (step, view), steps in order;
    the log, or None when the text lists none (an earlier version wrote it)."""

    title: str
    verify: str
    steps: dict[StepKey, dict[str, Lines]] = field(default_factory=dict)
    log: list[LogEntry] | None = None

    @property
    def match(self) -> str:
        return self.title.removeprefix("match ").split(",")[0]

    def shown(self) -> Iterator[tuple[StepKey, dict[str, Lines]]]:
        """Every step, with what each view shows then in full (not only what changed).
        The same dicts, changed in place, at every step: copy what is kept."""
        views: dict[str, Lines] = {}
        for step, changed in self.steps.items():
            for view, lines in changed.items():
                apply(views.setdefault(view, {}), lines.items())
            yield step, views


def render(history: History) -> str:
    lines = [f"match {history.match}, game {history.game}", f"verify: {value_text(history.findings)}"]
    shown: dict[str, Lines] = {}
    for step in history.steps:
        seen_by: dict[tuple[str, str], list[str]] = {}  # each changed line, in the order first met
        for view, models in step.views.items():
            now = flatten(models)
            for line in changes(shown.get(view, {}), now):
                seen_by.setdefault(line, []).append(view)
            shown[view] = now
        sections: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for line, viewers in seen_by.items():
            sections.setdefault(tuple(viewers), []).append(line)
        if not sections:  # a step all the same: an outcome the last turn already showed
            lines.append(f"{step.label} (seq {step.seq}){UNCHANGED}")
        position = {view: index for index, view in enumerate(step.views)}
        # each view's sections in the order of the views; of those, the widest first
        for views in sorted(sections, key=lambda views: (position[views[0]], -len(views), [*map(position.get, views)])):
            lines.append(f"{step.label} (seq {step.seq}), {'views' if len(views) > 1 else 'view'} {', '.join(views)}")
            lines += [f"{INDENT}{path}: {text}" for path, text in sections[views]]
    if history.log:
        lines.append(f"log: {len(history.log)} {'events' if len(history.log) > 1 else 'event'}{LOG_NOTE}")
        lines += [f"{INDENT}{entry.seq} {entry.kind} {entry.digest}" for entry in history.log]
    return "\n".join(lines)


def parse(text: str) -> Sections:
    title, verify_line, *rest = text.rstrip("\n").split("\n")
    sections = Sections(title, verify_line.removeprefix("verify: "))
    targets: list[Lines] = []
    for number, line in enumerate(rest, start=3):
        if sections.log is not None:
            entry = _LOG_ENTRY.fullmatch(line)
            if entry is None:
                raise ValueError(f"line {number} of a history snapshot is not an event of its log: {line!r}")
            sections.log.append(LogEntry(int(entry[1]), entry[2], entry[3]))
            continue
        entry = _ENTRY.fullmatch(line)
        if entry and targets:
            for target in targets:
                target[entry[1]] = entry[2]
            continue
        header = _HEADER.fullmatch(line)
        if header is not None:
            step = sections.steps.setdefault((header[1], int(header[2])), {})
            views = header[3].split(VIEWS_SEPARATOR) if header[3] else []
            targets = [step.setdefault(view, {}) for view in views]
        elif _LOG.fullmatch(line):
            sections.log = []
        else:
            raise ValueError(f"line {number} of a history snapshot is neither a section nor a value: {line!r}")
    return sections
