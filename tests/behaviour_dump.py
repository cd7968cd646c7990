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
import contextlib
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
from multiprocessing import Pool
from pathlib import Path

from click.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
FIXED_TIME = "2024-01-01T12:00:00.000000Z"
ACTOR = "host1"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim"]
GUESTS = ["zed", "yul", "xio", "wim", "vik", "ura", "tof"]
PW_TYPES = ("gift", "learn", "predict", "swap", "unique", "watch")


# --------------------------------------------------------------------------- adapters


def _cli():
    """The click group (the pre-renovation layout named its package ``commands``)."""
    import importlib

    for name in ("matchledger.commands.cli", "commands.cli"):
        try:
            return importlib.import_module(name).cli
        except ImportError:
            continue
    raise SystemExit("behaviour_dump: cannot find the command line")


def _fix_clock() -> None:
    """Every event recorded at FIXED_TIME (the one place that knows where the clock is)."""
    patched = False
    for module_name, class_name in (
        ("matchledger.projections.application", "Application"),
        ("matchledger.projections.app", "Ledger"),
        ("projections.app", "Ledger"),
    ):
        try:
            module = __import__(module_name, fromlist=[class_name])
        except ImportError:
            continue
        cls = getattr(module, class_name, None)
        if cls is None:
            continue
        defaults = dict(cls.__init__.__kwdefaults__ or {})
        if "clock" in defaults:
            defaults["clock"] = lambda: FIXED_TIME
            cls.__init__.__kwdefaults__ = defaults
            patched = True
    if not patched:
        raise SystemExit("behaviour_dump: cannot find the application's clock to fix it")


# --------------------------------------------------------------------------- running


class Session:
    """One match in one database: runs commands and writes what they print."""

    def __init__(self, folder: Path, out, match_id: str = "m"):
        self.folder = folder
        self.match_id = match_id
        self.db = "m.db"
        self.out = out
        self.cli = _cli()
        self.runner = CliRunner()
        self.probe_count = 0

    def run(self, *args: str, db: str | None = None, record: bool = True, label: str = "$"):
        # "m" stands for this session's match id (each match keeps its own id, so that
        # they can all be imported into one database at the end)
        args = [self.match_id if a == "m" else str(a) for a in args]
        result = self.runner.invoke(self.cli, ["--db", db or self.db, "--actor", ACTOR, *args], catch_exceptions=True)
        if record:
            self.out.write(f"{label} {' '.join(args)}\n[exit {result.exit_code}]\n")
            if result.stdout:
                self.out.write(result.stdout if result.stdout.endswith("\n") else result.stdout + "\n")
            if result.stderr:
                self.out.write("--stderr--\n" + result.stderr + ("" if result.stderr.endswith("\n") else "\n"))
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                self.out.write(f"--exception-- {type(result.exception).__name__}: {result.exception}\n")
        return result

    def json(self, *args: str):
        result = self.run(*args, "--json", record=False)
        if result.exit_code != 0:
            return None
        return json.loads(result.stdout)

    def probe(self, *args: str) -> None:
        """Run on a copy of the database: whatever it does, the match goes on unchanged."""
        self.probe_count += 1
        copy = f"probe{self.probe_count % 2}.db"
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.folder / (copy + suffix))
        if (self.folder / self.db).exists():
            source = sqlite3.connect(self.folder / self.db)
            target = sqlite3.connect(self.folder / copy)
            source.backup(target)
            source.close()
            target.close()
        self.run(*args, db=copy, label="probe$")

    def head_seq(self) -> int:
        data = self.json("head", "m")
        return data["seq"] if data else 0


# --------------------------------------------------------------------------- what is dumped


def participants_of(s: Session) -> list[str]:
    """Every participant, in the order the knowledge views are dumped (host status)."""
    status = s.json("status", "m") or {}
    names = list(status.get("players") or [])
    if status.get("game") == "pw":
        names += [pair["guest"] for pair in status.get("pairs", [])]
    if status.get("game") == "photographer":
        names = [p["participant"] for p in status.get("players", [])]
    return names


def dump_reads(s: Session, seqs: list[int], text_seqs: set[int], all_views_at: set[int] | None = None) -> None:
    names = participants_of(s)
    final = s.head_seq()
    for seq in seqs:
        at = [] if seq == final else ["--at", str(seq)]
        views = [[], ["--public"]]
        chosen = names if all_views_at is None or seq in all_views_at else names[:1]
        views += [["--as", n] for n in chosen]
        s.out.write(f"=== reads at seq {seq}\n")
        for model in ("status", "scores", "outcome", "reveals"):
            for view in views:
                s.run(model, "m", *view, *at, "--json")
                if seq in text_seqs:
                    s.run(model, "m", *view, *at)
        for name in chosen:
            s.run("knowledge", "m", "--as", name, *at, "--json")
            if seq in text_seqs:
                s.run("knowledge", "m", "--as", name, *at)
            s.run("explain", "m", name, *at, "--json")
            if seq in text_seqs:
                s.run("explain", "m", name, *at)


def dump_audit(s: Session, rng: random.Random, pictures: bool) -> None:
    names = participants_of(s)
    final = s.head_seq()
    s.out.write("=== audit\n")
    for args in (
        ["log", "m"], ["log", "m", "--json"], ["log", "m", "--at", "2"], ["head", "m"], ["head", "m", "--json"],
        ["verify", "m"], ["verify", "m", "--json"], ["audit", "m"], ["audit", "m", "--json"], ["export", "m"],
        ["diff", "m", "m"], ["diff", "m", "m", "--json"], ["checkpoint", "m"], ["verify", "m"],
    ):
        s.run(*args)
    head = s.json("head", "m")
    if head:
        s.run("verify", "m", "--head", f"{head['seq']}:{head['hash']}")
        s.run("verify", "m", "--head", f"{max(1, head['seq'] - 1)}:{head['hash']}")
        s.run("verify", "m", "--head", f"{head['seq'] + 1}:{head['hash']}")
    status = s.json("status", "m") or {}
    rescore = {
        "lca": ["--option", "filming_lights_divisor=1", "--option", "diamond_center_must_be_empty=false"],
        "photographer": ["--option", "row_points=1:2,2:4,3:6,4:8,5:10,6:12,7:14"],
    }.get(status.get("game"))
    if rescore:
        s.run("rescore", "m", *rescore)
        s.run("rescore", "m", *rescore, "--json")
    if pictures:
        views = [[], ["--public"]] + ([["--as", names[0]]] if names else [])
        for view in views:
            s.run("render", "m", *view, "-o", "pic.svg")
            s.out.write((s.folder / "pic.svg").read_text(encoding="utf-8") if (s.folder / "pic.svg").exists() else "(no svg)\n")
            with contextlib.suppress(FileNotFoundError):
                os.unlink(s.folder / "pic.svg")
            s.run("report", "m", *view, "-o", "page.html")
            s.out.write((s.folder / "page.html").read_text(encoding="utf-8") if (s.folder / "page.html").exists() else "(no page)\n")
            with contextlib.suppress(FileNotFoundError):
                os.unlink(s.folder / "page.html")
        if final > 2:
            s.run("render", "m", "--public", "--at", str(final // 2), "-o", "mid.svg")
            s.out.write((s.folder / "mid.svg").read_text(encoding="utf-8") if (s.folder / "mid.svg").exists() else "(no svg)\n")
    # views and seqs no one may ask for
    for args in (
        ["status", "m", "--as", "nobody"], ["knowledge", "m", "--as", "Nobody"], ["status", "m", "--at", "0"],
        ["status", "m", "--at", str(final + 1)], ["outcome", "m", "--public", "--as", names[0] if names else "x"],
        ["explain", "m", "nobody"], ["status", "nomatch"], ["log", "nomatch"], ["verify", "nomatch"],
        ["export", "nomatch"], ["head", "nomatch"], ["audit", "nomatch"], ["reveals", "m", "--as", ""],
        ["verify", "m", "--head", "1:abc"], ["void", "m", str(final + 5), "--reason", "x"], ["void", "m", "1", "--reason", "x"],
        ["submit", "m", "nobody", "x"], ["close", "m"], ["note", "m", ""], ["amend", "m", "--option", "bogus=1", "--from-round", "1", "--reason", "r"],
    ):
        s.probe(*args)
    if names:
        s.probe("submit", "m", rng.choice(names), "B2")
        s.probe("contract", "m", names[0], "lights")


def _seqs(s: Session, rng: random.Random, boundaries: list[int], extra: int) -> list[int]:
    final = s.head_seq()
    chosen = {seq for seq in boundaries if 1 <= seq <= final} | {1, final}
    population = list(range(1, final + 1))
    chosen |= set(rng.sample(population, min(extra, len(population))))
    return sorted(chosen)


def _recorded_seqs(result) -> list[int]:
    """The seqs a write command says it recorded ('recorded seq 7 (...)', 'seq 7–9')."""
    text = result.stdout
    marker = "recorded seq "
    if marker not in text:
        return []
    rest = text.split(marker, 1)[1].split(" ", 1)[0]
    first, _, last = rest.partition("–")
    try:
        return list(range(int(first), int(last or first) + 1))
    except ValueError:
        return []


# --------------------------------------------------------------------------- fixtures


def play_fixture(path: Path, s: Session) -> None:
    import shlex

    os.symlink(FIXTURES, s.folder / "fixtures")
    closes = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        args = shlex.split(line, comments=True)
        result = s.run(*args)
        if args[0] in ("close", "submit") and result.exit_code == 0:
            closes.append(s.head_seq())
    final = s.head_seq()
    rng = random.Random(path.name)
    every = list(range(1, final + 1))
    dump_reads(s, every, set(closes) | {final}, all_views_at=set(closes[-4:]) | {final, 1})
    dump_audit(s, rng, pictures=True)


# --------------------------------------------------------------------------- random lca


def play_lca(seed: int, s: Session) -> None:
    rng = random.Random(f"lca-{seed}")
    width, height = rng.randint(5, 14), rng.randint(5, 13)
    grid = [["#" if rng.random() < 0.1 else "." for _ in range(width)] for _ in range(height)]
    (s.folder / "studio.txt").write_text("\n".join("".join(row) for row in grid) + "\n", encoding="utf-8")
    floor = [f"{_col(c)}{r + 1}" for r in range(height) for c in range(width) if grid[r][c] == "."]
    players = NAMES[: rng.randint(2, 11)]
    options = []
    if rng.random() < 0.3:
        options += ["--option", f"filming_lights_divisor={rng.choice([1, 2, 3])}"]
    if rng.random() < 0.3:
        options += ["--option", f"lights_light_lights={rng.choice(['true', 'false'])}"]
    if rng.random() < 0.3:
        options += ["--option", f"diamond_center_must_be_empty={rng.choice(['true', 'false'])}"]
    s.run("new", "lca", "m", "--players", ",".join(players), "--studio", "studio.txt", *options)
    for p in players:
        if rng.random() < 0.7:
            names = [rng.choice(["lights", "camera", "action"])] + (["supremacy"] if rng.random() < 0.3 else [])
            s.run("contract", "m", p, *names)
    s.probe("contract", "m", players[0], "lights", "camera")
    closes = []
    submitted: list[int] = []
    for round_no in (1, 2, 3):
        lights = []
        if round_no == 3:
            lights = ((s.json("reveals", "m", "--public") or {}).get("rounds") or [{}])[0].get("public", {}).get("lights", [])
        for p in players:
            if rng.random() < 0.08:
                continue  # forgot to submit
            for _attempt in range(4):
                tokens = _lca_tokens(rng, round_no, floor, width, height, lights)
                if rng.random() < 0.1:
                    s.probe("submit", "m", p, *tokens[:-1])
                result = s.run("submit", "m", p, *tokens)
                if result.exit_code == 0:
                    submitted += _recorded_seqs(result)
                    break
        if submitted and rng.random() < 0.3:
            target = rng.choice(submitted)
            if rng.random() < 0.5:
                s.run("void", "m", str(target), "--reason", "wrong player")
            else:
                s.run("correct", "m", str(target), *_lca_tokens(rng, round_no, floor, width, height, lights), "--reason", "typo")
        if round_no == 2 and rng.random() < 0.3:
            s.run("amend", "m", "--option", f"filming_lights_divisor={rng.choice([1, 2, 4])}", "--from-round", "3", "--reason", "card Amendment")
        if rng.random() < 0.15:
            s.run("note", "m", f"round {round_no} DMs were late")
        if rng.random() < 0.1:
            _hand_scored_close(s, rng)
        else:
            s.run("close", "m")
        closes.append(s.head_seq())
        if round_no < 3 and submitted and rng.random() < 0.15:
            target = rng.choice(submitted)
            s.run("correct", "m", str(target), *_lca_tokens(rng, round_no, floor, width, height, lights), "--reopen", "--reason", "found late")
            s.run("close", "m")
            closes.append(s.head_seq())
        submitted = []
    s.probe("submit", "m", players[0], "B2", "C3", "D4", "E5", "F6")
    dump_reads(s, _seqs(s, rng, closes, 2), {closes[0], s.head_seq()})
    dump_audit(s, rng, pictures=seed % 10 == 0)


def _col(c: int) -> str:
    letters = ""
    n = c + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def _lca_tokens(rng, round_no, floor, width, height, lights) -> list[str]:
    if round_no == 1:
        cells = rng.sample(floor, min(5, len(floor)))
        if rng.random() < 0.05:
            cells[0] = f"{_col(width)}{height}"  # outside the studio
        return cells
    if round_no == 2:
        centres = []
        for _ in range(3):
            r, c = rng.randint(1, max(1, height - 2)), rng.randint(1, max(1, width - 2))
            centres.append(f"{_col(c)}{r + 1}")
        return centres
    free = [cell for cell in floor if cell not in lights]
    return rng.sample(free, min(3, len(free)))


def _hand_scored_close(s: Session, rng: random.Random) -> None:
    """Close with an announcement the host typed: the computed one, sometimes altered."""
    s.probe("close", "m")
    copy = f"probe{s.probe_count % 2}.db"
    reveals = s.runner.invoke(s.cli, ["--db", copy, "reveals", s.match_id, "--json"])
    try:
        last = json.loads(reveals.stdout)["rounds"][-1]
    except (ValueError, KeyError, IndexError):
        s.run("close", "m")
        return
    announced = {"public": last.get("public", {}), "private": last.get("private", {})}
    if rng.random() < 0.5 and announced["private"]:
        who = sorted(announced["private"])[0]
        for key, value in sorted(announced["private"][who].items()):
            if isinstance(value, int):
                announced["private"][who][key] = value + 1
                break
    (s.folder / "announced.json").write_text(json.dumps(announced), encoding="utf-8")
    s.run("close", "m", "--announced", "announced.json")


# --------------------------------------------------------------------------- random pw


def play_pw(seed: int, s: Session) -> None:
    rng = random.Random(f"pw-{seed}")
    n = rng.randint(2, 7)
    players = NAMES[:n]
    guests = GUESTS[:n]
    rng.shuffle(guests)
    pairs = dict(zip(players, guests))
    partner = {**pairs, **{g: p for p, g in pairs.items()}}
    everyone = players + guests
    s.run("new", "pw", "m", "--players", ",".join(players), *[a for p in players for a in ("--pair", f"{p}={pairs[p]}")])
    for p in players:
        names = [rng.choice(["diversity", "generosity", "espionage"])]
        if rng.random() < 0.5:
            names.append("sabotage:" + rng.choice([q for q in players if q != p]))
        s.run("contract", "m", p, *names)
    schedules = {p: _type_schedule(rng) for p in players}
    closes = []
    for r in range(3):
        subs = []
        for p in players:
            for member, types in ((p, schedules[p][r][0]), (pairs[p], schedules[p][r][1])):
                banned = {member, partner[member]}
                targets = rng.sample([x for x in everyone if x not in banned], 2)
                tokens = [f"predict:{t}={rng.choice(PW_TYPES)}" if k == "predict" else f"{k}:{t}" for k, t in zip(types, targets)]
                if r == 2:
                    same = players if member in players else guests
                    other = guests if member in players else players
                    for guessed in same:
                        if guessed != member and rng.random() < 0.5:
                            tokens.append(f"guess:{guessed}={rng.choice(other)}")
                subs.append((member, tokens))
        rng.shuffle(subs)
        seqs = []
        for index, (member, tokens) in enumerate(subs):
            if rng.random() < 0.05:
                s.probe("submit", "m", member, f"gift:{member}", tokens[1])
            if rng.random() < 0.05:
                s.probe("submit", "m", member, tokens[0], tokens[0])
            if index == len(subs) - 1:
                s.probe("close", "m")  # W5: someone is missing
            result = s.run("submit", "m", member, *tokens)
            seqs += [(seq, member, tokens) for seq in _recorded_seqs(result)]
        if seqs and rng.random() < 0.25:
            seq, member, tokens = rng.choice(seqs)
            s.run("correct", "m", str(seq), *tokens, "--reason", "same again")
        if rng.random() < 0.1:
            _hand_scored_close(s, rng)
        else:
            s.run("close", "m")
        closes.append(s.head_seq())
        if r < 2 and seqs and rng.random() < 0.1:
            seq, member, tokens = rng.choice(seqs)
            s.run("correct", "m", str(seq), *tokens, "--reopen", "--reason", "reopened")
            s.run("close", "m")
            closes.append(s.head_seq())
    dump_reads(s, _seqs(s, rng, closes, 2), {closes[0], s.head_seq()})
    dump_audit(s, rng, pictures=seed % 10 == 0)


def _type_schedule(rng: random.Random) -> list[tuple[list[str], list[str]]]:
    import itertools

    pool = [t for t in PW_TYPES for _ in range(2)]
    rng.shuffle(pool)
    rounds = []
    for r in range(3):
        chunk = pool[4 * r : 4 * r + 4]
        splits = []
        for pick in itertools.combinations(range(4), 2):
            a = [chunk[i] for i in pick]
            b = [chunk[i] for i in range(4) if i not in pick]
            if not set(a) & set(b):
                splits.append((a, b))
        rounds.append(rng.choice(splits))
    return rounds


# --------------------------------------------------------------------------- random photographer


def play_photographer(seed: int, s: Session) -> None:
    rng = random.Random(f"photographer-{seed}")
    players = NAMES[: rng.randint(2, 4)]
    options = []
    wind_required = rng.random() < 0.7
    if not wind_required:
        options += ["--option", "wind_required=false"]
    if rng.random() < 0.3:
        options += ["--option", "end_trigger=sunset"]
    if rng.random() < 0.15:
        options += ["--option", "row_points=1:1,2:2,3:4,4:7,5:11,6:16,7:22"]
    hand_scored = rng.random() < 0.1
    if hand_scored:
        options += ["--option", "hand_scored=true"]
    s.run("new", "photographer", "m", "--players", ",".join(players), "--seed", str(rng.randint(0, 2**32)), *options)
    turns = []
    for _ in range(400):
        status = s.json("status", "m")
        if status is None or status["phase"] == "finished":
            break
        who = status["to_play"]
        hand = len(status["hands"][who])
        if status["phase"] == "main":
            rows = [r for r, row in enumerate(status["table"], start=1) if any(place for place in row)]
            row = rng.choice(rows)
            in_row = sum(1 for place in status["table"][row - 1] if place)
            count = rng.randint(1, min(3, in_row))
            size = hand + count
            tokens = ["take", str(row), rng.choice(["left", "right"]), str(count)]
        else:
            size, tokens = hand, []
        if (wind_required or rng.random() < 0.7) and size >= 2:
            frm = rng.randint(1, size - 1)
            tokens += ["wind", f"{frm}:{rng.randint(frm + 1, size)}"]
        if rng.random() < 0.05:
            other = [p for p in players if p != who]
            s.probe("submit", "m", rng.choice(other), *tokens)
        if rng.random() < 0.03 and status["phase"] == "main":
            s.probe("submit", "m", who, "take", "9", "left", "1", "wind", "1:2")
        if rng.random() < 0.03:
            s.probe("submit", "m", who, *tokens[:-2], "wind", f"{size}:{size + 1}")
        result = s.run("submit", "m", who, *tokens)
        if result.exit_code != 0:
            break
        turns.append(s.head_seq())
    if hand_scored:
        outcome = s.json("outcome", "m") or {}
        if outcome.get("standings") and rng.random() < 0.5:
            outcome["standings"][0]["total"] += 1
        (s.folder / "final.json").write_text(json.dumps(outcome), encoding="utf-8")
        s.run("outcome", "m", "--announced", "final.json")
    s.probe("void", "m", str(turns[0] if turns else 1), "--reason", "typo")
    s.probe("close", "m")
    picks = turns[:: max(1, len(turns) // 4)]
    dump_reads(s, _seqs(s, rng, picks, 2), {picks[len(picks) // 2] if picks else 1, s.head_seq()})
    dump_audit(s, rng, pictures=seed % 10 == 0)


# --------------------------------------------------------------------------- driver


def _play(job: tuple[str, str, int | str, str]) -> str:
    kind, name, arg, out_dir = job
    _fix_clock()
    out_path = Path(out_dir) / f"{name}.txt"
    with tempfile.TemporaryDirectory() as folder, open(out_path, "w", encoding="utf-8") as out:
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            s = Session(Path(folder), out, match_id=_match_id(kind, name, arg))
            {"fixture": lambda: play_fixture(Path(arg), s), "lca": lambda: play_lca(arg, s),
             "pw": lambda: play_pw(arg, s), "photographer": lambda: play_photographer(arg, s)}[kind]()
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
    _fix_clock()
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


if __name__ == "__main__":
    main()
