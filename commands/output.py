"""What commands print: JSON for machines, one line per write for people.  Stored text
in either is shown with its unprintable characters escaped (presentation.printable)."""

from __future__ import annotations

import json

import click
from matchledger.ledger.log_store import StoredEvent
from matchledger.projections.presentation.printable import printable, printable_json

from . import logs


def emit_json(data) -> None:
    click.echo(printable_json(json.dumps(data, indent=2, ensure_ascii=False)))


def say(line: str, err: bool = False) -> None:
    """One line a command puts together, holding stored names, ids or findings."""
    click.echo(printable(line), err=err)


def describe_rows(rows: list[StoredEvent]) -> str:
    """One line for the terminal; with --log-json also a structured log record."""
    if rows and logs.wants_json():
        logs.log().info("events_appended", match=rows[0].match_id, seqs=[r.seq for r in rows],
                        kinds=[r.kind for r in rows], actor=rows[0].actor, head=rows[-1].hash)
    if not rows:
        return "nothing recorded"
    if len(rows) == 1:
        return f"recorded seq {rows[0].seq} ({rows[0].kind})"
    kinds = ", ".join(row.kind for row in rows)
    return f"recorded seq {rows[0].seq}–{rows[-1].seq} ({kinds})"
