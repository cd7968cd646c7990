"""Every mutant still applies: its line stands exactly once in its file, so a change to the
code cannot quietly turn a mutant into one that `python -m tests.mutation` stops on."""

from __future__ import annotations

from pathlib import Path

import pytest

from .mutants import MUTANTS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.name)
def test_the_mutant_s_line_stands_once_in_its_file(mutant):
    source = (ROOT / mutant.path).read_text(encoding="utf-8")
    assert source.count(mutant.before) == 1, f"{mutant.name}: {mutant.before!r} in {mutant.path}"
    assert mutant.after != mutant.before
    for test in mutant.tests:
        file = test.split("::")[0]
        assert (ROOT / file).exists() or (ROOT / "tests" / file).exists(), test
