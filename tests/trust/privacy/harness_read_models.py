"""One noninterference harness for the three games.

Two matches are built that differ only in a secret the viewer may not know (another
participant's superseded submission or contract, the guest pairing of other pairs, the
order of cards the viewer has not seen).  Both are replayed event by event, and after
every event (every `--at SEQ`) the viewer's whole view must be byte-identical in both:
`json.dumps(…, sort_keys=True)` of their knowledge, their status/scores/outcome/reveals,
and every public read model (`projections.views.all_read_models`, keys `*:public`),
plus the terminal text of those.

Some secrets are legitimately told later (a card the viewer takes, a public reveal, a
final award).  With ``until_told=True`` the comparison runs up to, not including, the
first command (its events are written together) with an event whose public part or
whose private part for the viewer differs between the two matches: up to then the viewer has been told exactly the same things, so any
difference in their view is a leak.  Without it, the two logs may differ nowhere in
what the viewer is told, and the comparison runs to the end.

The harness returns how many seqs it compared, at how many of those the two logs had
already parted (the secret was in the log) and at how many the host's read models
differed, so callers can assert that it was not vacuous.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from matchledger import engine
from matchledger.engine.sample import Sample
from matchledger.engine.state import View, as_participant
from matchledger.ledger.codec import encode
from matchledger.ledger.events import MatchCreated
from matchledger.projections.fold import InMemoryMatch, Replayer
from matchledger.projections.presentation.games import presentation_module
from matchledger.projections.read_models import IN_EVERY_VIEW, read_model
from matchledger.projections.views import all_read_models


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def viewer_models(state, viewer: str) -> dict[str, str]:
    """Everything ``viewer`` (a participant, or "public") can see, as canonical JSON/text."""
    game = engine.get(state.game)
    models = all_read_models(state)
    seen = {k: dumps(v) for k, v in models.items() if k.endswith(":public") or k == f"knowledge:{viewer}"}
    views: list[View] = [View("public")] + ([as_participant(viewer)] if viewer != "public" else [])
    for view in views:
        for name in IN_EVERY_VIEW:
            data = read_model(game, name, state, view)
            seen[f"{name}:{view.label()}"] = dumps(data)
            # Only a game's own text: the generic text is a function of the JSON compared above.
            own = presentation_module(state.game, "text")
            text = own.text(name, data, view) if own is not None else None
            if text is not None:
                seen[f"text-{name}:{view.label()}"] = text
    return seen


def host_models(state) -> str:
    return dumps({k: v for k, v in all_read_models(state).items() if k.endswith(":host")})


def told(event, viewer: str):
    """What ``event`` tells ``viewer`` in itself: its public part and their private part."""
    public = getattr(event, "public", None)
    private = getattr(event, "private", None)
    mine = private.get(viewer) if isinstance(private, dict) else None
    if isinstance(event, MatchCreated):
        return ("created", event.game, list(event.players))
    return (type(event).__name__, dumps(public), dumps(mine))


@dataclass
class Stats:
    compared: int = 0  # seqs at which the viewer's views were compared
    after_divergence: int = 0  # of those, seqs after the two logs had already parted
    host_differs: int = 0  # of those, seqs at which the host's read models differed
    told_at: int | None = None  # the first seq where the viewer was told something different


def play(create, commands) -> InMemoryMatch:
    """Play ``commands``: a list whose items may be callable(state) -> command (chosen at
    play time), or a game's :class:`Sample` of the match ``create`` makes, to its end."""
    m = InMemoryMatch(create)
    m.batches = [1]  # the seq each command's events start at (commands are atomic)
    do = m.do

    def recording_do(cmd):
        m.batches.append(len(m.events) + 1)
        return do(cmd)

    m.do = recording_do
    if isinstance(commands, Sample):
        while (cmd := commands.next_command(m.state)) is not None:
            m.do(cmd)
        return m
    for cmd in commands:
        m.do(cmd(m.state) if callable(cmd) else cmd)
    return m


def command_events(m, seq: int) -> list:
    """All events written by the command that wrote event ``seq``."""
    starts = [b for b in m.batches if b <= seq]
    start = starts[-1]
    later = [b for b in m.batches if b > seq]
    end = later[0] if later else len(m.events) + 1
    return m.events[start - 1 : end - 1]


def assert_noninterference(
    build_a: Callable[[], tuple], build_b: Callable[[], tuple], viewer: str, *, until_told: bool = False
) -> Stats:
    """``build_a``/``build_b`` return (create command, commands) of the two matches (see :func:`play`)."""
    a, b = play(*build_a()), play(*build_b())
    pairs_a, pairs_b = a.pairs(), b.pairs()
    assert len(pairs_a) == len(pairs_b), "the two matches differ in length: the perturbation is public"
    match_id = a.state.match_id
    ra, rb = Replayer(match_id), Replayer(match_id)
    stats = Stats()
    parted = False
    for (seq, ea), (_, eb) in zip(pairs_a, pairs_b):
        parted = parted or encode(ea) != encode(eb)
        # A command's events are written together, so the viewer is told them together.
        if [told(e, viewer) for e in command_events(a, seq)] != [told(e, viewer) for e in command_events(b, seq)]:
            assert until_told, f"seq {seq}: {viewer} is told different things: the secret is not one"
            stats.told_at = seq
            break
        ra.feed(seq, ea)
        rb.feed(seq, eb)
        va, vb = viewer_models(ra.state, viewer), viewer_models(rb.state, viewer)
        for key in sorted(set(va) | set(vb)):
            assert va.get(key) == vb.get(key), (
                f"leak at seq {seq} ({type(ea).__name__}): {key} for {viewer} depends on a secret\n"
                f"A: {va.get(key)}\nB: {vb.get(key)}"
            )
        stats.compared += 1
        stats.after_divergence += parted
        stats.host_differs += host_models(ra.state) != host_models(rb.state)
    return stats
