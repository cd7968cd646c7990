"""`checkpoint`: store state snapshots so that reading a long or finished match starts
from its last snapshot instead of its first event."""

from __future__ import annotations

import click

from .common import ledger


@click.command("checkpoint")
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--all", "all_matches", is_flag=True, help="Every match in the database.")
def checkpoint_cmd(match_id, all_matches):
    """Store a snapshot of MATCH (or of every match), replayed from its first event.

    A snapshot is a cache of the replayed state, never part of the log: reads start from
    it only while the event it was taken after is unchanged and the engine is the same
    version; otherwise they replay from the first event.  `verify` never uses snapshots
    and reports one that differs from what the log gives.  Hosts rarely need this
    command: recording a command stores a snapshot when a match finishes and every 64
    events; use it after `import`, for a database written by an older version, or to
    replace a snapshot that `verify` reports.

    \b
    Examples:
      matchledger checkpoint m1
      matchledger --db tournament.db checkpoint --all
    """
    if bool(match_id) == bool(all_matches):
        raise click.UsageError("give one MATCH or --all")
    app = ledger()
    ids = app.store.match_ids() if all_matches else [match_id]
    with app.store.transaction():
        for mid in ids:
            seq = app.checkpoint(mid)
            if not all_matches:
                click.echo(f"snapshot of {mid!r} stored after event {seq}")
    if all_matches:
        click.echo(f"snapshots stored for {len(ids)} match{'es' if len(ids) != 1 else ''}")


COMMANDS = [checkpoint_cmd]
