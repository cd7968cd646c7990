"""Every numbered ruling (L…, W…, P… in engine/<game>/rules.md) and every row of
docs/guarantees.md is named by a test that decides it: ``@pytest.mark.ruling("W9")``,
``@pytest.mark.guarantee("log.append-only")``.  These tests list what has no test and
what a test names that does not exist."""

from __future__ import annotations

import functools
import importlib
import re
import tomllib

from . import trace


# Read when a test first asks (every module is parsed: seconds), not when pytest collects
# this module: each xdist worker collects every module, and only one runs these tests.
@functools.cache
def _citations() -> trace.Citations:
    return trace.citations()


@functools.cache
def _guarantees() -> trace.Guarantees:
    return trace.guarantees(trace.GUARANTEES.read_text(encoding="utf-8"))


def _order(ruling: str) -> tuple[str, int]:
    return ruling[0], int(ruling[1:])


def _cited(kind: str) -> set[str]:
    return {c.id for c in _citations().found if c.kind == kind}


def test_every_ruling_is_decided_by_a_test():
    missing = sorted(trace.all_rulings() - _cited("ruling"), key=_order)
    assert not missing, f"no test carries @pytest.mark.ruling(...) for: {', '.join(missing)}"


def test_every_row_of_guarantees_md_is_decided_by_a_test():
    missing = [g for g in _guarantees().ids if g not in _cited("guarantee")]
    assert not missing, "no test carries @pytest.mark.guarantee(...) for: " + ", ".join(missing)


def test_every_ruling_and_guarantee_a_test_names_exists():
    known = {"ruling": trace.all_rulings(), "guarantee": set(_guarantees().ids)}
    unknown = [f"{c.test} names {c.kind} {c.id!r}" for c in _citations().found if c.id not in known[c.kind]]
    wrong = unknown + _citations().problems  # and markers that name nothing
    assert not wrong, "\n".join(wrong)


def test_a_test_citing_a_ruling_has_the_ruling_in_its_name():
    # so that a failure's name says which ruling broke (the rest of the name says which case)
    unnamed = [
        f"{c.test} cites {c.id}"
        for c in _citations().found
        if c.kind == "ruling" and not re.search(rf"(^|_){c.id.lower()}(_|$)", c.test.split("::")[1].lower())
    ]
    assert not unnamed, "\n".join(unnamed)


def test_every_table_row_of_guarantees_md_has_an_id_of_its_own():
    problems = _guarantees().problems
    assert not problems, "\n".join(problems)


def test_every_test_guarantees_md_names_exists():
    stale = []
    for ref in _guarantees().tests:
        file, _, name = ref.partition("::")
        if file not in _citations().tests or name and name not in _citations().tests[file]:
            stale.append(ref)
    assert not stale, "docs/guarantees.md names tests that do not exist: " + ", ".join(stale)


def test_the_rulings_are_read_from_the_rules_file_of_every_game_the_repository_declares():
    # the games of this distribution's entry points, each with its rules in the repository
    entry_points = tomllib.loads((trace.REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "entry-points"
    ]["matchledger.games"]
    declared = []
    for target in entry_points.values():
        module, _, name = target.partition(":")
        package, _, file = getattr(importlib.import_module(module), name).rules.partition(":")
        declared.append("/".join([*package.split(".")[1:], file]))  # matchledger.engine.lca -> engine/lca
    files = trace.rules_files()
    assert declared, "pyproject.toml declares no game"
    assert sorted(declared) == sorted(files)
    assert all(files.values()), f"a rules file numbers no ruling: {files}"


def test_each_rules_file_numbers_its_rulings_from_1_without_a_gap():
    for name, rulings in trace.rules_files().items():  # the parse found them all: one letter, 1, 2, … without a gap
        letters = {r[0] for r in rulings}
        assert len(letters) == 1, f"{name}: rulings {sorted(rulings)}"
        assert rulings == {f"{min(letters)}{n}" for n in range(1, len(rulings) + 1)}, (
            f"{name}: {sorted(rulings, key=_order)}"
        )


# --------------------------------------------------------------------------- the checks themselves


def test_the_rulings_parse_reads_citations_ranges_and_list_items_not_cells():
    text = "A1 is a cell.\nRejected (rulings W1–W3):\n- W4: no.\nEC (ruling W9).  See ruling P12 fills."
    assert trace.numbered_rulings(text) == {"W1", "W2", "W3", "W4", "W9", "P12"}


def test_the_guarantees_parse_wants_an_id_on_every_row_of_every_table():
    text = """## Kept
| Id | Guarantee | Test |
|---|---|---|
| `log.kept` | a | `core/test_a.py::test_b`, `::test_c`, `R/test_d.py` |
| `log.kept` | twice | — |
| no id | b | — |

## New
| Guarantee | Test |
|---|---|
| c | — |
"""
    found = trace.guarantees(text)
    assert found.ids == ["log.kept"]
    assert found.tests == ["core/test_a.py::test_b", "core/test_a.py::test_c", "reliability/test_d.py"]
    assert [p.split(":")[0] for p in found.problems] == [
        "'Kept'",
        "'Kept'",
        "the table under 'New' has no Id column first",
    ]


def test_the_markers_are_read_from_tests_parametrized_cases_and_pytestmark_only():
    source = """
import pytest
pytestmark = pytest.mark.guarantee("log.a")

@pytest.mark.ruling("W9")
def test_w9_x(): pass

@pytest.mark.parametrize("v", [pytest.param(1, marks=pytest.mark.ruling("L2"))])
def test_l2_y(v): pass

@pytest.mark.ruling(NAME)
def helper(): pass
"""
    found = trace.Citations()
    trace.read_module("m/test_m.py", source, found)
    assert sorted((c.kind, c.id, c.test) for c in found.found) == [
        ("guarantee", "log.a", "m/test_m.py::test_l2_y"),
        ("guarantee", "log.a", "m/test_m.py::test_w9_x"),
        ("ruling", "L2", "m/test_m.py::test_l2_y"),
        ("ruling", "W9", "m/test_m.py::test_w9_x"),
    ]
    assert found.problems == ["m/test_m.py:11: a ruling marker on no test function"]


def test_a_shipped_suite_s_tests_and_class_markers_count_as_the_importing_module_s():
    runner = (
        "from matchledger.testing.game_contract import GameContract\nclass TestMine(GameContract):\n    game = 'x'\n"
    )
    suites = trace.shipped_suites(runner)
    assert [path.name for path in suites] == ["game_contract.py"]
    found = trace.Citations()
    trace.read_module("contracts/test_mine.py", runner, found)
    for suite in suites:
        trace.read_module("contracts/test_mine.py", suite.read_text(encoding="utf-8"), found)
    cited = {(c.id, c.test) for c in found.found}
    # the class's marker reaches every test method, a method's own marker only that one
    assert ("log.game-contract", "contracts/test_mine.py::test_the_fold_is_incremental") in cited
    assert ("log.incremental-fold", "contracts/test_mine.py::test_the_fold_is_incremental") in cited
    assert ("log.incremental-fold", "contracts/test_mine.py::test_rederivation_agrees_with_the_log") not in cited
    assert "test_rederivation_agrees_with_the_log" in found.tests["contracts/test_mine.py"]
    assert found.problems == []
