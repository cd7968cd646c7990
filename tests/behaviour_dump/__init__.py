"""A dump of the CLI's observable behaviour, to prove a restructuring changes nothing.

    python -m tests.behaviour_dump OUT_DIR [--random 100] [--jobs 2] [--only NAME]

Plays every fixture and ``--random`` seeded random matches of each game through the
command line (in-process, through click's test runner, each match in its own database),
and writes, per match, one text file of everything a user can see:

- every command of the match, with its exit code, standard output and standard error
  (and the exception, should one escape: an internal error);
- probes: mutated and ill-formed commands (a wrong cell, a stranger's name, a bad seq,
  a bad ``--at``, a finished match ...), each run on a copy of the database so that one
  that succeeds changes nothing that follows;
- every read model (status, scores, outcome, reveals; knowledge and explain per
  participant) in every view (host, public, each participant) as ``--json`` at chosen
  seqs (every seq for the fixtures), and as text at some of them;
- log, head, verify, audit, export, rescore, diff, the SVG pictures and the replay page;

and ``_all.txt``: ``verify --all`` over one database holding every match.

Nothing here knows the code behind the CLI except two adapters below (where the click
group lives, and how to fix the clock so that event hashes do not change from run to
run).  Compare two dumps with ``diff -r A B``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from multiprocessing import Pool
from pathlib import Path

from .lca_and_fixtures import play_fixture, play_lca
from .pw_and_photographer import play_photographer, play_pw
from .session import FIXTURES, Session, fix_clock

# --------------------------------------------------------------------------- driver


def _play(job: tuple[str, str, int | str, str]) -> str:
    kind, name, arg, out_dir = job
    fix_clock()
    out_path = Path(out_dir) / f"{name}.txt"
    with tempfile.TemporaryDirectory() as folder, open(out_path, "w", encoding="utf-8") as out:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            s = Session(Path(folder), out, match_id=_match_id(kind, name, arg))
            {
                "fixture": lambda: play_fixture(Path(arg), s),
                "lca": lambda: play_lca(arg, s),
                "pw": lambda: play_pw(arg, s),
                "photographer": lambda: play_photographer(arg, s),
            }[kind]()
            s.run("export", "m", "-o", "export.jsonl", record=False)
            keep = Path(out_dir) / "_exports"
            if (Path(folder) / "export.jsonl").exists():
                shutil.copy(Path(folder) / "export.jsonl", keep / f"{name}.jsonl")
        finally:
            os.chdir(cwd)
    return name


def _match_id(kind: str, name: str, arg) -> str:
    if kind != "fixture":
        return name
    for line in Path(arg).read_text(encoding="utf-8").splitlines():
        if line.startswith("new "):
            return line.split()[2]
    raise ValueError(f"{arg}: no `new` line")


def jobs(random_per_game: int) -> list[tuple[str, str, int | str]]:
    found = []
    for path in sorted(FIXTURES.glob("*/*.txt")):
        text = path.read_text(encoding="utf-8")
        if any(line.startswith("new ") for line in text.splitlines()):
            found.append(("fixture", f"fixture-{path.parent.name}-{path.stem}", str(path)))
    for seed in range(random_per_game):
        for game in ("lca", "pw", "photographer"):
            found.append((game, f"{game}-{seed:03d}", seed))
    return found


def verify_all(out_dir: Path) -> None:
    """One database holding every exported match: `verify --all`, text and JSON."""
    fix_clock()
    with tempfile.TemporaryDirectory() as folder, open(out_dir / "_all.txt", "w", encoding="utf-8") as out:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            s = Session(Path(folder), out)
            for path in sorted((out_dir / "_exports").glob("*.jsonl")):
                renamed = path.read_text(encoding="utf-8")
                (Path(folder) / "in.jsonl").write_text(renamed, encoding="utf-8")
                s.run("import", "in.jsonl", label=f"$ [{path.stem}]")
            s.run("verify", "--all")
            s.run("verify", "--all", "--json")
        finally:
            os.chdir(cwd)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--random", type=int, default=100, help="random matches per game (default 100)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", help="only the matches whose name contains this")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "_exports").mkdir(exist_ok=True)
    todo = [(*job, str(args.out)) for job in jobs(args.random) if not args.only or args.only in job[1]]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            for name in pool.imap_unordered(_play, todo):
                print(name, file=sys.stderr)
    else:
        for job in todo:
            print(_play(job), file=sys.stderr)
    verify_all(args.out)
