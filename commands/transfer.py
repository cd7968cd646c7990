"""Moving a match between databases: export and import (JSON Lines, verified on import)."""

from __future__ import annotations

import sys

import click

from matchledger.ledger.limits import EXPORT_FILE_MAX_BYTES
from matchledger.projections.presentation.wording import plural
from matchledger.projections.verification import verify_export

from .files import read_bytes, read_stdin_bytes, write_output
from .options import PublishedHead, usage_error, write_options
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
    if output == "":  # not standard output: a file name was meant and left out
        raise usage_error("-o needs a file name (leave -o out to write to standard output)")
    data, count = app().export(match_id)
    if output is not None:
        write_output(output, data)
        click.echo(f"exported {plural(count, 'event')} of {match_id!r} to {output}", err=True)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


@click.command("import")
@click.argument("file", metavar="FILE")
@write_options
@click.option(
    "--head",
    type=PublishedHead(),
    metavar="SEQ:HASH",
    help="Refuse the export unless its event SEQ has this hash (or a prefix of it, 12 hex digits or more).",
)
def import_cmd(file, head, as_json):
    """Import a match exported with `export`; the chain is verified before anything is written.

    FILE `-` reads standard input.  Refuses a match id that already exists in the
    database.  --head pins what you were sent: with the head the host published
    (`matchledger head`), an export whose event SEQ has another hash is refused with
    exit code 3, and nothing is written.  With --json it prints every event it wrote.

    \b
    Examples:
      matchledger --db auditor.db import m1.jsonl
      matchledger --db auditor.db import m1.jsonl --head 42:3f9c0a1b2c3d4e5f
      matchledger --db host.db export m1 | matchledger --db auditor.db import -
      matchledger --db auditor.db import m1.jsonl --json
    """
    if file == "-":
        data, name = read_stdin_bytes("export", EXPORT_FILE_MAX_BYTES), "standard input"
    else:
        data, name = read_bytes(file, "export file", EXPORT_FILE_MAX_BYTES), str(file)
    export = verify_export(data, name, head)
    rows = app(create=True).import_verified(export)
    if as_json:
        emit_json(written_json(export.match_id, rows))
        return
    click.echo(f"imported {plural(len(rows), 'event')} of {export.match_id!r}; head {rows[-1].seq}:{rows[-1].hash}")
