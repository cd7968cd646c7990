"""Crash consistency: a child process appends commands in a loop and is killed with
SIGKILL at a random moment (seeded), over and over on the same database file.

After every kill the parent checks that the file opens, passes SQLite's integrity
check and `verify`, and that the stored log is exactly the first k commands, each
whole: no half-written command and no gap.  It also checks that every command the
child saw committed (it reports each one on a pipe after `append` returns) survived
the kill.  The next child resumes where the log ends, so each kill lands at a new
point of a growing log.

4 scenarios x 50 kills = 200 kills (x MATCHLEDGER_SOAK for a longer soak).  The child
is forked (cheap; it opens its own SQLite connection after the fork, and the parent
holds none at that moment).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import re
import signal
import sqlite3
import sys
import time

import pytest

from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.store import Store
from matchledger.ledger.verify import verify_chain
from matchledger.projections.rederive import rederive

from .support import T, soak

KILLS = 50
_TEXT = re.compile(r"cmd-(\d+)-(\d+)")


# --------------------------------------------------------------------------- what is attempted


def texts_small(i: int) -> list[str]:
    return [f"cmd-{i}-{j}" for j in range(2 + i % 2)]  # 2 or 3 events per command


def texts_big(i: int) -> list[str]:
    # 8 to 24 events of ~1.2 kB each: one command spans several database pages.
    return [f"cmd-{i}-{j}-" + "x" * (1200 + 29 * j) for j in range(8 + (i * 7) % 17)]  # each within the note limit


def texts_script(i: int) -> list[str]:
    return [f"cmd-{i}-{j}" for j in range(3)]


SCENARIOS = {
    # name: (matches, texts of command i, how the child writes, wal_autocheckpoint)
    "store-small-batches": (("m",), texts_small, "store", None),
    "store-big-batches": (("m",), texts_big, "store", None),
    "two-matches-checkpoint-every-commit": (("a", "b"), texts_small, "store", 1),
    "cli-atomic-script": (("m",), texts_script, "cli", None),
}
#: Commands a child attempts before it idles (keeps the log, and so each check, small).
LIFE = 20


def match_of(matches: tuple[str, ...], i: int) -> str:
    return matches[i % len(matches)]


def expected_texts(scenario: str, match: str, upto: int) -> list[str]:
    """The note texts ``match`` must hold after commands 0 .. upto-1, in order."""
    matches, texts, _, _ = SCENARIOS[scenario]
    out: list[str] = []
    for i in range(upto):
        if match_of(matches, i) == match:
            out += texts(i)
    return out


# --------------------------------------------------------------------------- the child


def _next_command(store: Store, matches) -> int:
    last = -1
    for match in matches:
        rows = store.rows(match, after=max(0, (store.head(match) or (1, ""))[0] - 1))
        for row in rows:
            found = _TEXT.search(row.body)
            if found:
                last = max(last, int(found.group(1)))
    return last + 1


def _child(path: str, scenario: str, fd: int) -> None:
    matches, texts, how, autocheckpoint = SCENARIOS[scenario]
    store = Store(path)
    if autocheckpoint is not None:
        store.conn.execute(f"PRAGMA wal_autocheckpoint = {autocheckpoint}")
    for match in matches:
        if not store.has_match(match):
            store.append(
                match,
                1,
                [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})],
                actor="h",
                recorded_at=T,
            )
    i = _next_command(store, matches)
    if how == "cli":
        from matchledger.commands.cli import cli

        store.close()
        script = f"{path}.script.txt"
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # the CLI's "recorded …" lines
    os.write(fd, b"ready\n")
    for _ in range(LIFE if how == "cli" or texts is not texts_big else LIFE // 4):
        if how == "store":
            match = match_of(matches, i)
            head = store.head(match)[0]
            store.append(match, head + 1, [NoteAdded(text=t) for t in texts(i)], actor="h", recorded_at=T)
        else:
            with open(script, "w") as handle:
                handle.write("".join(f"note m {t}\n" for t in texts(i)))
            sys.stdout = open(os.devnull, "w") if sys.stdout.fileno() != 1 else sys.stdout
            cli.main(
                args=["--db", path, "--actor", "h", "script", "--atomic", script],
                prog_name="matchledger",
                standalone_mode=False,
            )
        os.write(fd, f"{i}\n".encode())
        i += 1
    os.write(fd, b"done\n")
    time.sleep(3600)  # killed here if the kill comes late


# --------------------------------------------------------------------------- the parent


def _read_lines(fd: int, acks: int | None) -> list[str]:
    """Lines from the child: until "ready" and ``acks`` acknowledgements, or (acks None)
    everything until EOF."""
    data = b""
    while True:
        lines = data.decode().split("\n")[:-1]
        if acks is not None and "ready" in lines and (len(lines) - 1 >= acks or "done" in lines):
            return lines
        chunk = os.read(fd, 65536)
        if not chunk:
            return data.decode().split()
        data += chunk


def _check(path: str, scenario: str, acknowledged: int, before: int, seen: int) -> int:
    """Open, integrity-check and verify the file; return k, the number of whole commands."""
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    matches = SCENARIOS[scenario][0]
    store = Store(path, create=False)
    try:
        stored: dict[str, list[str]] = {}
        for match in matches:
            rows = store.rows(match)
            assert verify_chain(match, rows) == []
            assert rederive(match, [(r.seq, r.event()) for r in rows]) == []
            stored[match] = [r.event().text for r in rows[1:]]
    finally:
        store.close()
    # k = the number of commands whose events are stored; the log must be exactly
    # the first k commands, whole, in order, in every match.
    k = 0
    while True:
        candidate = {m: expected_texts(scenario, m, k + 1) for m in matches}
        if all(len(candidate[m]) <= len(stored[m]) for m in matches):
            k += 1
            continue
        break
    for match in matches:
        assert stored[match] == expected_texts(scenario, match, k), (
            f"{match}: the log is not a whole-command prefix of what was attempted "
            f"(k={k}, stored {len(stored[match])} events, last {stored[match][-1:]})"
        )
    # Nothing the child saw committed was lost; at most one command committed unseen.
    assert acknowledged < k
    assert k <= before + seen + 1
    return k


@pytest.mark.parametrize("scenario", list(SCENARIOS))
# crash.test-needs-transaction: `python -m tests.mutation store-transaction-a-no-op`
@pytest.mark.guarantee(
    "crash.file-verifies", "crash.whole-prefix", "crash.acknowledged-survives", "crash.test-needs-transaction"
)
def test_sigkill_at_random_moments_leaves_a_whole_command_prefix(scenario, tmp_path):
    path = str(tmp_path / "crash.db")
    rng = random.Random(f"crash-{scenario}")
    ctx = mp.get_context("fork")
    kills = KILLS * soak()
    ks = []
    acknowledged = -1
    idle = 0
    for _ in range(kills):
        read_fd, write_fd = os.pipe()
        child = ctx.Process(target=_child, args=(path, scenario, write_fd), daemon=True)
        child.start()
        os.close(write_fd)
        try:
            # Let the child commit a random number of commands (0-4), then kill it at a
            # random phase of its write loop: a millisecond or so spans several commits.
            early = _read_lines(read_fd, acks=rng.randint(0, 3))
            assert "ready" in early, "the child never got ready"
            time.sleep(rng.uniform(0.0, 0.0015))
            assert child.is_alive(), f"the child stopped on its own (exit {child.exitcode})"
            os.kill(child.pid, signal.SIGKILL)
            child.join(timeout=30)
            assert child.exitcode == -signal.SIGKILL
            lines = early + _read_lines(read_fd, acks=None)
            idle += "done" in lines
            seen = [int(x) for x in lines if x not in ("ready", "done")]
        finally:
            os.close(read_fd)
            if child.is_alive():
                child.kill()
        acknowledged = max([acknowledged, *seen])
        k = _check(path, scenario, acknowledged, ks[-1] if ks else 0, len(seen))
        assert not ks or k >= ks[-1], "a committed command disappeared"
        ks.append(k)
    # Not vacuous: the log grew across the kills, so they fell at many different points.
    assert len(set(ks)) >= kills // 5, f"only {len(set(ks))} distinct log lengths over {kills} kills"
    print(
        f"{scenario}: {kills} kills ({kills - idle} while writing), log grew to {ks[-1]} commands "
        f"({len(set(ks))} distinct lengths)"
    )


@pytest.mark.parametrize(
    "dropped",
    [["events_no_update", "events_no_delete"], ["events_no_update"], ["events_no_delete"]],
    ids=["both", "update", "delete"],
)
@pytest.mark.guarantee("crash.triggers-with-table")
def test_a_crash_between_creating_the_table_and_its_triggers_is_repaired_on_open(tmp_path, dropped):
    path = tmp_path / "half.db"
    store = Store(path)
    store.close()
    # The state a kill leaves between `CREATE TABLE events` and the trigger script (an
    # older file, where they were not one transaction), or between its two triggers.
    conn = sqlite3.connect(path)
    for trigger in dropped:
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.commit()
    conn.close()
    Store(path).close()  # the next open
    conn = sqlite3.connect(path)
    try:
        triggers = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    finally:
        conn.close()
    assert triggers == {"events_no_update", "events_no_delete"}
