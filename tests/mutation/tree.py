"""A copy of the repository to plant one bug in, importable as ``matchledger``.

The worktree is never edited.  Each copy gets its own ``site/matchledger`` folder laid
out as an install would lay it out (``pyproject.toml``'s ``package-dir``: the layer
folders beneath the package's root), made of symlinks into the copy.  With that folder
first on ``PYTHONPATH`` every ``matchledger.*`` import finds the copy: an editable
install's finder comes after the path entries, so the installed worktree is never
reached (``check_imports`` proves it for each copy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from .mutants import Mutant

REPO = Path(__file__).resolve().parents[2]

# What a copy leaves out: history, caches, builds, databases (as .gitignore does).
_SKIP = shutil.ignore_patterns(
    ".git", "build", "__pycache__", "*.egg-info", ".hypothesis", ".pytest_cache", ".venv", "*.db", "*.db-*"
)


def copy_tree(into: Path) -> Path:
    """A copy of the worktree (as it is now, uncommitted changes included) at ``into``."""
    shutil.copytree(REPO, into, ignore=_SKIP, symlinks=True)
    _build_site(into)
    return into


def site(tree: Path) -> Path:
    return tree / ".mutation-site"


def environment(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(site(tree))
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no cache of a mutant outlives its run
    env["CI"] = "true"  # hypothesis explores the same examples every run
    return env


def _build_site(tree: Path) -> None:
    with open(tree / "pyproject.toml", "rb") as file:
        package_dir = tomllib.load(file)["tool"]["setuptools"]["package-dir"]
    root = site(tree)
    for package, folder in sorted(package_dir.items(), key=lambda item: item[0].count(".")):
        target = root.joinpath(*package.split("."))
        if package.count(".") == 0:  # the package's root: its own files, beside the layers
            target.mkdir(parents=True)
            for entry in (tree / folder).iterdir():
                if entry.name != "__pycache__":
                    (target / entry.name).symlink_to(entry)
        else:
            target.symlink_to(tree / folder, target_is_directory=True)


def check_imports(tree: Path) -> None:
    """Fail unless ``matchledger``'s layers import from ``tree``'s copy."""
    probe = "import matchledger.ledger.store as s, matchledger.engine as e; print(s.__file__); print(e.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tree, env=environment(tree), capture_output=True, text=True, check=True
    ).stdout.split()
    stray = [path for path in out if not path.startswith(str(site(tree)))]
    if stray:
        raise RuntimeError(f"matchledger imports from {stray}, not from the copy at {tree}")


def plant(tree: Path, mutant: Mutant) -> None:
    """Write ``mutant`` into the copy's file (its ``before`` occurs there exactly once)."""
    path = tree / mutant.path
    text = path.read_text()
    check(mutant, text)
    path.write_text(text.replace(mutant.before, mutant.after))


def check(mutant: Mutant, text: str | None = None) -> None:
    """Raise unless ``mutant.before`` occurs exactly once in its file (else the list is stale)."""
    if text is None:
        text = (REPO / mutant.path).read_text()
    found = text.count(mutant.before)
    if found != 1:
        raise ValueError(f"mutant {mutant.name}: {mutant.before!r} occurs {found} times in {mutant.path}, not once")
