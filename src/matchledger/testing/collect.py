"""What the plugin collects: one test per match of every history it is given, each
comparing the match's replayed history with its snapshot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from matchledger.ledger.errors import MalformedInput, MatchledgerError, VerificationFailed

from .extension import PinnedHistoryExtension
from .history import History, replay_history
from .sources import history_files, match_ids

MARKER = "matchledger_history"


def history_items(session: pytest.Session, paths: list[str]) -> Iterator[pytest.Item]:
    """The tests of every history file at ``paths`` (each file once)."""
    files = [file for text in paths for file in history_files(Path(text)) or [Path(text)]]
    for file in dict.fromkeys(file.absolute() for file in files):
        yield from session.genitems(HistoryFile.from_parent(session, path=file, nodeid=_node_id(session, file)))


def _node_id(session: pytest.Session, path: Path) -> str:
    """The file's path from the root folder, or its whole path when it lies elsewhere
    (pytest's own id for such a file would start with ``::``, which syrupy reads as a
    class name and puts into the name of every snapshot)."""
    try:
        return path.relative_to(session.config.rootpath).as_posix()
    except ValueError:
        return path.as_posix()


class NotAHistory(MalformedInput):
    """A file given as a history that is not one (the message says why)."""


class HistoryFile(pytest.File):
    """A history file: a test named after each match it holds."""

    def collect(self) -> Iterator[pytest.Item]:
        try:
            found = self._match_ids()
        except NotAHistory as exc:
            yield Unreadable.from_parent(self, name="unreadable", problem=str(exc))
            return
        for match_id in found:
            item = MatchTest.from_parent(self, name=match_id, callobj=test_pinned_history)
            item.add_marker(getattr(pytest.mark, MARKER)(str(self.path), match_id))
            yield item

    def _match_ids(self) -> list[str]:
        name = self.path.name
        if not self.path.exists():
            raise NotAHistory(f"{name}: no such file or folder")
        if self.path.is_dir():
            raise NotAHistory(f"{name}: the folder holds no matchledger database and no .jsonl export")
        try:
            return match_ids(self.path)
        except MatchledgerError as exc:
            raise NotAHistory(
                f"{name} is not a history (a matchledger database or an exported .jsonl file): {exc}"
            ) from None


class MatchTest(pytest.Function):
    """One match of a history file (a test function of no module: it says which)."""

    def reportinfo(self) -> tuple[Path, None, str]:
        return self.path, None, f"{self.name} in {self.path.name}"


class Unreadable(pytest.Item):
    """A history that is not one: a failing test that says why."""

    def __init__(self, *, problem: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.problem = problem

    def runtest(self) -> None:
        pytest.fail(self.problem, pytrace=False)

    def reportinfo(self) -> tuple[Path, None, str]:
        return self.path, None, f"{self.path.name}: {self.name}"


def test_pinned_history(request: pytest.FixtureRequest, snapshot: Any) -> None:
    """The match's replayed history is the one pinned beside its file."""
    compare(marked_history(request.node), snapshot.use_extension(PinnedHistoryExtension))


def marked_history(node: pytest.Item) -> History:
    """The history named by the test's ``matchledger_history(PATH, MATCH)`` mark; when
    it cannot be replayed (a broken chain above all), ``pytest.fail`` saying why."""
    marker = node.get_closest_marker(MARKER)
    if marker is None:
        pytest.fail(f"{node.nodeid}: mark the test with @pytest.mark.{MARKER}(PATH, MATCH)", pytrace=False)
    path, match_id = marker.args
    where = f"{match_id} in {Path(path).name}"
    try:
        return replay_history(path, match_id)
    except VerificationFailed as exc:
        problem = f"{where}: the chain is broken, so nothing of it is replayed or pinned: {exc}"
    except MatchledgerError as exc:
        problem = f"{where}: {exc}"
    pytest.fail(problem, pytrace=False)


def compare(history: History, snapshot: Any) -> None:
    """``history`` against ``snapshot`` (written instead with --snapshot-update); the
    findings as the failure."""
    if not snapshot == history:
        pytest.fail("\n".join(snapshot.get_assert_diff()), pytrace=False)
