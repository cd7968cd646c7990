"""Noninterference through the command line: every output a viewer can get.

Two matches, A and B, differ only in a secret the viewer may not know.  Both are
recorded into their own database by the same kind of commands, through
:class:`Application` with one fixed actor and one fixed clock, so that everything not
derived from the secret is equal byte for byte.  Then the viewer's outputs are taken
from the real CLI (click's ``CliRunner``, each database reached as ``--db ledger.db``
from its own folder, so even paths in messages are equal) and compared:

- ``status``, ``scores``, ``outcome``, ``reveals`` (text and ``--json``), for a
  participant also ``knowledge --as`` (text and ``--json``), ``log --public`` /
  ``log --as`` and ``messages --public`` / ``messages --as`` (text and ``--json``): at
  every ``--at SEQ`` from 1 to the head, and without ``--at`` (``messages`` also with
  ``-o DIR``, the file written);
- ``render`` SVG at a sample of seqs (:func:`picture_seqs`; PNG, :meth:`Comparison.picture`,
  where a test asks); ``report`` HTML (it steps through every event the view may know of,
  so it covers every seq at once);
- ``head``: the seq;
- the errors the viewer provokes: an unknown ``--as`` name (and ``--as ''``, ``--as``
  with ``--public``), a bad ``--at`` in every form, ``submit`` for a stranger, and
  ``submit`` by the viewer with tokens the game rejects, tried after every command
  (:class:`Probe`).  Every error must be an error in both matches, with the same
  message and exit code.

**What must stay equal.**  The rules themselves tell some secrets (a card the viewer
takes, a final table).  So the comparison stops before the first *command* (its events
are written together, so the viewer learns them together) with an event that tells the
viewer something different in A and B: a public announcement, the viewer's private
notice, the viewer's own submissions and contract, anything of an event everyone may
know of (:func:`told`).  Up to there the viewer has been told exactly the same things,
so any difference in their outputs is a leak.  Both databases hold exactly the commands
before that one, so the head forms (no ``--at``, ``report``, ``head``, errors) are
compared at the same point.  ``told`` is worded from the rules, not from
``projections.views.event_view``: a leak in what ``log`` shows of an event would
otherwise stop the comparison instead of failing it.

**The one exception: hashes.**  Each event's hash and the head are public by design
(``log`` shows every listed event's hash and ``prev_hash``; the service's ``/head``
needs no token).  A hash covers the event's body and, through ``prev_hash``, every
earlier one: from the first event whose body differs between A and B (pw: the creation
event, which holds the pairing; photographer: the creation event, which holds the deck;
lca: the first swapped submission) every hash differs.  ``log`` outputs are therefore
compared with each hash replaced by ``<hash of seq N>`` after checking that it is exactly
the stored hash (and ``prev_hash`` the stored ``prev_hash``) of that seq; everything else
(the event as shown, kinds, seqs, times, actors) is compared byte for byte.  Whether a
hash lets one *guess* a low-entropy secret is another question (see
tests/trust/privacy/test_hash_commitments.py).
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import msgspec
from click.testing import CliRunner

from matchledger import engine
from matchledger.commands.cli import cli
from matchledger.engine.commands import CreateMatch, Submit
from matchledger.engine.sample import Sample
from matchledger.ledger.codec import encode
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.events import (
    ContractRecorded,
    Event,
    MatchCreated,
    NoteAdded,
    StateCheckpointed,
    SubmissionRecorded,
)
from matchledger.ledger.store import Store, StoredEvent
from matchledger.projections.application import Application
from matchledger.projections.fold import InMemoryMatch, Replayer
from matchledger.projections.views import all_read_models

PUBLIC = "public"
MATCH = "m1"
DB = "ledger.db"
ACTOR = "host"
CLOCK = "2025-03-01T12:00:00.000000Z"
STRANGER = "nobody"
READ_MODELS = ("status", "scores", "outcome", "reveals")
#: Reads that may refuse where the others answer: nothing is sent before the first close.
MAY_REFUSE = ("messages",)


# --------------------------------------------------------------------------- the two matches


@dataclass
class Played:
    """A match played in memory: its create command, the commands done, and the events
    written together: ``batches[0]`` the creation's, ``batches[i]`` those of
    ``commands[i - 1]``."""

    create: CreateMatch
    commands: list
    batches: list[list[Event]]


def play(create: CreateMatch, commands: Iterable | Sample) -> Played:
    """Play a list of commands, or a game's :class:`Sample` to its end."""
    m = InMemoryMatch(create)
    batches: list[list[Event]] = [list(m.events)]
    done = []
    if isinstance(commands, Sample):
        while (cmd := commands.next_command(m.state)) is not None:
            batches.append(list(m.do(cmd)))
            done.append(cmd)
    else:
        for cmd in commands:
            batches.append(list(m.do(cmd)))
            done.append(cmd)
    return Played(create, done, batches)


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def told(event: Event, viewer: str) -> str:
    """What ``event`` tells ``viewer`` in itself, by the rules: that it happened (its
    kind), the creation's public part (game, players, options; the setup is the host's,
    and the tests keep its public parts, an lca studio, equal), every announcement's
    public part and the viewer's private part, the viewer's own submissions and
    contract, and everything of amendments, voids, corrections and reopenings (equal in
    A and B in every test here, so they never stop a comparison by themselves)."""
    kind = type(event).__name__
    if isinstance(event, MatchCreated):
        return dumps([kind, event.game, list(event.players), msgspec.to_builtins(event.options)])
    if isinstance(event, (SubmissionRecorded, ContractRecorded)):
        return dumps([kind, msgspec.to_builtins(event) if event.participant == viewer else None])
    if isinstance(event, (NoteAdded, StateCheckpointed)):
        return dumps([kind])
    public = getattr(event, "public", None)
    private = getattr(event, "private", None)
    if public is not None or private is not None:
        mine = private.get(viewer) if isinstance(private, dict) and viewer != PUBLIC else None
        return dumps([kind, public, mine])
    return dumps(msgspec.to_builtins(event))


def first_telling_command(a: Played, b: Played, viewer: str) -> int:
    """The index (in ``batches``; 0 is the creation) of the first command whose events
    tell ``viewer`` something different in A and B; ``len(batches)`` when none does.
    A match that goes on after the other has ended tells that by its length."""
    for index, (ea, eb) in enumerate(zip(a.batches, b.batches)):
        if [told(e, viewer) for e in ea] != [told(e, viewer) for e in eb]:
            return index
    if len(a.batches) != len(b.batches):
        return min(len(a.batches), len(b.batches))
    return len(a.batches)


# --------------------------------------------------------------------------- one side: a database and the CLI


def scratch() -> tempfile.TemporaryDirectory:
    """A folder for the databases: in memory where the system offers one (every commit
    is synced to disk, ``synchronous=FULL``, and the suite records thousands)."""
    shm = Path("/dev/shm")
    folder = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    return tempfile.TemporaryDirectory(prefix="noninterference-", dir=folder)


@dataclass(frozen=True)
class Output:
    exit_code: int
    stdout: str
    stderr: str
    file: bytes | None = None


class Side:
    """One of the two matches: a folder holding its database, built through the
    application and read through the CLI from inside the folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.store = Store(folder / DB, create=True)
        self.app = Application(self.store, actor=ACTOR, clock=lambda: CLOCK)
        self.rows: list[StoredEvent] = []

    def create(self, cmd: CreateMatch) -> None:
        self.app.create(cmd)

    def execute(self, cmd) -> None:
        self.app.execute(MATCH, cmd)

    def state(self):
        return self.app.state(MATCH)

    def finish(self) -> None:
        self.rows = self.store.rows(MATCH)
        self.store.close()

    def run(self, args: list[str], output: str | None = None) -> Output:
        with contextlib.chdir(self.folder):
            result = CliRunner().invoke(cli, ["--db", DB, *args], catch_exceptions=False)
            data = None
            if output is not None and Path(output).exists():
                data = Path(output).read_bytes()
                Path(output).unlink()
        return Output(result.exit_code, result.stdout, result.stderr, data)

    def masked(self, out: Output) -> Output:
        """``out`` of a `log` command with every hash replaced by the seq it belongs to,
        after checking that the JSON form shows exactly the stored hashes."""
        text = out.stdout
        if text.startswith("["):
            for entry in json.loads(text):
                row = self.rows[entry["seq"] - 1]
                assert (entry["hash"], entry["prev_hash"]) == (row.hash, row.prev_hash), entry
        for row in self.rows:
            text = text.replace(row.hash, f"<hash of seq {row.seq}>")
            text = text.replace(row.hash[:16] + "…", f"<hash of seq {row.seq}>")
        return Output(out.exit_code, text, out.stderr, out.file)


def difference(a: Output, b: Output) -> str:
    for name in ("exit_code", "stdout", "stderr", "file"):
        x, y = getattr(a, name), getattr(b, name)
        if x == y:
            continue
        if isinstance(x, str) and isinstance(y, str):
            diff = list(difflib.unified_diff(x.splitlines(), y.splitlines(), "A", "B", n=1, lineterm=""))
            return f"{name} differs:\n" + "\n".join(line[:300] for line in diff[:16])
        if isinstance(x, bytes) and isinstance(y, bytes):
            return f"{name} differs ({len(x)} / {len(y)} bytes)"
        return f"{name} differs: {x!r} / {y!r}"
    return ""


# --------------------------------------------------------------------------- what a viewer provokes


@dataclass
class Probe:
    """Submissions a viewer tries, after every command: ``candidates(rng, state,
    viewer)`` gives token lists; each one the game rejects in both matches is sent
    through `submit` to both databases, and the two errors must be equal.  One that is
    accepted in one match and rejected in the other is a leak (whether a move is legal
    would tell the secret); one accepted in both is skipped (it would be written)."""

    candidates: Callable[[random.Random, object, str], list[list[str]]]
    per_step: int = 3


def view_args(viewer: str) -> list[str]:
    return ["--public"] if viewer == PUBLIC else ["--as", viewer]


def read_forms(viewer: str) -> list[tuple[str, list[str]]]:
    """Every read a viewer can make, as (name, CLI args without --at)."""
    view = view_args(viewer)
    forms = []
    models = READ_MODELS + (() if viewer == PUBLIC else ("knowledge",))
    for model in models + ("log", "messages"):
        args = [model, MATCH] + (["--as", viewer] if model == "knowledge" else view)
        forms.append((f"{model} (text)", args))
        forms.append((f"{model} --json", args + ["--json"]))
    return forms


def picture_seqs(head: int, every: int, rng: random.Random) -> list[int]:
    """The seqs at which a picture is drawn: the first, the head, and one seq drawn from
    each stretch of ``every`` seqs between them."""
    seqs = {1, head}
    for start in range(1, head + 1, every):
        seqs.add(rng.randint(start, min(head, start + every - 1)))
    return sorted(seqs)


@dataclass
class Stats:
    viewer: str
    compared: int = 0  # seqs at which every --at form was compared
    parted: int = 0  # of those, seqs at or after the first event whose body differs
    host_differs: int = 0  # of those, seqs at which the host's read models differ
    cut: int | None = None  # index of the command that first tells the viewer something different
    commands: int = 0  # commands in each match
    outputs: int = 0  # outputs compared
    probes: int = 0  # rejected submissions compared
    pictures: int = 0  # SVG/PNG files compared
    head: int = 0  # the head seq of the compared prefix
    first_parted: int | None = None  # the first seq whose body differs
    messages: int = 0  # `messages` outputs compared that were messages (not a refusal), after the logs parted


@dataclass
class Plan:
    """How much of the expensive forms to draw."""

    svg_every: int = 8  # one SVG per this many seqs (plus the first and the head)
    probe: Probe | None = None
    seed: int = 0


class Comparison:
    """One viewer, two databases holding the commands before the first telling one."""

    def __init__(self, a: Side, b: Side, viewer: str, stats: Stats, rng: random.Random):
        self.a, self.b, self.viewer, self.stats, self.rng = a, b, viewer, stats, rng

    def same(
        self, what: str, args: list[str], *, output: str | None = None, ok: bool | None = True, log: bool = False
    ) -> Output:
        out_a, out_b = self.a.run(args, output), self.b.run(args, output)
        if log:
            out_a, out_b = self.a.masked(out_a), self.b.masked(out_b)
        if ok is True:
            assert out_a.exit_code == 0, f"{what}: {' '.join(args)} failed in A: {out_a.stderr}"
        elif ok is False:
            assert out_a.exit_code not in (0, None), f"{what}: {' '.join(args)} should be an error: {out_a.stdout}"
        assert out_a == out_b, (
            f"LEAK: {self.viewer} can tell A from B by `{' '.join(args)}` ({what}): {difference(out_a, out_b)}"
        )
        self.stats.outputs += 1
        return out_a

    def picture(self, seq: int | None, suffix: str) -> Output:
        """``render`` (at ``seq``, or as the match stands) to an SVG or PNG file."""
        at = [] if seq is None else ["--at", str(seq)]
        out = self.same(
            f"render {suffix}",
            ["render", MATCH, *view_args(self.viewer), *at, "-o", f"picture.{suffix}"],
            output=f"picture.{suffix}",
        )
        assert out.file and out.file.startswith(b"\x89PNG" if suffix == "png" else b"<svg"), out
        self.stats.pictures += 1
        return out


def record(folder: Path, a: Played, b: Played, viewer: str, plan: Plan) -> Comparison:
    """Record the commands of A and B before the first one telling ``viewer`` something
    different, each into its own database, probing submissions after each command."""
    cut = first_telling_command(a, b, viewer)
    stats = Stats(viewer, cut=cut if cut < max(len(a.batches), len(b.batches)) else None, commands=len(a.batches) - 1)
    side_a, side_b = Side(folder / f"{viewer}-a"), Side(folder / f"{viewer}-b")
    cmp = Comparison(side_a, side_b, viewer, stats, random.Random(f"{plan.seed}/{viewer}"))
    side_a.create(a.create)
    side_b.create(b.create)
    for index in range(1, cut):
        probe(cmp, plan)
        side_a.execute(a.commands[index - 1])
        side_b.execute(b.commands[index - 1])
    probe(cmp, plan)
    side_a.finish()
    side_b.finish()
    stats.head = len(side_a.rows)
    assert stats.head == len(side_b.rows), "A and B differ in length although the viewer was told the same"
    stats.first_parted = next((ra.seq for ra, rb in zip(side_a.rows, side_b.rows) if ra.body != rb.body), None)
    return cmp


def compare_pair(folder: Path, a: Played, b: Played, viewer: str, plan: Plan) -> Stats:
    """:func:`record`, then compare every output of the view: the head forms and
    errors, then every read form at every seq, an SVG at :func:`picture_seqs`."""
    cmp = record(folder, a, b, viewer, plan)
    stats, head = cmp.stats, cmp.stats.head
    host = host_differences(cmp.a.rows, cmp.b.rows)
    forms = read_forms(viewer)
    head_forms(cmp, forms, head, plan)
    svg_at = set(picture_seqs(head, plan.svg_every, cmp.rng))
    for seq in range(1, head + 1):
        parted = stats.first_parted is not None and seq >= stats.first_parted
        for what, args in forms:
            out = cmp.same(what, args + ["--at", str(seq)], log=args[0] == "log", ok=_must_answer(args))
            stats.messages += args[0] == "messages" and out.exit_code == 0 and parted
        if seq in svg_at:
            cmp.picture(seq, "svg")
        stats.compared += 1
        stats.parted += parted
        stats.host_differs += host[seq - 1]
    return stats


def _must_answer(args: list[str]) -> bool | None:
    return None if args[0] in MAY_REFUSE else True


def head_forms(cmp: Comparison, forms, head: int, plan: Plan) -> None:
    """What a viewer reads of the match as it stands, and the errors they provoke."""
    viewer = cmp.viewer
    view = view_args(viewer)
    for what, args in forms:
        cmp.same(what, args, log=args[0] == "log", ok=_must_answer(args))
        for bad in ("0", str(head + 1), "-3"):
            cmp.same(f"{what} with a bad --at", args + ["--at", bad], ok=False)
    sent = f"sent/{'public' if viewer == PUBLIC else viewer}.txt"
    cmp.same("messages -o DIR", ["messages", MATCH, *view, "-o", "sent", "--force"], output=sent, ok=None)
    cmp.same("head", ["head", MATCH], log=True)
    report = cmp.same("report", ["report", MATCH, *view, "-o", "replay.html"], output="replay.html")
    assert report.file, report
    cmp.picture(None, "svg")
    for bad in ("0", str(head + 1)):
        cmp.same("render with a bad --at", ["render", MATCH, *view, "--at", bad, "-o", "picture.svg"], ok=False)
    # Names that are not a participant's, for every form that takes --as.
    names = [STRANGER, ""]
    for model in READ_MODELS + ("knowledge", "log", "messages"):
        for name in names:
            cmp.same(f"{model} --as {name!r}", [model, MATCH, "--as", name], ok=False)
    cmp.same("report --as a stranger", ["report", MATCH, "--as", STRANGER, "-o", "replay.html"], ok=False)
    cmp.same("render --as a stranger", ["render", MATCH, "--as", STRANGER, "-o", "picture.svg"], ok=False)
    if viewer != PUBLIC:
        cmp.same("--public with --as", ["status", MATCH, "--public", "--as", viewer], ok=False)


def probe(cmp: Comparison, plan: Plan) -> None:
    """After a command: a stranger's submission, and the viewer's rejected ones."""
    cmp.same("submit for a stranger", ["submit", MATCH, STRANGER, "x"], ok=False)
    if plan.probe is None or cmp.viewer == PUBLIC:
        return
    game = engine.get(cmp.a.state().game)
    tried = 0
    for tokens in plan.probe.candidates(cmp.rng, cmp.a.state(), cmp.viewer):
        verdicts = []
        for side in (cmp.a, cmp.b):
            try:
                game.decision(side.state(), Submit(cmp.viewer, list(tokens)))
                verdicts.append(True)
            except MatchledgerError:
                verdicts.append(False)
        assert verdicts[0] == verdicts[1], (
            f"LEAK: {cmp.viewer}'s submission {tokens} is {'accepted' if verdicts[0] else 'rejected'} in A but not in B"
        )
        if verdicts[0]:
            continue
        cmp.same("a rejected submission", ["submit", MATCH, cmp.viewer, "--", *tokens], ok=False)
        cmp.stats.probes += 1
        tried += 1
        if tried >= plan.probe.per_step:
            return


def host_differences(rows_a: list[StoredEvent], rows_b: list[StoredEvent]) -> list[bool]:
    """For each seq, whether the host's read models differ between A and B (the secret
    is in what the viewer's outputs were compared at)."""
    ra, rb = Replayer(MATCH), Replayer(MATCH)
    out = []
    for row_a, row_b in zip(rows_a, rows_b):
        sa, sb = ra.feed(row_a.seq, row_a.event()), rb.feed(row_b.seq, row_b.event())
        out.append(host_models(sa) != host_models(sb))
    return out


def host_models(state) -> str:
    return dumps({k: v for k, v in all_read_models(state).items() if k.endswith(":host")})


def compare_all(folder: Path, a: Played, b: Played, viewers: list[str], plan: Plan) -> dict[str, Stats]:
    assert encode(a.batches[0][0]) != encode(b.batches[0][0]) or a.commands != b.commands, "A and B are the same match"
    return {viewer: compare_pair(folder, a, b, viewer, plan) for viewer in viewers}


__all__ = [
    "PUBLIC",
    "MATCH",
    "Played",
    "Plan",
    "Probe",
    "Stats",
    "compare_all",
    "compare_pair",
    "first_telling_command",
    "picture_seqs",
    "play",
    "record",
    "scratch",
    "told",
]
