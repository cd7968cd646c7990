"""`list`: every match in the database, where it stands, and its head; or, with
`--games`, every installed game and the setup `new` takes for it."""

from __future__ import annotations

import click
import msgspec

from matchledger.ledger.errors import Unavailable, VerificationFailed
from matchledger.projections.presentation.text import table

from .errors import message
from .output import emit_json, say
from .session import app

#: Hex digits of a head's hash shown in the table (`verify --head` takes the whole one
#: from `list --json` or `head`).
SHOWN_HASH = 12


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
@click.option("--games", is_flag=True, help="List the installed games instead, and the setup `new` takes for each.")
def list_cmd(as_json, games):
    """Every match: game, players, round or turn, finished or abandoned, head.

    Each match's chain is checked as any read checks it: a match whose log does not
    verify is listed with its problem, and the command then exits with code 3.

    With --games, the games installed instead (no database is read): one line a game,
    its name, kind (rounds or turns), title and the setup flags `new` takes for it; with
    --json, a list of {"name", "title", "kind", "summary", "setup": [{"name", "flag",
    "kind", "help", "example"}, ...]}.

    \b
    Examples:
      matchledger list
      matchledger --db tournament.db list --json
      matchledger list --games
      matchledger list --games --json
    """
    if games:
        return _list_games(as_json)
    summaries = [_worded(summary) for summary in app().list_matches()]
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
    missing = [summary for summary in summaries if summary.not_installed is not None]
    if missing:  # not a finding: a game to install (exit 1, as any command that cannot run here)
        games = ", ".join(sorted({summary.game for summary in missing}))
        raise Unavailable(
            f"{len(missing)} of {len(summaries)} matches are of games not installed here ({games}): "
            f"{', '.join(summary.match for summary in missing)}"
        )


def _worded(summary):
    """``summary`` with its problem in the command line's words."""
    if summary.error is None:
        return summary
    return msgspec.structs.replace(summary, problem=message(summary.error))


def _row(summary) -> dict:
    if summary.problem is not None:
        return {"match": summary.match, "game": "?", "players": "", "at": "", "state": "does not verify", "head": ""}
    if summary.not_installed is not None:
        return {
            "match": summary.match,
            "game": summary.game,
            "players": "",
            "at": "",
            "state": "game not installed",
            "head": "",
        }
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


def _list_games(as_json: bool) -> None:
    from .declared_setup import installed  # only `list --games` reads the declarations

    specs, broken = installed()
    described = [game_json(spec) for spec in specs]
    if as_json:
        emit_json(described)
    else:
        rows = [
            {
                "game": game["name"],
                "kind": game["kind"],
                "title": game["title"],
                "setup": " ".join(parameter["flag"] for parameter in game["setup"]),
            }
            for game in described
        ]
        click.echo("\n".join(table(rows)))
    for name, why in broken.items():
        say(f"warning: game {name!r} is installed, but its declaration cannot be read: {why}", err=True)


def game_json(spec) -> dict:
    """A game's declaration as `list --games --json` prints it (a contract: add, never rename)."""
    return {
        "name": spec.name,
        "title": spec.title,
        "kind": spec.kind,
        "summary": spec.summary,
        "setup": [
            {"name": p.name, "flag": p.flag, "kind": p.kind, "help": p.help, "example": p.example} for p in spec.setup
        ],
    }
