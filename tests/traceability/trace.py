"""What the traceability tests read: the rulings the rules number, the ids of
docs/guarantees.md, and which test names which.  Markers are read from the tests' source
(never from a collection), so the answer is the same whichever tests a run selects."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
#: the rules of the games matchledger ships, each beside its engine (docs/rules.md)
RULES = "engine/*/rules.md"
GUARANTEES = REPO / "docs" / "guarantees.md"
KINDS = ("ruling", "guarantee")

# --------------------------------------------------------------------------- rulings

# "ruling L2", "(ruling L5, *option* …)", "rulings W1–W5"; and a list item "- W3: …"
_CITED = re.compile(r"\brulings?\s+([A-Z])(\d+)(?:\s*[–-]\s*\1?(\d+))?")
_LISTED = re.compile(r"^\s*-\s+([A-Z])(\d+):", re.MULTILINE)


def numbered_rulings(text: str) -> set[str]:
    """The rulings a rules file numbers (a range names each ruling in it)."""
    found = {f"{letter}{n}" for letter, n in _LISTED.findall(text)}
    for letter, first, last in _CITED.findall(text):
        found.update(f"{letter}{n}" for n in range(int(first), int(last or first) + 1))
    return found


def rules_files() -> dict[str, set[str]]:
    """{path from the repository's root: its rulings} of every rules file of the
    repository's games."""
    return {
        path.relative_to(REPO).as_posix(): numbered_rulings(path.read_text(encoding="utf-8"))
        for path in sorted(REPO.glob(RULES))
    }


def all_rulings() -> set[str]:
    """Every ruling the repository's rules files number."""
    return set().union(*rules_files().values())


# --------------------------------------------------------------------------- guarantees

_ID = re.compile(r"^[a-z]+(?:-[a-z]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*$")
# a test the Test column names: `ledger/test_x.py::test_y`, `::test_z` (same file), `R/test_x.py`
_TEST_REF = re.compile(r"^(?P<file>(?:\w+/)*test_\w+\.py)?(?:::(?P<name>test_\w+))?$")


@dataclass
class Guarantees:
    ids: list[str] = field(default_factory=list)  # in the document's order
    tests: list[str] = field(default_factory=list)  # what the Test columns name, relative to tests/
    problems: list[str] = field(default_factory=list)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def guarantees(text: str) -> Guarantees:
    """Every table of docs/guarantees.md has an Id column first; each row's id is
    `section.name` in backticks, unique in the file."""
    found = Guarantees()
    heading = "(top)"
    table: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            _read_table(heading, table, found)
            table = []
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
    return found


def _read_table(heading: str, lines: list[str], found: Guarantees) -> None:
    header, rows = _cells(lines[0]), lines[2:]  # lines[1] is the |---| line
    if header[0] != "Id":
        found.problems.append(f"the table under {heading!r} has no Id column first")
        return
    test_column = header.index("Test") if "Test" in header else None
    for line in rows:
        cells = _cells(line)
        guarantee_id = cells[0].strip("`")
        if not _ID.match(guarantee_id):
            found.problems.append(f"{heading!r}: a row without an id (`section.name`): {line[:70]!r}")
        elif guarantee_id in found.ids:
            found.problems.append(f"{heading!r}: id {guarantee_id!r} is given twice")
        else:
            found.ids.append(guarantee_id)
        if test_column is not None and test_column < len(cells):
            found.tests += _test_refs(cells[test_column])


_SHORT_FOLDERS = {"R/": "reliability/", "T/": "trust/", "P/": "postgres/"}


def _test_refs(cell: str) -> list[str]:
    refs, file = [], None
    for token in re.findall(r"`([^`]+)`", cell):
        match = _TEST_REF.match(token)
        if not match or not (match["file"] or match["name"]):
            continue  # code, a command: not a test
        if match["file"]:
            file = match["file"]
            for short, folder in _SHORT_FOLDERS.items():  # the doc's abbreviations (its intro)
                if file.startswith(short):
                    file = folder + file[len(short) :]
        file = file or "?"  # `::name` before any file: names nothing
        refs.append(f"{file}::{match['name']}" if match["name"] else file)
    return refs


# --------------------------------------------------------------------------- tests' markers


@dataclass(frozen=True)
class Citation:
    kind: str  # "ruling" | "guarantee"
    id: str
    test: str  # "lca/test_lights.py::test_L2_…", relative to tests/


@dataclass
class Citations:
    found: list[Citation] = field(default_factory=list)
    tests: dict[str, set[str]] = field(default_factory=dict)  # test file -> its test functions
    problems: list[str] = field(default_factory=list)


#: The contract suites matchledger ships (``matchledger.testing.*_contract``): a test
#: module that imports one runs its tests, so they count as that module's own.
SHIPPED = REPO / "src" / "matchledger" / "testing"


def citations() -> Citations:
    """Every @pytest.mark.ruling / guarantee of every test module under tests/, and of
    the shipped suites each one imports (as that module's)."""
    result = Citations()
    for path in sorted(TESTS.rglob("test_*.py")):
        name, source = path.relative_to(TESTS).as_posix(), path.read_text(encoding="utf-8")
        read_module(name, source, result)
        for suite in shipped_suites(source):
            read_module(name, suite.read_text(encoding="utf-8"), result)
    return result


def shipped_suites(source: str) -> list[Path]:
    """The shipped contract suites a test module imports from (``from
    matchledger.testing.game_contract import GameContract``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("matchledger.testing."):
            path = SHIPPED / (node.module.split(".")[-1] + ".py")
            if path.name.endswith("_contract.py") and path.is_file() and path not in found:
                found.append(path)
    return found


def read_module(name: str, source: str, into: Citations) -> None:
    """The citations of one module's tests: each test's own markers (parametrized cases'
    included) and the module's ``pytestmark``.  A marker on anything else, or with an
    id that is not a literal string, is a problem: it would name nothing."""
    tree = ast.parse(source)
    marks = {id(node): node for node in ast.walk(tree) if _kind(node)}
    module_marks = [
        node
        for statement in tree.body
        if isinstance(statement, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in statement.targets)
        for node in ast.walk(statement.value)
        if _kind(node)
    ]
    tests = [
        n
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test_")
    ]
    into.tests.setdefault(name, set()).update(test.name for test in tests)
    # a class's markers are its test methods' (a shipped suite marks its class)
    class_marks: dict[int, list[ast.Call]] = {}
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        marked = [node for decorator in cls.decorator_list for node in ast.walk(decorator) if _kind(node)]
        for node in ast.walk(cls):
            class_marks.setdefault(id(node), []).extend(marked)
    used = set()
    for test in tests:
        own = [node for decorator in test.decorator_list for node in ast.walk(decorator) if _kind(node)]
        for call in module_marks + class_marks.get(id(test), []) + own:
            used.add(id(call))
            if not call.args:
                into.problems.append(f"{name}:{call.lineno}: a {_kind(call)} marker naming nothing")
            for arg in call.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    into.found.append(Citation(_kind(call), arg.value, f"{name}::{test.name}"))
                else:
                    into.problems.append(f"{name}:{call.lineno}: a {_kind(call)} id that is not a literal string")
    for key, call in marks.items():
        if key not in used:
            into.problems.append(f"{name}:{call.lineno}: a {_kind(call)} marker on no test function")


def _kind(node: ast.AST) -> str | None:
    """ "ruling" or "guarantee" when ``node`` calls ``pytest.mark.ruling`` (or ``mark.…``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in KINDS):
        return None
    owner = node.func.value
    if isinstance(owner, ast.Attribute) and owner.attr == "mark" or isinstance(owner, ast.Name) and owner.id == "mark":
        return node.func.attr
    return None
