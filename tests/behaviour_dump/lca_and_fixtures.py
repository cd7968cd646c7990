"""Playing the fixtures and random lca matches through the command line."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from .dumped import chosen_seqs, dump_audit, dump_reads, recorded_seqs
from .session import FIXTURES, NAMES, Session

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
            lights = (
                ((s.json("reveals", "m", "--public") or {}).get("rounds") or [{}])[0]
                .get("public", {})
                .get("lights", [])
            )
        for p in players:
            if rng.random() < 0.08:
                continue  # forgot to submit
            for _attempt in range(4):
                tokens = _lca_tokens(rng, round_no, floor, width, height, lights)
                if rng.random() < 0.1:
                    s.probe("submit", "m", p, *tokens[:-1])
                result = s.run("submit", "m", p, *tokens)
                if result.exit_code == 0:
                    submitted += recorded_seqs(result)
                    break
        if submitted and rng.random() < 0.3:
            target = rng.choice(submitted)
            if rng.random() < 0.5:
                s.run("void", "m", str(target), "--reason", "wrong player")
            else:
                s.run(
                    "correct",
                    "m",
                    str(target),
                    *_lca_tokens(rng, round_no, floor, width, height, lights),
                    "--reason",
                    "typo",
                )
        if round_no == 2 and rng.random() < 0.3:
            s.run(
                "amend",
                "m",
                "--option",
                f"filming_lights_divisor={rng.choice([1, 2, 4])}",
                "--from-round",
                "3",
                "--reason",
                "card Amendment",
            )
        if rng.random() < 0.15:
            s.run("note", "m", f"round {round_no} DMs were late")
        if rng.random() < 0.1:
            hand_scored_close(s, rng)
        else:
            s.run("close", "m", *forced(s))
        closes.append(s.head_seq())
        if round_no < 3 and submitted and rng.random() < 0.15:
            target = rng.choice(submitted)
            s.run(
                "correct",
                "m",
                str(target),
                *_lca_tokens(rng, round_no, floor, width, height, lights),
                "--reopen",
                "--reason",
                "found late",
            )
            s.run("close", "m", *forced(s))
            closes.append(s.head_seq())
        submitted = []
    s.probe("submit", "m", players[0], "B2", "C3", "D4", "E5", "F6")
    dump_reads(s, chosen_seqs(s, rng, closes, 2), {closes[0], s.head_seq()})
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


def forced(s: Session) -> list[str]:
    """What `close` needs when players have not submitted (lca lets them place nothing)."""
    waiting = (s.json("status", "m") or {}).get("waiting_for")
    return ["--force", "--reason", "forgot to submit"] if waiting else []


def hand_scored_close(s: Session, rng: random.Random) -> None:
    """Close with an announcement the host typed: the computed one, sometimes altered."""
    force = forced(s)
    s.probe("close", "m", *force)
    copy = f"probe{s.probe_count % 2}.db"
    reveals = s.runner.invoke(s.cli, ["--db", copy, "reveals", s.match_id, "--json"])
    try:
        last = json.loads(reveals.stdout)["rounds"][-1]
    except (ValueError, KeyError, IndexError):
        s.run("close", "m", *force)
        return
    announced = {"public": last.get("public", {}), "private": last.get("private", {})}
    if rng.random() < 0.5 and announced["private"]:
        who = sorted(announced["private"])[0]
        for key, value in sorted(announced["private"][who].items()):
            if isinstance(value, int):
                announced["private"][who][key] = value + 1
                break
    (s.folder / "announced.json").write_text(json.dumps(announced), encoding="utf-8")
    s.run("close", "m", "--announced", "announced.json", *force)
