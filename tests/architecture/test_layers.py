"""The layers of docs/architecture.md hold: the import contracts of ``pyproject.toml``
(``[tool.importlinter]``) are run here, so the README's test command fails on a
violation as ``.ci/run``'s ``lint-imports`` step does.

import-linter reads the package from the folder its top-level name is found in, and
the editable install finds the layers through an import hook it does not run (it would
see ``src/matchledger`` alone, and refuse: "Missing layer").  So the contracts are run
on the package laid out as an install lays it out (``package-dir``), made of links into
the repository, first on ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.helpers import REPO

PYPROJECT = REPO / "pyproject.toml"
CONFIG = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
CONTRACTS = [contract["name"] for contract in CONFIG["tool"]["importlinter"]["contracts"]]
_LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def installed_layout(into: Path, copied: str | None = None) -> Path:
    """``into``/matchledger laid out as an install lays it out, of links to the
    repository's folders; ``copied``: that layer (e.g. ``"engine"``) a copy instead, to
    change.  Returns the folder to put on ``PYTHONPATH``."""
    package_dir = CONFIG["tool"]["setuptools"]["package-dir"]
    for package, folder in sorted(package_dir.items(), key=lambda item: item[0].count(".")):
        source, target = REPO / folder, into.joinpath(*package.split("."))
        if "." not in package:  # the package's root: its own files, the layers beside them
            target.mkdir(parents=True)
            for entry in source.iterdir():
                if entry.name != "__pycache__":
                    (target / entry.name).symlink_to(entry)
        elif package == f"matchledger.{copied}":
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            target.symlink_to(source, target_is_directory=True)
    return into


def lint_imports(site: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` with the repository's contracts, on the package at ``site``."""
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-c", _LINT, str(PYPROJECT), "--no-cache", "--no-logo"],
        cwd=site,  # not the repository: its folders must not stand in for the package
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_layer_contract_is_kept(tmp_path):
    done = lint_imports(installed_layout(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    for name in CONTRACTS:
        assert f"{name} KEPT" in done.stdout
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in done.stdout


def test_an_engine_module_that_imports_upwards_does_io_or_reads_the_clock_breaks_the_contracts(tmp_path):
    site = installed_layout(tmp_path, copied="engine")
    (site / "matchledger" / "engine" / "scratch_violation.py").write_text(
        "import sqlite3\nimport time\n\nfrom matchledger.projections import fold\n", encoding="utf-8"
    )
    done = lint_imports(site)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"Contracts: 0 kept, {len(CONTRACTS)} broken." in done.stdout
    for imported in ("matchledger.projections.fold", "sqlite3", "time"):
        assert f"matchledger.engine.scratch_violation -> {imported}" in done.stdout
