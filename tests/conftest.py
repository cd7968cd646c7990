import os

import pytest
from hypothesis import settings

from matchledger import engine
from tests.helpers import REPO

# A game that exists only in tests, for exercising the ledger core on its own.
engine.register("toy", "tests.toygame")

# CI explores the same examples every run (a red build is then reproducible); a local
# run keeps exploring new ones.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


# --------------------------------------------------------------------------- places


@pytest.fixture
def empty_db_path(tmp_path):
    """Where a test's database will be: no file there yet (the first write makes it)."""
    return tmp_path / "m.db"


@pytest.fixture
def at_repo_root(monkeypatch):
    """The current folder is the repository's root, for scripts that name fixtures'
    files (studios, decks) relative to it."""
    monkeypatch.chdir(REPO)


# --------------------------------------------------------------------------- pytest in pytest

#: What pytest-xdist tells the processes it runs tests in.
XDIST_WORKER_VARIABLES = ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID")


@pytest.fixture(autouse=True)
def _pytester_runs_alone(request):
    """A project run by ``pytester`` is a pytest of its own, as its author runs it, not
    a worker of this run: plugins that read the worker's environment (syrupy locks the
    snapshot files it writes, and leaves the locks beside them) must not see it.

    Every game is loaded before ``pytester`` takes its copy of ``sys.modules``: the
    modules first imported in the test are dropped when it ends, while the registry
    (``engine._SPECS``) would keep the game it loaded from them, its state and command
    types no longer those a later import defines (a later snapshot's decode then finds
    no ``sys.modules`` entry to resolve the state's annotations in)."""
    if "pytester" in request.fixturenames:
        for name in engine.names():
            engine.get(name)
        with pytest.MonkeyPatch.context() as patch:
            for name in XDIST_WORKER_VARIABLES:
                patch.delenv(name, raising=False)
            yield
    else:
        yield


# --------------------------------------------------------------------------- PostgreSQL

#: Set (CI sets it where the server binaries are installed) to fail, not skip, when the
#: throwaway server cannot start.
REQUIRE_POSTGRES = "MATCHLEDGER_REQUIRE_POSTGRES"


@pytest.fixture(scope="session")
def postgres_server():
    """The session's throwaway PostgreSQL server (one for every test that needs one; one
    per worker process under pytest-xdist, each on a free port and in a folder of its
    own, with database and schema names that carry the worker's pid), stopped and
    removed at the end whatever happened; a test using it skips, saying why, where no
    server can be started."""
    from matchledger.testing.postgres_server import ThrowawayServer, Unavailable

    try:
        server = ThrowawayServer.start()
    except Unavailable as exc:
        if os.environ.get(REQUIRE_POSTGRES):
            pytest.fail(f"PostgreSQL is required here (${REQUIRE_POSTGRES}) but: {exc}")
        pytest.skip(f"no PostgreSQL server for these tests: {exc}")
    try:
        server.tests_database = server.create_database("tests")
        yield server
    finally:
        server.remove()


class PostgresDatabases:
    """Empty places of one test, by name, each a schema of the session's database made
    on first use (where a store makes its tables) and dropped at the test's end."""

    def __init__(self, server):
        self.server = server
        self.schemas: dict[str, str] = {}

    def url(self, name: str = "main") -> str:
        if name not in self.schemas:
            self.schemas[name] = self.server.create_schema(self.server.tests_database)
        return self.server.url(self.server.tests_database, schema=self.schemas[name])

    def drop_all(self) -> None:
        for schema in self.schemas.values():
            self.server.drop_schema(self.server.tests_database, schema)


@pytest.fixture
def postgres_databases(postgres_server):
    databases = PostgresDatabases(postgres_server)
    try:
        yield databases
    finally:
        databases.drop_all()


@pytest.fixture
def postgres_url(postgres_databases) -> str:
    """The URL of an empty database of this test's own."""
    return postgres_databases.url()
