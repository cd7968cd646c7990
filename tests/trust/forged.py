"""Logs from elsewhere: well-hashed logs whose text no current command would accept
(names, ids, notes and the actor holding control characters), as an older version or
a hostile tool could have written them into a database file.  The events are decided by
the engine itself, so that every read accepts the match; only the text is hostile (and
`verify` names the first of it)."""

from __future__ import annotations

from pathlib import Path

from matchledger import engine
from matchledger.engine.commands import AddNote, CloseRound, Submit
from matchledger.ledger.events import MatchCreated
from matchledger.ledger.portable import export_lines
from matchledger.ledger.store import Store
from matchledger.projections.fold import Replayer

from .common import STUDIO

T = "2024-01-01T12:00:00.000000Z"

#: Text that would drive a terminal: an OSC 52 clipboard write, a colour, a title, a
#: forged log row after a line break, a bidirectional override.
HOSTILE = [
    "\x1b]52;c;aGVsbG8=\x07",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "x\n  9  2024-01-01T00:00:00Z  host  NoteAdded  forged",
    "\u202eevil",
    "\x9b2J",
]


def forged_lca(match_id: str, players: list[str], note: str) -> list:
    """A match of lca on the example studio, its first round closed, with ``note``:
    every event as the engine decides it, for players named as given."""
    game = engine.get("lca")
    options = {name: spec.default for name, spec in game.OPTIONS.items()}
    studio = STUDIO.read_text().split()
    events = [MatchCreated(game="lca", players=players, options=options, setup={"studio": studio})]
    replayer = Replayer(match_id)
    replayer.feed(1, events[0])
    commands = [Submit(p, cells.split()) for p, cells in zip(players, ["A1 B2 C3 D4 E5", "J1 I2 H3 G4 F5"])]
    for command in [*commands, AddNote("placeholder"), CloseRound()]:
        for event in game.decide(replayer.state, command):
            if command.__class__ is AddNote:
                event = type(event)(text=note)
            events.append(event)
            replayer.feed(len(events), event)
    return events


def plant(db: Path, match_id: str, events: list, actor: str) -> Path:
    """``events`` written into the database file ``db`` as an older version or a hostile
    tool could have written them: chained and hashed, never decided (`import` refuses a
    log whose text no command accepts, so such a log reaches a database only this way)."""
    store = Store(db)
    try:
        store.append(match_id, 1, events, actor=actor, recorded_at=T)
    finally:
        store.close()
    return db


def export_file(path: Path, match_id: str, events: list, actor: str) -> Path:
    """``events`` as an export file of match ``match_id``, chained and hashed."""
    rows = Store(":memory:").append(match_id, 1, events, actor=actor, recorded_at=T)
    path.write_bytes(export_lines(rows))
    return path
