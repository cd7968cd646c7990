"""One database for the picture tests, holding one fixture match of each game."""

from __future__ import annotations

import pytest

from tests.helpers import REPO, run_script

SCRIPTS = [
    REPO / "fixtures" / "lca" / "amendment-example.txt",  # match amend5: ann..eve, 17 events
    REPO / "fixtures" / "pw" / "swap_one_member.txt",  # match pw1: 7 pairs, 53 events
    REPO / "fixtures" / "photographer" / "g2-seed7.txt",  # match g2: ann, bob, 60 events
]


@pytest.fixture(scope="session")
def pictures_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("pictures") / "m.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)  # studio paths in scripts are relative to the repo root
        for script in SCRIPTS:
            run_script(db, script)
    return db


@pytest.fixture
def render(pictures_db, tmp_path):
    """``render(match, *options, suffix='svg')`` -> the file's text (svg) or bytes (png)."""
    from tests.helpers import invoke

    counter = iter(range(10_000))

    def run(match, *options, suffix="svg"):
        out = tmp_path / f"pic{next(counter)}.{suffix}"
        invoke(pictures_db, "render", match, *options, "-o", out)
        return out.read_text(encoding="utf-8") if suffix == "svg" else out.read_bytes()

    return run
