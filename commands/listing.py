"""`list`: every match in the database, where it stands, and its head."""

from __future__ import annotations

import click
from matchledger.ledger.errors import VerificationFailed
from matchledger.projections.presentation.text import table

from .output import emit_json, say
from .session import app

#: Hex digits of a head's hash shown in the table (`verify --head` takes the whole one
#: from `list --json` or `head`).
SHOWN_HASH = 12


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def list_cmd(as_json):
    """Every match: game, players, round or turn, finished or abandoned, head.

    Each match's chain is checked as any read checks it: a match whose log does not
    verify is listed with its problem, and the command then exits with code 3.

    \b
    Examples:
      matchledger list
      matchledger --db tournament.db list --json
    """
    summaries = app().list_matches()
    if as_json:
        emit_json([summary.to_json() for summary in summaries])
    elif not summaries:
        say(f"no matches in {app().location}")
    else:
        click.echo("\n".join(table([_row(summary) for summary in summaries])))
    broken = [summary for summary in summaries if summary.problem is not None]
    for summary in broken if not as_json else []:
        say(f"FINDING {summary.problem}", err=True)
    if broken:
        names = ", ".join(summary.match for summary in broken)
        raise VerificationFailed(f"{len(broken)} of {len(summaries)} matches do not verify: {names}")


def _row(summary) -> dict:
    if summary.problem is not None:
        return {"match": summary.match, "game": "?", "players": "", "at": "", "state": "does not verify", "head": ""}
    if summary.abandoned is not None:
        state = f"abandoned at seq {summary.abandoned}"
    else:
        state = "finished" if summary.finished else "playing" if summary.round is not None else "results to record"
    return {
        "match": summary.match,
        "game": summary.game,
        "players": ", ".join(summary.players),
        "at": "" if summary.round is None else f"{summary.round_word} {summary.round}",
        "state": state,
        "head": f"{summary.head[0]}:{summary.head[1][:SHOWN_HASH]}",
    }
