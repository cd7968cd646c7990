"""Read models: status, log, scores, outcome, reveals, knowledge, head.

Each replays the log (optionally only up to ``--at SEQ``) and renders one read model
for one view: the host's (default), the public's (``--public``) or a participant's
(``--as NAME``).
"""

from __future__ import annotations

import click

from .common import emit_json, ledger, read_options, view_for, view_options


def _show(model: str, match_id: str, at, as_json: bool, public: bool, as_participant: str | None):
    from matchledger.projections.presentation.text import read_model_text

    app = ledger()
    state = app.state(match_id, at)
    game = app.game_of(state)
    view = view_for(public, as_participant, state)
    if model == "knowledge":
        data = game.knowledge(state, view.participant)
    else:
        data = getattr(game, model)(state, view)
    if as_json:
        emit_json(data)
        return
    text = read_model_text(state.game, model, data, view)
    header = f"{model} of {match_id} ({state.game}) — view: {view.label()}"
    if at is not None:
        header += f", as of seq {at}"
    click.echo(header)
    click.echo(text)


def _read_command(model: str, summary: str, example: str, *, needs_as: bool = False):
    def command(match_id, at, as_json, public=False, as_participant=None):
        _show(model, match_id, at, as_json, public, as_participant)

    command.__doc__ = f"{summary}\n\n    \b\n    Examples:\n{example}"
    command = read_options(command)
    if needs_as:
        command = click.option("--as", "as_participant", required=True, metavar="PARTICIPANT", help="Whose knowledge.")(command)
    else:
        command = view_options(command)
    command = click.argument("match_id", metavar="MATCH")(command)
    return click.command(model)(command)


status_cmd = _read_command(
    "status",
    "Where the match stands: round, who has submitted, the board or table.",
    "      matchledger status m1\n      matchledger status m1 --public --at 12",
)
scores_cmd = _read_command(
    "scores",
    "Scores so far (the host sees everyone's; a participant only what they were told).",
    "      matchledger scores m1 --json\n      matchledger scores m2 --as ann",
)


@click.command("outcome")
@click.argument("match_id", metavar="MATCH")
@view_options
@read_options
@click.option("--announced", metavar="FILE", help="Record the final results the host actually announced (JSON in the shape of `outcome --json`).")
def outcome_cmd(match_id, public, as_participant, at, as_json, announced):
    """Final standings and awards (ToLs, shards, marks, ECs); --public gives the announced subset.

    For a hand-scored match, --announced FILE records the results the host announced
    (after the last round was closed with `close --announced`); `verify` then compares
    them with what the rules give.

    \b
    Examples:
      matchledger outcome m1 --json
      matchledger outcome m1 --public
      matchledger outcome m1 --announced final.json
    """
    if announced is not None:
        from matchledger.engine.commands import RecordOutcome
        from matchledger.ledger.errors import MalformedInput

        from .common import describe_rows, load_json_object

        if at is not None or public or as_participant or as_json:
            raise MalformedInput("--announced records results; it takes no --at, --public, --as or --json")
        payload = load_json_object(announced, "announced outcome")
        rows = ledger().execute(match_id, RecordOutcome(payload))
        click.echo(f"recorded the announced outcome; {describe_rows(rows)}")
        return
    _show("outcome", match_id, at, as_json, public, as_participant)

reveals_cmd = _read_command(
    "reveals",
    "What was announced at each round's close (and, with --as, that participant's private notices).",
    "      matchledger reveals m1 --public\n      matchledger reveals m1 --as alice --json",
)
knowledge_cmd = _read_command(
    "knowledge",
    "Everything PARTICIPANT may know: the public record, their own moves, their private notices.",
    "      matchledger knowledge m2 --as ann\n      matchledger knowledge m2 --as zed --json --at 30",
    needs_as=True,
)


@click.command("log")
@click.argument("match_id", metavar="MATCH")
@read_options
def log_cmd(match_id, at, as_json):
    """The match's events in order, with who recorded them and when (host/auditor view).

    \b
    Examples:
      matchledger log m1
      matchledger log m1 --json --at 20
    """
    from matchledger.ledger.codec import decode_json
    from matchledger.projections.presentation.events import event_summary
    from matchledger.projections.presentation.text import table

    app = ledger()
    if at is not None:
        app.state(match_id, at)  # validates --at
    rows = app.store.rows(match_id, upto=at)
    if not rows:
        app.store.events(match_id)  # raises UnknownMatch
    if as_json:
        emit_json(
            [
                {
                    "seq": r.seq,
                    "kind": r.kind,
                    "recorded_at": r.recorded_at,
                    "actor": r.actor,
                    "event": decode_json(r.body),
                    "prev_hash": r.prev_hash,
                    "hash": r.hash,
                }
                for r in rows
            ]
        )
        return
    listing = [
        {"seq": r.seq, "recorded_at": r.recorded_at, "actor": r.actor, "event": r.kind, "details": event_summary(decode_json(r.body))}
        for r in rows
    ]
    click.echo(f"log of {match_id}: {len(rows)} events, head {rows[-1].seq}:{rows[-1].hash[:16]}…")
    click.echo("\n".join(table(listing)))


@click.command("head")
@click.argument("match_id", metavar="MATCH")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def head_cmd(match_id, as_json):
    """The match's head (last seq and hash) to publish, so truncation can be caught later.

    \b
    Example:
      matchledger head m1          # prints e.g. 42:3f9c…; later: verify m1 --head 42:3f9c…
    """
    from matchledger.ledger.errors import UnknownMatch

    head = ledger().store.head(match_id)
    if head is None:
        raise UnknownMatch(f"no match {match_id!r} in {ledger().store.path!r}")
    if as_json:
        emit_json({"match": match_id, "seq": head[0], "hash": head[1]})
    else:
        click.echo(f"{head[0]}:{head[1]}")


COMMANDS = [status_cmd, scores_cmd, outcome_cmd, reveals_cmd, knowledge_cmd, log_cmd, head_cmd]
