"""The pytest plugin installed with matchledger (entry point ``pytest11``):
``pytest --matchledger-history PATH`` adds one test per match of each history at PATH,
comparing its replayed history with a syrupy snapshot (docs/snapshot-testing.md).

Every pytest run of anyone who has matchledger installed loads this module, so it
imports nothing of matchledger until the option is used or the fixture is asked for.
"""

from __future__ import annotations

from typing import Any

import pytest

OPTION = "--matchledger-history"
#: The verbosity (-v, -vv) of each pytest run under way, innermost last: a history's
#: failure says more with each -v (a run may hold another, as pytester runs one).
_VERBOSITY: list[int] = []
_COUNTED = pytest.StashKey[bool]()


def verbosity() -> int:
    """How much a failing history says: 0 (the outcome, the first step, the log), 1 or 2."""
    return _VERBOSITY[-1] if _VERBOSITY else 0


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("matchledger").addoption(
        OPTION,
        action="append",
        default=[],
        dest="matchledger_history",
        metavar="PATH",
        help="Test that every match of PATH (a matchledger database, a SQLite file or a postgresql:// URL; "
        "an exported JSON Lines file; or a folder of them) replays to its snapshot, round by round and view "
        "by view. Repeatable.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "matchledger_history(path, match): the history the matchledger_history fixture replays"
    )
    # the shipped contract suites (matchledger.testing.game_contract, .store_contract)
    # carry the ids of the rows of matchledger's docs/guarantees.md they decide
    config.addinivalue_line("markers", "guarantee(*ids): the rows of matchledger's docs/guarantees.md the test decides")
    if config.getoption("matchledger_history") and not config.pluginmanager.hasplugin("syrupy"):
        raise pytest.UsageError(
            f"{OPTION} compares histories with syrupy snapshots: install syrupy (pip install syrupy)"
        )
    _VERBOSITY.append(config.get_verbosity())
    config.stash[_COUNTED] = True


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_COUNTED, False):
        _VERBOSITY.pop()


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, and before syrupy records the items
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    paths = config.getoption("matchledger_history")
    if paths:
        from .collect import history_items

        items.extend(history_items(session, paths))


@pytest.fixture
def matchledger_history(request: pytest.FixtureRequest) -> Any:
    """The replayed history (:class:`matchledger.testing.History`) of the match named by
    the test's mark, ``@pytest.mark.matchledger_history(PATH, MATCH)``."""
    from .collect import marked_history

    return marked_history(request.node)
