"""The syrupy extension for histories: a :class:`History` is stored as its reviewable
text (in syrupy's amber files), and a mismatch reads as audit findings, not a text diff."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from syrupy.extensions.amber import AmberSnapshotExtension

from .findings import report
from .history import History
from .text import render

#: Where the plugin keeps the snapshots of the histories in a folder.
PINNED_DIRNAME = "__history_snapshots__"


class HistoryExtension(AmberSnapshotExtension):
    """For your own tests: ``assert history == snapshot.use_extension(HistoryExtension)``
    (the snapshots go where syrupy puts them, beside the test module)."""

    def serialize(self, data: Any, **_options: Any) -> str:
        if not isinstance(data, History):
            raise TypeError(f"a history snapshot holds a matchledger.testing.History, not {type(data).__name__}")
        return render(data)

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        if not snapshot_data:
            yield "Nothing is pinned yet: run pytest with --snapshot-update to write the snapshot."
            return
        yield from report(str(snapshot_data), str(serialized_data))


class PinnedHistoryExtension(HistoryExtension):
    """The plugin's: the snapshots of ``FOLDER/season.db`` go to
    ``FOLDER/__history_snapshots__/season.ambr``.  A folder of their own: syrupy judges
    the ``__snapshots__`` folder of a test module by that module's tests, and in a run
    without ``--matchledger-history`` would take pinned histories there for orphans."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(Path(test_location.filepath).parent / PINNED_DIRNAME)
