"""A PNG larger than ledger/limits.py PNG_MAX_PIXELS, or wider or higher than
PNG_MAX_SIDE, is refused before cairo renders it (which would take seconds and
gigabytes, or fail)."""

from __future__ import annotations

import pytest

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.events import MatchCreated
from matchledger.ledger.limits import PNG_MAX_PIXELS, PNG_MAX_SIDE
from matchledger.ledger.store import Store
from matchledger.projections.presentation import png
from matchledger.projections.presentation.png import to_png

from ..helpers import invoke, needs_png

pytestmark = pytest.mark.guarantee("files.png-bounded")


def _svg(width: int, height: int) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"></svg>'


def test_a_picture_over_the_limit_is_refused_before_rendering(monkeypatch):
    def cairo_must_not_run(**_kwargs):
        raise AssertionError("cairo was asked to render")

    monkeypatch.setattr(png, "_svg2png", lambda: cairo_must_not_run)
    side = int(PNG_MAX_PIXELS**0.5) + 1
    with pytest.raises(MalformedInput, match=f"would be {side}x{side} pixels, more than the limit of {PNG_MAX_PIXELS}"):
        to_png(_svg(side, side))
    with pytest.raises(MalformedInput, match="more than the limit"):
        to_png(_svg(100, 100), scale=side / 10)
    with pytest.raises(MalformedInput, match="more than the limit"):
        to_png(_svg(PNG_MAX_SIDE + 1, 10))  # wider than cairo can draw, whatever the area


@needs_png()
def test_a_picture_within_the_limits_is_rendered():
    assert to_png(_svg(200, 100)).startswith(b"\x89PNG")
    assert to_png(_svg(PNG_MAX_SIDE, 2)).startswith(b"\x89PNG")


def test_render_of_a_huge_studio_refuses_the_picture_and_writes_nothing(tmp_path, monkeypatch):
    """A studio far beyond today's limits, as a database written before them may hold."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "m.db"
    studio = "\n".join("." * 250 for _ in range(250))
    store = Store(db)
    store.append(
        "big",
        1,
        [MatchCreated(game="lca", players=["ann", "bob"], setup={"studio": studio})],
        actor="h",
        recorded_at="2026-01-01T00:00:00.000000Z",
    )
    store.close()
    for name in ("big.png", "big.svg"):  # the canvas is refused before anything is drawn
        result = invoke(db, "render", "big", "-o", name, expect=1)
        assert "a picture is at most 25000000 pixels" in result.output and not (tmp_path / name).exists()
