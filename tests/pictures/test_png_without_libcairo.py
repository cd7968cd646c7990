"""A machine without the system library libcairo (a slim image): `render -o x.png` says
in one line what is missing and how to install it, exits 1 and writes nothing; `.svg`
still works; and the PNG tests skip, saying why, instead of stopping the suite at
collection.  The missing library is simulated in a child process
(``no_libcairo/sitecustomize.py``): cairocffi's own search for libcairo fails there, as
it does where the library is not installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import REPO, invoke

pytestmark = pytest.mark.guarantee("output.png-without-libcairo")

NO_LIBCAIRO = Path(__file__).parent / "no_libcairo"


def _without_libcairo(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(NO_LIBCAIRO), os.environ.get("PYTHONPATH", "")])}
    env.pop("COLUMNS", None)
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def photographer_g1_db(tmp_path):
    db = tmp_path / "m.db"
    invoke(db, "new", "photographer", "g1", "--players", "ann,bob", "--seed", str(2**50))
    return db


def test_the_simulation_really_takes_libcairo_away(tmp_path):
    probe = _without_libcairo("-c", "import cairosvg", cwd=tmp_path)
    assert probe.returncode != 0 and "OSError" in probe.stderr and "cairo" in probe.stderr


def test_render_png_without_libcairo_says_what_is_missing_in_one_line_and_writes_nothing(photographer_g1_db, tmp_path):
    result = _without_libcairo(
        "-m", "matchledger", "--db", str(photographer_g1_db), "render", "g1", "-o", "board.png", cwd=tmp_path
    )
    assert result.returncode == 1, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: PNG output needs the system library libcairo")
    assert "apt-get install libcairo2" in lines[0] and "write .svg" in lines[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "board.png").exists()


def test_render_svg_without_libcairo_still_works(photographer_g1_db, tmp_path):
    result = _without_libcairo(
        "-m", "matchledger", "--db", str(photographer_g1_db), "render", "g1", "-o", "board.svg", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "board.svg").read_text(encoding="utf-8").startswith("<svg")


def test_png_tests_skip_saying_why_without_libcairo(tmp_path):
    png_tests = ["tests/pictures/test_png.py", "tests/trust/test_png_size.py"]
    result = _without_libcairo(
        "-m", "pytest", "-q", "-rs", "-n", "0", "-p", "no:cacheprovider", "-p", "no:randomly", *png_tests, cwd=REPO
    )
    summary = result.stdout.splitlines()[-1]
    assert result.returncode == 0, result.stdout[-3000:]
    assert "error" not in summary and "failed" not in summary, summary
    assert "skipped" in summary and "passed" in summary, summary  # the size limits hold without cairo
    skips = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skips and all("no PNG here: PNG output needs the system library libcairo" in line for line in skips), skips
