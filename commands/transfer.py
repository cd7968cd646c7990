"""Moving a match between databases: export and import (JSON Lines, verified on import)."""

from __future__ import annotations

import sys

import click
from matchledger.ledger.limits import EXPORT_FILE_MAX_BYTES
from matchledger.projections.verification import verify_export
from matchledger.projections.presentation.wording import plural

from .files import read_bytes, write_output
from .options import write_options
from .output import emit_json, written_json
from .session import app


@click.command("export")
@click.argument("match_id", metavar="MATCH")
@click.option("-o", "--output", metavar="FILE", help="Write to FILE instead of stdout.")
def export_cmd(match_id, output):
    """A portable JSON Lines copy of the match's log: one event envelope per line.

    \b
    Examples:
      matchledger export m1 > m1.jsonl
      matchledger export m1 -o m1.jsonl
    """
    data, count = app().export(match_id)
    if output:
        write_output(output, data)
        click.echo(f"exported {plural(count, 'event')} of {match_id!r} to {output}", err=True)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


@click.command("import")
@click.argument("file", metavar="FILE")
@write_options
def import_cmd(file, as_json):
    """Import a match exported with `export`; the chain is verified before anything is written.

    Refuses a match id that already exists in the database.  With --json it prints
    every event it wrote.

    \b
    Examples:
      matchledger --db auditor.db import m1.jsonl
      matchledger --db auditor.db import m1.jsonl --json
    """
    export = verify_export(read_bytes(file, "export file", EXPORT_FILE_MAX_BYTES), str(file))
    rows = app(create=True).import_verified(export)
    if as_json:
        emit_json(written_json(export.match_id, rows))
        return
    click.echo(f"imported {plural(len(rows), 'event')} of {export.match_id!r}; head {rows[-1].seq}:{rows[-1].hash}")
