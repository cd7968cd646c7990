"""An install holds one top-level name, ``matchledger`` (DESIGN.md, "Installed names").

Generic names (``ledger``, ``engine``, ``commands``) collide with other distributions: one
of them overwriting our files would be a silent, permanent break.  So the code imports
the layers only as ``matchledger.<layer>``, the wheel's package list covers every folder
of them, and a real build installs nothing else.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
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
