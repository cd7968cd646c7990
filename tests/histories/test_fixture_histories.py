"""Every fixture match's replayed history, pinned: every step, every view, every read
model.  The in-code form of what `pytest --matchledger-history` does for a league (the
same replay, the same snapshot text, the same findings on a difference)."""

from __future__ import annotations

import pytest

from matchledger.testing import HistoryExtension

from .conftest import SEASON


@pytest.mark.parametrize(("script", "match"), SEASON, ids=[f"{script.stem}-{match}" for script, match in SEASON])
def test_fixture_history(script, match, histories, snapshot):
    assert histories(match) == snapshot.use_extension(HistoryExtension)
