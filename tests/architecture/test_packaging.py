"""An install holds one top-level name, ``matchledger`` (docs/design.md, "Installed names").

Generic names (``ledger``, ``engine``, ``commands``) collide with other distributions: one
of them overwriting our files would be a silent, permanent break.  So the code imports
the layers only as ``matchledger.<layer>``, the wheel's package list covers every folder
of them, and a real build installs nothing else.

And a release is self-contained: the sdist holds the tests and all they read, so that
an unpacked sdist runs them as a clone does, and the wheel carries the licence.
"""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LAYERS = ("ledger", "engine", "projections", "commands")


def _python_files():
    for folder in (*LAYERS, "src", "tests", "bench", "fixtures"):
        yield from sorted((REPO / folder).rglob("*.py"))


@pytest.mark.guarantee("one-way-in.one-package")
def test_no_module_imports_a_layer_by_its_bare_name():
    offenders = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            offenders += [
                f"{path.relative_to(REPO)}:{node.lineno} {name}" for name in names if name.split(".")[0] in LAYERS
            ]
    assert offenders == []


@pytest.mark.guarantee("one-way-in.one-package")
def test_the_wheel_lists_every_package_folder():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {".".join(init.parent.relative_to(REPO / "src").parts) for init in (REPO / "src").rglob("__init__.py")}
    assert {"matchledger", "matchledger.testing"} <= folders
    for layer in LAYERS:
        for init in (REPO / layer).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO).parts
            folders.add(".".join(("matchledger", *relative)))
    assert set(config["packages"]) == folders
    assert config["package-dir"] == {
        "matchledger": "src/matchledger",
        **{f"matchledger.{layer}": layer for layer in LAYERS},
    }


@pytest.mark.guarantee("one-way-in.one-package")
def test_a_real_install_puts_only_matchledger_into_site_packages(tmp_path):
    target = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0 and (
        "Could not find a version" in result.stderr or "connection" in result.stderr.lower()
    ):
        pytest.skip(
            f"cannot build a wheel here (no package index for the build requirements): {result.stderr.strip()[-200:]}"
        )
    assert result.returncode == 0, result.stderr
    top = sorted(p.name for p in target.iterdir() if not p.name.endswith(".dist-info") and p.name != "bin")
    assert top == ["matchledger"]
    env = {**os.environ, "PYTHONPATH": str(target)}

    def imports(name: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", f"import {name}"], cwd=tmp_path, env=env, capture_output=True, text=True
        )

    assert imports("matchledger.ledger.store").returncode == 0
    assert imports("matchledger.commands.cli").returncode == 0
    assert imports("matchledger.testing.history").returncode == 0
    assert imports("matchledger.testing.plugin").returncode == 0
    [dist_info] = target.glob("matchledger-*.dist-info")
    # pytest finds the plugin by this entry point (docs/snapshot-testing.md)
    assert "[pytest11]\nmatchledger = matchledger.testing.plugin" in (dist_info / "entry_points.txt").read_text()
    for layer in LAYERS:
        assert "No module named" in imports(layer).stderr
    demo = target / "matchledger" / "commands" / "demo" / "demo.txt"
    assert demo.is_file()  # package data travels with the package
    assert (target / "matchledger" / "py.typed").is_file()  # and the mark that its annotations are for checkers


# --------------------------------------------------------------------------- the sdist and the licence

#: What an unpacked sdist holds beside the packages, so that its tests run as a clone's
#: do (MANIFEST.in): the tests, the fixtures and snapshots they replay, the docs they
#: read (guarantees.md, the rules index), the example game, the benchmark.
SDIST_FOLDERS = ("tests", "fixtures", "docs", "examples", "bench")
SDIST_FILES = ("README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml")
#: sha256 of the Apache License 2.0 as the Apache Software Foundation publishes it
#: (LICENSE-2.0.txt), the text every distribution under it ships.
APACHE_2_0_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"
#: What a working tree holds that is no file of the project: the git folder, caches and
#: builds; and what a developer may leave there, a virtual environment and databases.
_NOT_SHIPPED = (".git", "build", "dist", "*.egg-info", "__pycache__", "*.py[cod]", ".*cache", ".hypothesis")
_LEFT_BY_A_DEVELOPER = (".venv", "venv", "*.db", "*.db-wal", "*.db-shm", "*.db-journal")


def _build_backend(hook: str, source: Path, out: Path, build_env: Path) -> Path:
    """Run setuptools' PEP 517 ``hook`` in ``source`` with the build requirements
    installed in ``build_env``, as a build frontend (pip, build) does."""
    out.mkdir()
    result = subprocess.run(
        [sys.executable, "-c", f"import setuptools.build_meta as b; print(b.{hook}({str(out)!r}))"],
        cwd=source,
        env={**os.environ, "PYTHONPATH": str(build_env)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return out / result.stdout.split()[-1]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the source copy, the sdist, the wheel built from the unpacked sdist), from a copy
    of the repository (a build writes into the tree it builds)."""
    tmp = tmp_path_factory.mktemp("packaging")
    requires = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    build_env = tmp / "build-env"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(build_env), *requires],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0 and (
        "Could not find a version" in result.stderr or "connection" in result.stderr.lower()
    ):
        pytest.skip(f"cannot install the build requirements {requires} here: {result.stderr.strip()[-200:]}")
    assert result.returncode == 0, result.stderr
    source = tmp / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*_NOT_SHIPPED, *_LEFT_BY_A_DEVELOPER))
    sdist = _build_backend("build_sdist", source, tmp / "sdist", build_env)
    with tarfile.open(sdist) as archive:
        # the "data" filter (3.11.4 on) refuses links and paths out of the folder
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(tmp / "unpacked", **safe)
    [unpacked] = (tmp / "unpacked").iterdir()
    wheel = _build_backend("build_wheel", unpacked, tmp / "wheel", build_env)
    return source, unpacked, wheel


def test_the_sdist_holds_every_file_the_tests_docs_and_examples_need(built):
    source, unpacked, _ = built
    missing = [name for name in SDIST_FILES if not (unpacked / name).is_file()]
    for folder in SDIST_FOLDERS:
        assert (source / folder).is_dir(), folder
        missing += [
            path.relative_to(source).as_posix()
            for path in sorted((source / folder).rglob("*"))
            if path.is_file() and not (unpacked / path.relative_to(source)).is_file()
        ]
    assert missing == [], f"MANIFEST.in leaves these out of the sdist: {missing[:20]}"
    assert (unpacked / "tests" / "traceability" / "test_traceability.py").is_file()
    assert (unpacked / "engine" / "lca" / "rules.md").is_file()


def test_the_wheel_built_from_the_sdist_carries_the_licence_in_its_metadata(built):
    _, _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        dist_info = next(name.split("/")[0] for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        metadata = archive.read(f"{dist_info}/METADATA").decode("utf-8")
        licence = archive.read(f"{dist_info}/licenses/LICENSE")
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert "License-File: LICENSE" in metadata.splitlines()
    assert licence == (REPO / "LICENSE").read_bytes()


def test_the_licence_is_the_apache_license_2_0_verbatim():
    assert hashlib.sha256((REPO / "LICENSE").read_bytes()).hexdigest() == APACHE_2_0_SHA256
