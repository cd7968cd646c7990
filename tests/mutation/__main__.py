"""python -m tests.mutation [NAME ...] [--jobs N] [--list] [--suite] [--output]

For each mutant of ``mutants.py`` (or only those named): copy the tree, plant the bug,
run the mutant's tests there, and report it *killed* (a test failed), *error* (the
tests could not run: a collection or import error, which decides nothing), *timeout*,
or *survived* (every test passed: nothing decides that bug).  The unmutated copy must
pass the same tests first.  Exit 0 only when every mutant is killed.

``--suite`` runs the whole suite minus the reliability tests for each mutant instead of
its own tests: how the suite as a whole does, lucky catches included.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import tree
from .mutants import MUTANTS, Mutant

TIMEOUT_S = 600
WHOLE_SUITE = ("tests", "-m", "not reliability")
# pytest -rfE's summary lines: "FAILED <node id> - <message>" (a node id may hold spaces)
_FAILED = re.compile(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", re.MULTILINE)


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed | error | timeout | survived
    failed: list[str]  # the tests that failed (killed) or the errors (error)
    seconds: float
    output: str  # pytest's


def run_pytest(copy: Path, tests: tuple[str, ...]) -> tuple[int | None, str]:
    """pytest's exit code (None on timeout) and its output, run in ``copy``."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE", "--no-header", *tests]
    process = subprocess.Popen(
        command,
        cwd=copy,
        env=tree.environment(copy),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, so a timeout ends its children too
    )
    try:
        output, _ = process.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output
    return process.returncode, output


def run_mutant(mutant: Mutant, workdir: Path, suite: bool) -> Result:
    started = time.monotonic()
    copy = tree.copy_tree(workdir / mutant.name)
    try:
        tree.check_imports(copy)
        tree.plant(copy, mutant)
        code, output = run_pytest(copy, WHOLE_SUITE if suite else mutant.tests)
    finally:
        shutil.rmtree(copy)
    failed = _FAILED.findall(output)
    if code is None:
        status = "timeout"
    elif code == 0:
        status = "survived"
    elif code == 1:
        status = "killed"
    elif code == 5:
        raise RuntimeError(f"mutant {mutant.name}: no test collected from {mutant.tests}")
    else:  # 2, 3, 4: interrupted (collection errors), internal or usage error
        status = "error"
        failed = failed or [output.strip().splitlines()[-1] if output.strip() else f"exit {code}"]
    return Result(mutant, status, failed, time.monotonic() - started, output)


def baseline(mutants: list[Mutant], workdir: Path, suite: bool) -> None:
    """The unmutated copy passes every test the mutants run; else a kill means nothing."""
    copy = tree.copy_tree(workdir / "unmutated")
    tree.check_imports(copy)
    tests = WHOLE_SUITE if suite else tuple(dict.fromkeys(t for m in mutants for t in m.tests))
    code, output = run_pytest(copy, tests)
    if code != 0:
        sys.exit(f"the unmutated tree fails its tests (exit {code}); fix that first:\n{output}")


def report(results: list[Result], show_output: bool) -> None:
    if show_output:
        for r in results:
            print(f"==== {r.mutant.name}\n{r.output}")
    width = max(len(r.mutant.name) for r in results)
    for r in results:
        by = ", ".join(_short(t) for t in r.failed[:2]) + (f" (+{len(r.failed) - 2})" if len(r.failed) > 2 else "")
        print(f"{r.mutant.name:<{width}}  {r.status:<8}  {r.seconds:5.1f}s  {by}")
    counts = {s: sum(r.status == s for r in results) for s in ("killed", "error", "timeout", "survived")}
    print(", ".join(f"{n} {s}" for s, n in counts.items()) + f" of {len(results)} mutants")
    for r in results:
        if r.status != "killed":
            print(f"  {r.status}: {r.mutant.name} -- {r.mutant.bug} ({r.mutant.path})")


def _short(nodeid: str) -> str:
    return nodeid.removeprefix("tests/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__.split("\n\n")[1])
    parser.add_argument("names", nargs="*", help="only these mutants (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--list", action="store_true", help="list the mutants and their tests, run nothing")
    parser.add_argument("--suite", action="store_true", help="run the whole suite (minus reliability) per mutant")
    parser.add_argument("--output", action="store_true", help="print each mutant's pytest output first")
    args = parser.parse_args(argv)
    unknown = set(args.names) - {m.name for m in MUTANTS}
    if unknown:
        parser.error(f"no mutant named {', '.join(sorted(unknown))}")
    mutants = [m for m in MUTANTS if not args.names or m.name in args.names]
    for mutant in mutants:
        tree.check(mutant)  # a stale mutant is an error before anything runs
    if args.list:
        for m in mutants:
            print(f"{m.name}: {m.bug}\n    {m.path}\n    tests: {' '.join(m.tests)}")
        return 0
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        workdir = Path(tmp)
        baseline(mutants, workdir, args.suite)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda m: run_mutant(m, workdir, args.suite), mutants))
    report(results, args.output)
    return 0 if all(r.status == "killed" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
