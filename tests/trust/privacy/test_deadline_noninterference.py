"""Who was late is a secret of that participant and the host (docs/design.md, "counts
and timings are secrets too"): two matches differing only in when bob submitted (before
the deadline in A, after it in B) read the same to the public and to another participant,
through every read form at every seq.  Hashes are the one declared exception
(tests/trust/privacy/harness_cli.py): every hash from bob's row on differs, so they are
masked; everything else is compared byte for byte."""

from __future__ import annotations

import re

import pytest

from matchledger.engine.commands import CloseRound, CreateMatch, SetDeadline, Submit
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from tests.deadlines.conftest import ROUND_1, STUDIO, Clock
from tests.helpers import invoke

DEADLINE = "2026-12-03T10:00:00Z"
HASH = re.compile(r"\b[0-9a-f]{64}\b|\b[0-9a-f]{16}…")


def _recorded(folder, bob_at: str):
    """The match in ``folder/ledger.db``: bob submits at ``bob_at``, everything else at
    the same times in both worlds."""
    folder.mkdir()
    db = folder / "ledger.db"
    clock = Clock("2026-12-01T10:00:00.000000Z")
    app = Application(Store(db, create=True), clock=clock, salts=lambda: "", actor="host")
    app.create(CreateMatch("m1", "lca", ["ann", "bob", "cat"], setup={"studio": STUDIO.read_text()}))
    app.execute("m1", SetDeadline(clock(), DEADLINE))
    clock.now = "2026-12-02T10:00:00.000000Z"
    app.execute("m1", Submit("ann", ROUND_1["ann"].split()))
    clock.now = bob_at
    app.execute("m1", Submit("bob", ROUND_1["bob"].split()))
    clock.now = "2026-12-04T10:00:00.000000Z"
    app.execute("m1", Submit("cat", ROUND_1["cat"].split()))
    app.execute("m1", CloseRound())
    app.close()
    return db


def _outputs(db, view: list[str]) -> dict[str, str]:
    head = int(invoke(db, "head", "m1").stdout.split(":")[0])
    found = {}
    for at in [None, *range(1, head + 1)]:
        where = [] if at is None else ["--at", str(at)]
        for command in ("status", "reveals", "scores", "log"):
            for form in ([], ["--json"]):
                result = invoke(db, command, "m1", *view, *where, *form, expect=None)
                found[f"{command} {' '.join(view + where + form)}"] = HASH.sub("<hash>", result.output)
    for form in ([], ["--json"]):
        result = invoke(db, "messages", "m1", *view, *form, expect=None)
        found[f"messages {' '.join(view + form)}"] = HASH.sub("<hash>", result.output)
    return found


@pytest.mark.parametrize("view", [["--public"], ["--as", "ann"]], ids=["public", "ann"])
def test_nobody_but_bob_and_the_host_can_tell_whether_bob_was_late(tmp_path, view):
    on_time = _recorded(tmp_path / "a", "2026-12-03T09:00:00.000000Z")
    late = _recorded(tmp_path / "b", "2026-12-03T11:00:00.000000Z")
    a, b = _outputs(on_time, view), _outputs(late, view)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key], key
    # not vacuous: the host and bob do tell them apart
    assert invoke(on_time, "log", "m1", "--as", "bob", "--json").stdout.count('"late"') == 0
    assert invoke(late, "log", "m1", "--as", "bob", "--json").stdout.count('"late"') == 1
