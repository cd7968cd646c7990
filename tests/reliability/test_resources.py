"""Resource use: replaying a 10,000-event match and verifying a file of 1,000 matches
stay within a memory budget.  The work runs in a fresh child process (so this test
process's own history does not count), which reports its peak RSS after each step
(VmHWM from /proc/self/status where available, and `resource.getrusage(RUSAGE_SELF)
.ru_maxrss`, which on Linux also counts the parent's RSS at fork).  Nothing is timed.

Run with `pytest -s` to see the numbers; they are also in the assertion message.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from matchledger import engine
from matchledger.engine.commands import AddNote, CloseRound, CreateMatch, Submit
from matchledger.ledger.store import Store
from matchledger.projections.fold import InMemoryMatch, play
from tests.helpers import REPO, builtin_games, sampled_games

from .support import T

BUDGET_MB = 500
LONG = 10_000
MANY = 1_000

CHILD = r"""
import io, json, resource, sys
from contextlib import redirect_stdout

def peak_mb():
    # VmHWM: this process image's own peak.  ru_maxrss (kB on Linux) also counts the
    # parent's RSS at fork time (Linux keeps it across exec), so it is reported beside it.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

path, long_id = sys.argv[1], sys.argv[2]
from matchledger import engine
engine.register("toy", "tests.toygame")
from matchledger.commands.cli import cli
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from matchledger.projections.views import all_read_models
report = {"after_imports": peak_mb()}

def run(*args):
    with redirect_stdout(io.StringIO()):
        cli.main(args=["--db", path, *args], prog_name="matchledger", standalone_mode=False)

ledger = Application(Store(path, create=False))
state = ledger.state(long_id)
models = all_read_models(state)
assert state.last_seq == 10000, state.last_seq
report["replay_10k"] = peak_mb()
ledger.state(long_id, at=5000)
run("verify", long_id)
report["verify_10k"] = peak_mb()
run("verify", "--all")
report["verify_all"] = peak_mb()
report["matches"] = len(ledger.store.match_ids())
report["ru_maxrss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(report))
"""


def long_toy_match() -> list:
    """10,000 events of one toy match: resubmissions, notes, three closes, the outcome."""
    m = InMemoryMatch(CreateMatch(match_id="long", game="toy", players=["ann", "bob", "cat"]))
    rng = random.Random(10_000)
    i = 0
    while len(m.events) < LONG - 2:
        if len(m.events) in (3000, 6000):
            m.do(CloseRound())
        elif i % 10 == 0:
            m.do(AddNote(f"note {i}"))
        else:
            m.do(Submit(rng.choice(["ann", "bob", "cat"]), [str(rng.randint(1, 9))]))
        i += 1
    m.do(CloseRound())  # round 3: RoundClosed + OutcomeAnnounced
    return m.events


def short_pw_match(match_id: str, seed: int) -> list:
    """A random legal 4-pair Parallel Worlds match (the engine's sampler), ~33 events."""
    return play(engine.get("pw").sample(random.Random(seed), match_id, n=4)).events


@pytest.mark.guarantee("resources.memory")
def test_memory_of_a_long_match_and_a_file_of_many(tmp_path):
    path = tmp_path / "big.db"
    store = Store(path)
    events = long_toy_match()
    assert len(events) == LONG
    for start in range(0, LONG, 1000):
        store.append("long", start + 1, events[start : start + 1000], actor="h", recorded_at=T)
    stored = LONG
    with store.transaction():
        for n in range(MANY - 1):
            pw_events = short_pw_match(f"pw-{n:04}", n)
            store.append(f"pw-{n:04}", 1, pw_events, actor="h", recorded_at=T)
            stored += len(pw_events)
    store.close()

    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), "long"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    summary = (
        f"peak RSS (MB): after imports {report['after_imports']:.1f}, replay of {LONG} events "
        f"{report['replay_10k']:.1f}, verify of it {report['verify_10k']:.1f}, verify --all of "
        f"{report['matches']} matches ({stored} events) {report['verify_all']:.1f} (ru_maxrss, which includes the parent's RSS at fork: "
        f"{report['ru_maxrss']:.1f})"
    )
    print(summary)
    assert report["matches"] == MANY
    assert report["verify_all"] < BUDGET_MB and report["ru_maxrss"] < BUDGET_MB, summary


@pytest.mark.reliability
@pytest.mark.guarantee("resources.limits")
def test_every_read_and_audit_command_on_the_largest_input_the_limits_allow_stays_within_the_budget(tmp_path):
    """The matches `python -m bench --limits` builds at the limits, each game's sampler's
    ``scale="largest"`` (26 players of 40-character names in a 40 x 40 studio, 13 pw
    pairs, 4 photographers, a 2,000-character note after every command): every read and audit command finishes
    (exit 0) in a child process whose peak memory stays within the budget.  Not timed."""
    from bench.limits import _commands, _run, build
    from bench.processes import _cli_command

    outputs = tmp_path / "outputs"
    outputs.mkdir()
    peaks = {}
    built = build(tmp_path, largest=True)
    for game, (db, match_id, participant) in built.items():
        for name, args in _commands(match_id, participant, outputs):
            _elapsed, peak_mb, code = _run(_cli_command() + ["--db", str(db), *args], tmp_path)
            assert code == 0, f"{game} {name} exited {code}"
            peaks[f"{game} {name}"] = round(peak_mb, 1)
    assert max(peaks.values()) < BUDGET_MB, peaks
    assert (
        set(builtin_games()) <= set(built) <= set(sampled_games())
    )  # every game whose sampler draws its largest match
    assert len(peaks) == len(built) * len(_commands("m", "p", outputs))
