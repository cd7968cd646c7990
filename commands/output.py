"""What commands print: JSON for machines, one line per write for people."""

from __future__ import annotations

import json

import click
from matchledger.ledger.store import StoredEvent

from . import logs


def emit_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


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
