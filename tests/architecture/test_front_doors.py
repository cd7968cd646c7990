"""The front doors (``commands/``: the command line and the service) reach the matches
only through the application: none reads an application's store or reader, and none
imports a store or a back end.  A door opens the application with ``Application.open``,
so the one place a back end is chosen stays beneath it.

Only ``ledger/postgres_urls.py`` is let through: telling a URL from a file name opens
nothing (the command line checks ``--db`` before anything is loaded)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import REPO

DOORS = REPO / "commands"
#: Modules that hold a store, open one, or are a back end.
STORE_MODULES = {
    "matchledger.ledger.log_store",
    "matchledger.ledger.stores",
    "matchledger.ledger.store",
    "matchledger.ledger.sqlite_file",
    "matchledger.ledger.postgres_store",
    "matchledger.ledger.postgres_database",
}
#: What reaches beneath an application.
BENEATH = {"store", "reader"}


def _doors() -> list[Path]:
    return sorted(DOORS.rglob("*.py"))


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _beneath(tree: ast.AST) -> list[tuple[int, str]]:
    """Every ``<anything>.store`` or ``<anything>.reader`` read: a door has no store and
    no reader of its own, so any such attribute is an application's."""
    return [
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in BENEATH
    ]


def _stores_imported(tree: ast.AST) -> list[tuple[int, str]]:
    return [(line, name) for line, name in _imported(tree) if name in STORE_MODULES]


@pytest.mark.parametrize("path", _doors(), ids=lambda path: str(path.relative_to(REPO)))
def test_a_door_never_reaches_beneath_the_application(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    assert _beneath(tree) == [], f"{path.relative_to(REPO)} reads an application's store or reader"
    assert _stores_imported(tree) == [], f"{path.relative_to(REPO)} imports a store"


@pytest.mark.parametrize(
    "source",
    [
        "version = self.app.store.data_version()",
        "cursor = app().reader.cursor(match_id)",
        "application.store.close()",
        "from matchledger.ledger.store import StoredEvent",
        "from matchledger.ledger.stores import open_store",
        "import matchledger.ledger.postgres_store",
        "from matchledger.ledger.log_store import StoredEvent",
    ],
)
def test_the_check_sees_each_way_past_the_application(source):
    """What the check above must catch, as the service wrote it before it went through
    the application (a check that sees nothing passes on anything)."""
    tree = ast.parse(source)
    assert _beneath(tree) or _stores_imported(tree)


def test_the_doors_are_found():
    names = {str(path.relative_to(DOORS)) for path in _doors()}
    assert {"session.py", "read.py", "host.py", "service/reads.py", "service/writes.py", "service/http.py"} <= names
