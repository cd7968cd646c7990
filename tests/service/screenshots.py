"""Screenshots of each game's pages, for a reviewer to look at (docs/service.md,
"The pages as a participant sees them"):

    python -m tests.service.screenshots OUT_DIR                # the main states, 360 and 1280 px
    python -m tests.service.screenshots OUT_DIR --all          # every state the page audit checks
    python -m tests.service.screenshots OUT_DIR --width 360 --only lca-participant-submitted

It builds the same page states as tests/service/test_page_audit.py (page_states.py:
one database, one ``matchledger serve``), opens each in the system's headless Chromium
(through Playwright, as the browser tests do) and writes ``GAME-STATE-WIDTH.png``: the
whole page, or with ``--screen`` only its first screen (WIDTH x 800).  The PNGs are
written with a palette of 256 colours (Pillow, which cairosvg brings), a fraction of
the size and alike to the eye.  It needs the test extras (``pip install -e '.[test]'``)
and Chromium.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
from pathlib import Path

from .page_states import State, build, open_state

#: The states most worth a look, by the end of their name (page_states.build names them).
MAIN = (
    "public, mid-match",
    "participant, before submitting",
    "participant, submitted",
    "participant, refused",
    "participant, superseded",
    "participant, voided by the host",
    "participant, finished",
    "participant, revoked link",
    "report, participant",
)
HEIGHT = 800


def slug(state: State) -> str:
    """``lca-participant-submitted``: the state's id as a file name."""
    return re.sub(r"[^a-z0-9]+", "-", state.id.lower()).strip("-")


def small_png(png: bytes) -> bytes:
    """The picture with a palette of 256 colours (as is, without Pillow)."""
    try:
        from PIL import Image
    except ImportError:
        return png
    out = io.BytesIO()
    with Image.open(io.BytesIO(png)) as picture:
        picture.convert("RGB").quantize(256).save(out, "PNG", optimize=True)
    return out.getvalue()


def chosen(states: list[State], every: bool, only: list[str]) -> list[State]:
    """The states asked for: ``--only SLUG`` (a file name's start, as in
    ``lca-participant-submitted``), else every one (``--all``) or the main ones."""
    if only:
        return [s for s in states if slug(s) in only]
    return states if every else [s for s in states if s.name in MAIN]


def shoot(
    out: Path, widths: list[int], *, every: bool = False, screen: bool = False, only: list[str] = ()
) -> list[Path]:
    """Write the screenshots into ``out``; the files written."""
    from playwright.sync_api import sync_playwright

    from .chromium import CHROMIUM
    from .support import Server

    if CHROMIUM is None:
        raise SystemExit("chromium is not installed: apt-get install chromium")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as folder:
        db, states = build(Path(folder))
        states = chosen(states, every, list(only))
        if not states:
            raise SystemExit(f"no state is named {' or '.join(only)}")
        with Server(db) as server, sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page(viewport={"width": widths[0], "height": HEIGHT})
                for state in states:  # each state at every width before the next moves a match on
                    for width in widths:
                        page.set_viewport_size({"width": width, "height": HEIGHT})
                        open_state(page, server.url, state)
                        path = out / f"{slug(state)}-{width}.png"
                        path.write_bytes(small_png(page.screenshot(full_page=not screen, animations="disabled")))
                        written.append(path)
            finally:
                browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.service.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, metavar="OUT_DIR", help="the folder to write the PNGs into")
    parser.add_argument("--width", type=int, action="append", help="a viewport width in px (repeatable; 360 and 1280)")
    parser.add_argument("--all", action="store_true", help="every state the page audit checks, not only the main ones")
    parser.add_argument("--screen", action="store_true", help="only the first screen of each page, not the whole page")
    parser.add_argument(
        "--only", action="append", default=[], metavar="SLUG", help="only this state, e.g. lca-participant-submitted"
    )
    args = parser.parse_args(argv)
    for path in shoot(args.out, args.width or [360, 1280], every=args.all, screen=args.screen, only=args.only):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
