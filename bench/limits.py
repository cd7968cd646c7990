"""Every command on the largest input the limits allow, next to the same command on a
small match: elapsed time and peak memory of each process.

``python -m bench --limits`` builds, for each game, a match at the limits of
``ledger/limits.py`` (lca: a 40 x 40 studio and 26 players; pw: 13 pairs; photographer:
4 players; every name 40 characters long, the actor 64, a 2,000-character note after
every command) and a small match of the same game (3 players or pairs, short names, the
a 6 x 6 studio), plays both to the end, and runs each read and audit
command once on each in a fresh process.  The ratio column is largest / small: what the
limits cost.  Nothing is asserted.
"""

from __future__ import annotations

import os
import random
import string
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from .measure import Row, fresh_database
from .processes import _cli_command

LONG_ACTOR = "h" * 64


def _long_names(count: int, prefix: str) -> list[str]:
    """``count`` distinct names of the longest length allowed (40)."""
    from matchledger.ledger.limits import NAME_MAX_LENGTH

    return [f"{prefix}{i:02d}".ljust(NAME_MAX_LENGTH, string.ascii_lowercase[i % 26]) for i in range(count)]


@contextmanager
def _names(module, **lists):
    """The sampler module's name lists replaced for one build (samplers draw names from them)."""
    saved = {key: getattr(module, key) for key in lists}
    for key, value in lists.items():
        setattr(module, key, value)
    try:
        yield
    finally:
        for key, value in saved.items():
            setattr(module, key, value)


def _play(path: Path, sample, note: str) -> None:
    from matchledger.engine.commands import AddNote
    from matchledger.ledger.store import Store
    from matchledger.projections.application import Application
    from matchledger.projections.fold import InMemoryMatch

    fresh_database(path)
    app = Application(Store(path), actor=LONG_ACTOR)
    app.create(sample.create)
    match = InMemoryMatch(sample.create)
    match_id = sample.create.match_id
    while not match.state.finished:
        cmd = sample.next_command(match.state)
        if cmd is None:
            break
        match.do(cmd)
        app.execute(match_id, cmd)
        if note:  # in both, so that the sampler's corrections name the right seqs
            match.do(AddNote(note))
            app.execute(match_id, AddNote(note))
    app.store.close()


def _studio(width: int, height: int) -> str:
    return "".join("." * width + "\n" for _ in range(height))


def build(tmp: Path, largest: bool) -> dict[str, tuple[Path, str, str]]:
    """{game: (database, match id, a participant)} for the largest or the small matches."""
    from matchledger import engine
    from matchledger.engine.lca import sample as lca_sample
    from matchledger.engine.photographer import sample as photo_sample
    from matchledger.engine.pw import sample as pw_sample
    from matchledger.engine.lca.spec import STUDIO_MAX_SIDE
    from matchledger.ledger.limits import PARTICIPANTS_MAX, TEXT_MAX_LENGTH

    rng = random.Random(7)
    note = ("n" * TEXT_MAX_LENGTH) if largest else ""
    label = "largest" if largest else "small"
    out = {}

    players = _long_names(PARTICIPANTS_MAX, "p") if largest else ["ann", "bob", "cat"]
    side = STUDIO_MAX_SIDE if largest else 6
    with _names(lca_sample, PLAYERS=players):
        lca = engine.get("lca").sample(rng, match_id="lca", n_players=len(players), studio=_studio(side, side))
    _play(tmp / f"lca-{label}.db", lca, note)
    out["lca"] = (tmp / f"lca-{label}.db", "lca", players[0])

    pairs = PARTICIPANTS_MAX // 2 if largest else 3
    hosts = _long_names(pairs, "p") if largest else pw_sample.PLAYERS[:pairs]
    guests = _long_names(pairs, "g") if largest else pw_sample.GUESTS[:pairs]
    with _names(pw_sample, PLAYERS=hosts, GUESTS=guests):
        pw = engine.get("pw").sample(rng, match_id="pw", n=pairs)
    _play(tmp / f"pw-{label}.db", pw, note)
    out["pw"] = (tmp / f"pw-{label}.db", "pw", guests[0])

    seats = _long_names(4, "p") if largest else ["ann", "bob"]
    with _names(photo_sample, PLAYERS=seats):
        photo = engine.get("photographer").sample(rng, match_id="ph", n_players=len(seats), seed=11, options={})
    _play(tmp / f"photographer-{label}.db", photo, note)
    out["photographer"] = (tmp / f"photographer-{label}.db", "ph", seats[0])
    return out


def _commands(match_id: str, participant: str, out: Path) -> list[tuple[str, list[str]]]:
    return [
        ("status", ["status", match_id]),
        ("scores", ["scores", match_id]),
        ("outcome --json", ["outcome", match_id, "--json"]),
        ("reveals", ["reveals", match_id]),
        ("knowledge --as", ["knowledge", match_id, "--as", participant]),
        ("log", ["log", match_id]),
        ("render svg", ["render", match_id, "-o", str(out / f"{match_id}.svg")]),
        ("render png", ["render", match_id, "-o", str(out / f"{match_id}.png")]),
        ("report", ["report", match_id, "-o", str(out / f"{match_id}.html")]),
        ("verify", ["verify", match_id]),
        ("audit", ["audit", match_id]),
        ("export", ["export", match_id, "-o", str(out / f"{match_id}.jsonl")]),
    ]


#: Runs a command and prints its peak resident memory (kB).  A small process starts it:
#: a child's peak counts the memory of the process it was forked from, so forking the
#: commands from this (large) one would report this one's size for each of them.
_PEAK_OF = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)"
)


def _run(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """(elapsed seconds, peak resident memory in MB, exit code) of one process; the
    elapsed time includes the small starter's own start-up, the same for every command."""
    env = dict(os.environ, MATCHLEDGER_ACTOR="bench", NO_COLOR="1")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _PEAK_OF, *argv], cwd=cwd, env=env, capture_output=True, text=True,
                         check=True).stdout
    elapsed = time.perf_counter() - start
    peak_kb, code = out.split()
    return elapsed, int(peak_kb) / 1024, int(code)


def bench_limits(tmp: Path, log=print) -> list[Row]:
    cli = _cli_command()
    rows: list[Row] = []
    outputs = tmp / "outputs"
    outputs.mkdir(exist_ok=True)
    log("limits: building the largest and the small matches ...")
    largest, small = build(tmp, largest=True), build(tmp, largest=False)
    for game in largest:
        big_db, big_id, big_who = largest[game]
        small_db, small_id, small_who = small[game]
        big_events = _events(big_db, big_id)
        for (name, big_args), (_same, small_args) in zip(
            _commands(big_id, big_who, outputs), _commands(small_id, small_who, outputs)
        ):
            t_big, mb_big, rc_big = _run(cli + ["--db", str(big_db), *big_args], tmp)
            t_small, mb_small, _rc = _run(cli + ["--db", str(small_db), *small_args], tmp)
            note = "" if rc_big == 0 else f"exit {rc_big}"
            rows.append(Row("limits", f"{game} {name}: time", None, big_events, t_big * 1000, t_small * 1000,
                            t_big / t_small, "ms", None, note))
            rows.append(Row("limits", f"{game} {name}: peak memory", None, big_events, mb_big, mb_small,
                            mb_big / mb_small, "MB", None, note))
    return rows


def _events(path: Path, match_id: str) -> int:
    from matchledger.ledger.store import Store

    store = Store(path, read_only=True)
    try:
        return len(store.rows(match_id))
    finally:
        store.close()

