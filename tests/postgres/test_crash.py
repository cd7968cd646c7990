"""The server killed mid-script: a child process records commands in a loop (several
events each, one transaction per command) while the parent kills the PostgreSQL server
with ``pg_ctl stop -m immediate`` (a crash: no shutdown checkpoint, recovery from the
WAL on the next start), then starts it again.

After every kill: every match verifies, the log is exactly the first k attempted
commands, each whole, with no gap; every command the child saw committed (reported on a
pipe after it returned) survived, and at most the one in flight was committed unseen;
the child was told of the lost server by one clear error, exit 1.  The next child
resumes where the log ends, so each kill lands at a new point of a growing log."""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import random
import re
import time

import click
import pytest

from matchledger.commands.errors import exit_code
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.events import MatchCreated, NoteAdded
from matchledger.ledger.stores import open_store
from matchledger.ledger.verify import verify_chain
from matchledger.projections.rederive import rederive
from tests.reliability.support import T

KILLS = 6
_TEXT = re.compile(r"cmd-(\d+)-(\d+)")


def texts_of(i: int) -> list[str]:
    # 2 to 12 events, some ~1.2 kB: a command spans several WAL records and pages
    return [f"cmd-{i}-{j}" + "x" * (1200 * (j % 3 == 2)) for j in range(2 + (i * 5) % 11)]


SCENARIOS = {
    # name: (matches, how the child writes)
    "store-two-matches": (("a", "b"), "store"),
    "cli-atomic-script": (("m",), "cli"),
}


def match_of(matches: tuple[str, ...], i: int) -> str:
    return matches[i % len(matches)]


def expected_texts(matches: tuple[str, ...], match: str, upto: int) -> list[str]:
    return [text for i in range(upto) if match_of(matches, i) == match for text in texts_of(i)]


# --------------------------------------------------------------------------- the child


def _child(url: str, scenario: str, script: str, fd: int) -> None:
    matches, how = SCENARIOS[scenario]
    try:
        store = open_store(url)
        for match in matches:
            if not store.has_match(match):
                store.append(
                    match,
                    1,
                    [MatchCreated(game="toy", players=["ann", "bob"], options={"multiplier": 1})],
                    actor="h",
                    recorded_at=T,
                )
        found = [int(m.group(1)) for match in matches for row in store.rows(match) if (m := _TEXT.search(row.body))]
        i = max(found, default=-1) + 1
        if how == "cli":
            from matchledger.commands.cli import cli

            store.close()
        os.write(fd, b"ready\n")
        while True:
            match = match_of(matches, i)
            if how == "store":
                head = store.head(match)[0]
                store.append(match, head + 1, [NoteAdded(text=t) for t in texts_of(i)], actor="h", recorded_at=T)
            else:
                with open(script, "w") as handle:
                    handle.write("".join(f"note {match} {t}\n" for t in texts_of(i)))
                with contextlib.redirect_stdout(io.StringIO()):
                    cli.main(
                        args=["--db", url, "--actor", "h", "script", "--atomic", script],
                        prog_name="matchledger",
                        standalone_mode=False,
                    )
            os.write(fd, f"{i}\n".encode())
            i += 1
    except MatchledgerError as exc:
        os.write(fd, f"error {exit_code(exc)} {str(exc).splitlines()[0]}\n".encode())
    except click.ClickException as exc:
        os.write(fd, f"error {exc.exit_code} {exc.format_message().splitlines()[0]}\n".encode())


def _lines(fd: int, acks: int | None) -> list[str]:
    """The child's lines: until "ready" and ``acks`` acknowledgements, or (None) to EOF."""
    data = b""
    while True:
        lines = data.decode().split("\n")[:-1]
        if acks is not None and "ready" in lines and len(lines) - 1 >= acks:
            return lines
        chunk = os.read(fd, 65536)
        if not chunk:
            return data.decode().split("\n")[:-1]
        data += chunk


# --------------------------------------------------------------------------- the parent


def whole_commands(url: str, matches: tuple[str, ...]) -> int:
    """Verify every match; k, the number of whole commands the log holds (asserted to be
    exactly the first k attempted)."""
    store = open_store(url, read_only=True)
    try:
        stored = {}
        for match in matches:
            rows = store.rows(match)
            assert verify_chain(match, rows) == []
            assert rederive(match, [(r.seq, r.event()) for r in rows]) == []
            assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
            stored[match] = [r.event().text for r in rows[1:]]
    finally:
        store.close()
    k = 0
    while all(len(expected_texts(matches, m, k + 1)) <= len(stored[m]) for m in matches):
        k += 1
    for match in matches:
        assert stored[match] == expected_texts(matches, match, k), (
            f"{match}: not a whole-command prefix of what was attempted (k={k}, {len(stored[match])} events)"
        )
    return k


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.guarantee("postgres.crash-prefix")
def test_the_server_killed_mid_script_leaves_a_whole_command_prefix(postgres_server, postgres_url, scenario, tmp_path):
    matches, _ = SCENARIOS[scenario]
    rng = random.Random(f"pg-crash-{scenario}")
    ctx = mp.get_context("fork")
    ks = []
    for _ in range(KILLS):
        read_fd, write_fd = os.pipe()
        child = ctx.Process(target=_child, args=(postgres_url, scenario, str(tmp_path / "script.txt"), write_fd))
        child.start()
        os.close(write_fd)
        try:
            early = _lines(read_fd, acks=rng.randint(1, 4))
            assert "ready" in early, f"the child never got ready: {early}"
            time.sleep(rng.uniform(0.0, 0.01))
            postgres_server.kill()
            try:
                child.join(timeout=60)
                lines = early + _lines(read_fd, acks=None)
            finally:
                postgres_server.restart()
        finally:
            os.close(read_fd)
            if child.is_alive():
                child.kill()
        assert child.exitcode == 0
        errors = [line for line in lines if line.startswith("error")]
        assert len(errors) == 1 and lines[-1] == errors[0], lines[-3:]
        assert errors[0].startswith("error 1 "), errors[0]  # lost the connection / cannot connect: exit 1
        acknowledged = [int(line) for line in lines if line.isdigit()]
        k = whole_commands(postgres_url, matches)
        if acknowledged:
            assert k >= acknowledged[-1] + 1, "a command the child saw committed was lost"
            assert k <= acknowledged[-1] + 2, "more than the command in flight was committed unseen"
        assert not ks or k >= ks[-1], "a committed command disappeared"
        ks.append(k)
    assert len(set(ks)) == KILLS, f"the log did not grow between kills: {ks}"
    print(f"{scenario}: {KILLS} kills, log grew to {ks[-1]} commands; the child was told: {errors[0]}")
