"""`checkpoint`: store state snapshots so that reading a long or finished match starts
from its last snapshot instead of its first event."""

from __future__ import annotations

import click

from .options import write_options
from .output import emit_json, written_json
from .session import app


@click.command("checkpoint")
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--all", "all_matches", is_flag=True, help="Every match in the database.")
@write_options
def checkpoint_cmd(match_id, all_matches, as_json):
    """Store a snapshot of MATCH (or of every match), replayed from its first event.

    A snapshot is a cache of the replayed state, never part of the log: reads start from
    it only while the event it was taken after is unchanged and the engine is the same
    version; otherwise they replay from the first event.  `verify` never uses snapshots
    and reports one that differs from what the log gives.  Hosts rarely need this
    command: recording a command stores a snapshot when a match finishes and every 64
    events; use it after `import`, for a database written by an older version, or to
    replace a snapshot that `verify` reports.  With --json it prints the event it
    recorded (none when the log already vouched for the stored snapshot); with --all, a
    list of those, one per match.

    \b
    Examples:
      matchledger checkpoint m1
      matchledger --db tournament.db checkpoint --all
      matchledger checkpoint m1 --json
    """
    if bool(match_id) == bool(all_matches):
        raise click.UsageError("give one MATCH or --all")
    application = app(write=True)
    stored = application.checkpoint_all() if all_matches else {match_id: application.checkpoint(match_id)}
    if as_json:
        written = [written_json(match, done.rows) for match, done in stored.items()]
        emit_json(written if all_matches else written[0])
    elif all_matches:
        click.echo(f"snapshots stored for {len(stored)} match{'es' if len(stored) != 1 else ''}")
    else:
        click.echo(f"snapshot of {match_id!r} stored after event {stored[match_id].seq}")
