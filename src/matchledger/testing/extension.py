"""The syrupy extensions for histories: a :class:`History` is stored as its reviewable
text, one plain text file a snapshot (a match), and a mismatch reads as audit findings
(:mod:`.report`), not a text diff.

Earlier versions kept every snapshot of a test module (or of a history file) in one
amber file; where a snapshot is not found in its own file, the one such a file holds is
compared instead, so an upgrade is checked against what was pinned before it, and
``--snapshot-update`` then moves it to its own file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from syrupy.extensions.amber.serializer import AmberDataSerializer
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from .history import History
from .report import report
from .text import render

#: Where the plugin keeps the snapshots of the histories in a folder.
PINNED_DIRNAME = "__history_snapshots__"
#: The file of every snapshot of a test module (or history file) in earlier versions.
EARLIER_SUFFIX = ".ambr"


class HistoryExtension(SingleFileSnapshotExtension):
    """For your own tests: ``assert history == snapshot.use_extension(HistoryExtension)``
    (a file a snapshot, in a folder named after the test module beside it:
    ``__snapshots__/test_season/test_final.txt``)."""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"

    def serialize(self, data: Any, **_options: Any) -> str:
        if not isinstance(data, History):
            raise TypeError(f"a history snapshot holds a matchledger.testing.History, not {type(data).__name__}")
        return render(data) + "\n"

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        if not snapshot_data:
            yield "Nothing is pinned yet: run pytest with --snapshot-update to write the snapshot."
            return
        from .plugin import verbosity  # the plugin is loaded in every pytest run: the -v given there

        yield from report(str(snapshot_data), str(serialized_data), verbosity())

    def read_snapshot_data_from_location(self, *, snapshot_location: str, snapshot_name: str, session_id: str) -> Any:
        found = super().read_snapshot_data_from_location(
            snapshot_location=snapshot_location, snapshot_name=snapshot_name, session_id=session_id
        )
        return found if found is not None else _earlier(snapshot_location, snapshot_name)

    @classmethod
    def write_snapshot_collection(cls, *, snapshot_collection: Any, name_order: dict[str, int] | None = None) -> None:
        super().write_snapshot_collection(snapshot_collection=snapshot_collection, name_order=name_order)
        for snapshot in snapshot_collection:
            _forget_earlier(snapshot_collection.location, snapshot.name)


class PinnedHistoryExtension(HistoryExtension):
    """The plugin's: the snapshot of match ``m7`` of ``FOLDER/season.db`` is
    ``FOLDER/__history_snapshots__/season/m7.txt``.  A folder of their own: syrupy judges
    the ``__snapshots__`` folder of a test module by that module's tests, and in a run
    without ``--matchledger-history`` would take pinned histories there for orphans."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        history = Path(test_location.filepath)
        return str(history.parent / PINNED_DIRNAME / history.stem)


def _earlier_file(snapshot_location: str) -> Path:
    """``…/season.ambr`` for ``…/season/m7.txt``: where an earlier version kept it."""
    folder = Path(snapshot_location).parent
    return folder.with_name(folder.name + EARLIER_SUFFIX)


def _earlier(snapshot_location: str, name: str) -> str | None:
    path = _earlier_file(snapshot_location)
    if not path.is_file():
        return None
    snapshot = AmberDataSerializer.read_file(str(path)).get(name)
    return None if snapshot is None or snapshot.data is None else str(snapshot.data)


def _forget_earlier(snapshot_location: str, name: str) -> None:
    """The snapshot ``name`` is written to its own file: its copy in an earlier
    version's file goes (and the file, once it holds no other)."""
    path = _earlier_file(snapshot_location)
    if not path.is_file():
        return
    collection = AmberDataSerializer.read_file(str(path))
    if collection.get(name) is None:
        return
    collection.remove(name)
    if collection.has_snapshots:
        AmberDataSerializer.write_file(collection)
    else:
        path.unlink()
