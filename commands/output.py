"""What commands print: JSON for machines, one line per write for people.  Stored text
in either is shown with its unprintable characters escaped (presentation.printable)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import click

from matchledger.projections.presentation.printable import printable, printable_json

if TYPE_CHECKING:  # every command prints through here: neither the engine nor the store is loaded for it
    from matchledger.projections.application import StoredEvent
    from matchledger.projections.supersession import VoidEffect

from . import colour, logs


def emit_json(data) -> None:
    click.echo(printable_json(json.dumps(data, indent=2, ensure_ascii=False)))


def say(line: str, err: bool = False, role: str | None = None) -> None:
    """One line a command puts together, holding stored names, ids or findings;
    ``role`` paints it (a key of ``colour.ROLES``) where colour is on."""
    text = printable(line)
    click.echo(colour.paint(text, role) if role else text, err=err)


def describe_rows(rows: Sequence[StoredEvent]) -> str:
    """One line for the terminal; with --log-json also a structured log record."""
    if rows and logs.wants_json():
        logs.log().info(
            "events_appended",
            match=rows[0].match_id,
            seqs=[r.seq for r in rows],
            kinds=[r.kind for r in rows],
            actor=rows[0].actor,
            head=rows[-1].hash,
        )
    if not rows:
        return "nothing recorded"
    if len(rows) == 1:
        return f"recorded seq {rows[0].seq} ({rows[0].kind})"
    kinds = ", ".join(row.kind for row in rows)
    return f"recorded seq {rows[0].seq}–{rows[-1].seq} ({kinds})"


def written_json(
    match_id: str,
    rows: Sequence[StoredEvent],
    supersedes: Mapping[int, int] | None = None,
    voids: Mapping[int, VoidEffect] | None = None,
) -> dict:
    """What a write recorded, as every write command's --json prints it: each event's
    seq, kind and hash (and, for a resubmission, the seq it supersedes; for a void, the
    submission that counts again in its target's place and the announcements it took
    back: ``counts_again``, ``takes_back``)."""
    supersedes, voids = supersedes or {}, voids or {}
    events = []
    for row in rows:
        entry = {"seq": row.seq, "kind": row.kind, "hash": row.hash}
        if row.seq in supersedes:
            entry["supersedes"] = supersedes[row.seq]
        effect = voids.get(row.seq)
        if effect is not None and effect.counts_again is not None:
            entry["counts_again"] = effect.counts_again
        if effect is not None and effect.takes_back:
            entry["takes_back"] = [seq for seq, _kind in effect.takes_back]
        events.append(entry)
    return {"match": match_id, "events": events}


def report_written(
    match_id: str,
    rows: Sequence[StoredEvent],
    as_json: bool,
    prefix: str = "",
    supersedes: Mapping[int, int] | None = None,
    voids: Mapping[int, VoidEffect] | None = None,
) -> None:
    """What a write recorded: the JSON of ``written_json``, or one line for people,
    ``prefix`` then the seqs and kinds (and what a resubmission supersedes, what a
    void brought back and took back)."""
    recorded = describe_rows(rows)
    if as_json:
        emit_json(written_json(match_id, rows, supersedes, voids))
        return
    replaced = ", ".join(f"seq {old}" for seq, old in sorted((supersedes or {}).items()))
    effects = [text for _seq, effect in sorted((voids or {}).items()) if (text := effect.describe())]
    say(
        prefix + recorded + (f", superseding {replaced}" if replaced else "") + "".join(f"; {text}" for text in effects)
    )
