import os

from hypothesis import settings

from matchledger import engine

# A game that exists only in tests, for exercising the ledger core on its own.
engine.register("toy", "tests.core.toygame")

# CI explores the same examples every run (a red build is then reproducible); a local
# run keeps exploring new ones.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
