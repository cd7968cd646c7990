"""What the plugin collects: one test per match of every history it is given, each
comparing the match's replayed history with its snapshot.

A history is a file (or a folder of them) or a PostgreSQL URL.  A file's snapshots are
kept beside it; a database at a URL has no folder, so its snapshots are kept in the
root folder of the run, under the database's name
(``__history_snapshots__/league/m7.txt`` for ``postgresql://host/league``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from matchledger.ledger.errors import MalformedInput, MatchledgerError, VerificationFailed

from .extension import PinnedHistoryExtension
from .history import History, replay_history
from .sources import Source, database_name, history_files, is_url, match_ids, source_name, source_of

MARKER = "matchledger_history"
#: The suffix of the place a URL's tests stand for in the root folder (never a file).
URL_PLACE_SUFFIX = ".postgresql"


def history_items(session: pytest.Session, paths: list[str]) -> Iterator[pytest.Item]:
    """The tests of every history at ``paths`` (each once)."""
    sources: list[Source] = []
    for text in paths:
        if is_url(text):
            sources.append(text)
        else:
            sources += [file.absolute() for file in history_files(Path(text)) or [Path(text)]]
    for source in dict.fromkeys(sources):
        if is_url(source):
            # named by the database: its tests and snapshots stand in the root folder
            place = session.config.rootpath / f"{database_name(str(source))}{URL_PLACE_SUFFIX}"
            node = HistoryFile.from_parent(session, path=place, nodeid=_url_node_id(str(source)))
        else:
            node = HistoryFile.from_parent(session, path=Path(source), nodeid=_node_id(session, Path(source)))
        node.source = source
        yield from session.genitems(node)


def _node_id(session: pytest.Session, path: Path) -> str:
    """The file's path from the root folder, or its whole path when it lies elsewhere
    (pytest's own id for such a file would start with ``::``, which syrupy reads as a
    class name and puts into the name of every snapshot)."""
    try:
        return path.relative_to(session.config.rootpath).as_posix()
    except ValueError:
        return path.as_posix()


def _url_node_id(url: str) -> str:
    """The URL without its password, and without ``::`` (an IPv6 host's), which pytest
    and syrupy read as the end of the file's part of a test's id."""
    return source_name(url).replace("::", ":0:")


class NotAHistory(MalformedInput):
    """A file given as a history that is not one (the message says why)."""


class HistoryFile(pytest.File):
    """A history: a test named after each match it holds."""

    #: the file, or the database's URL
    source: Source

    def collect(self) -> Iterator[pytest.Item]:
        try:
            found = self._match_ids()
        except NotAHistory as exc:
            yield Unreadable.from_parent(self, name="unreadable", problem=str(exc))
            return
        for match_id in found:
            item = MatchTest.from_parent(self, name=match_id, callobj=test_pinned_history)
            item.add_marker(getattr(pytest.mark, MARKER)(str(self.source), match_id))
            yield item

    def _match_ids(self) -> list[str]:
        if is_url(self.source):
            try:
                return match_ids(self.source)
            except MatchledgerError as exc:
                raise NotAHistory(f"{source_name(self.source)}: {exc}") from None
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
        return self.path, None, f"{self.name} in {source_name(_history_of(self))}"


class Unreadable(pytest.Item):
    """A history that is not one: a failing test that says why."""

    def __init__(self, *, problem: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.problem = problem

    def runtest(self) -> None:
        pytest.fail(self.problem, pytrace=False)

    def reportinfo(self) -> tuple[Path, None, str]:
        return self.path, None, f"{source_name(_history_of(self))}: {self.name}"


def _history_of(item: pytest.Item) -> Source:
    """The history (file or URL) of a test that :meth:`HistoryFile.collect` made."""
    assert isinstance(item.parent, HistoryFile)  # those tests are made by it alone
    return item.parent.source


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
    where = f"{match_id} in {source_name(source_of(path))}"
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
