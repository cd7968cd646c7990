"""Read models: status, scores, outcome, reveals, knowledge, log, head.

Each renders one read model of the match (optionally as it stood after ``--at SEQ``) for
one view: the host's (default), the public's (``--public``) or a participant's
(``--as NAME``).
"""

from __future__ import annotations

import click

from matchledger.engine.commands import RecordOutcome
from matchledger.projections.presentation.events import event_summary
from matchledger.projections.presentation.text import read_model_text, table
from matchledger.projections.presentation.wording import plural
from matchledger.projections.read_models import ReadModel

from .options import load_json_object, read_options, usage_error, view_options
from .output import emit_json, report_written, say
from .session import app


def _show(model: ReadModel, match_id: str, at, as_json: bool, public: bool, as_participant: str | None) -> None:
    readings = app().query(match_id, (model,), public=public, participant=as_participant, at=at)
    data = readings[model]
    if model is ReadModel.STATUS and "deadline" in data:  # whether it passed: the door reads the clock
        from matchledger.projections.deadlines import with_passed

        data = with_passed(data, app().clock())
    if as_json:
        emit_json(data)
        return
    text = read_model_text(readings.game, model, data, readings.view)
    header = f"{model} of {match_id} ({readings.game}) — view: {readings.view.label()}"
    if at is not None:
        header += f", as of seq {at}"
    say(header)
    click.echo(text)


def _read_command(model: ReadModel, summary: str, example: str, *, needs_as: bool = False) -> click.Command:
    def command(match_id, at, as_json, public=False, as_participant=None):
        _show(model, match_id, at, as_json, public, as_participant)

    command.__doc__ = f"{summary}\n\n    \b\n    Examples:\n{example}"
    command = read_options(command)
    if needs_as:
        command = click.option("--as", "as_participant", required=True, metavar="PARTICIPANT", help="Whose knowledge.")(
            command
        )
    else:
        command = view_options(command)
    command = click.argument("match_id", metavar="MATCH")(command)
    return click.command(model.value)(command)


status_cmd = _read_command(
    ReadModel.STATUS,
    "Where the match stands: round, who has submitted, the board or table.",
    "      matchledger status m1\n      matchledger status m1 --public --at 12",
)
scores_cmd = _read_command(
    ReadModel.SCORES,
    "Scores so far (the host sees everyone's; a participant only what they were told).",
    "      matchledger scores m1 --json\n      matchledger scores m2 --as ann",
)
reveals_cmd = _read_command(
    ReadModel.REVEALS,
    "What was announced at each round's close (and, with --as, that participant's private notices).",
    "      matchledger reveals m1 --public\n      matchledger reveals m1 --as alice --json",
)
knowledge_cmd = _read_command(
    ReadModel.KNOWLEDGE,
    "Everything PARTICIPANT may know: the public record, their own moves, their private notices.",
    "      matchledger knowledge m2 --as ann\n      matchledger knowledge m2 --as zed --json --at 30",
    needs_as=True,
)


@click.command("outcome")
@click.argument("match_id", metavar="MATCH")
@view_options
@read_options
@click.option(
    "--announced",
    metavar="FILE",
    help="Record the final results the host actually announced (JSON in the shape of `outcome --json`).",
)
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
    if announced is None:
        _show(ReadModel.OUTCOME, match_id, at, as_json, public, as_participant)
        return
    if at is not None or public or as_participant is not None:
        raise usage_error("--announced records results; it takes no --at, --public or --as")
    payload = load_json_object(announced, "announced outcome")
    rows = app(write=True).execute(match_id, RecordOutcome(payload))
    report_written(match_id, rows, as_json, "recorded the announced outcome; ")


@click.command("log")
@click.argument("match_id", metavar="MATCH")
@view_options
@read_options
def log_cmd(match_id, public, as_participant, at, as_json):
    """The match's events in order, with who recorded them and when.

    The host sees every event whole.  With --public only the events everyone may know
    of (the match's creation and rules, each close, turn and outcome), with --as a
    participant also their own submissions and contract and what became of them; each
    shown with only what that view may see of it.  An event that no longer counts is
    marked with what became of it: a submission or contract record `superseded by 7`
    (a later one for the same round, or the player's later contract), `voided by 9`,
    `corrected by 9`; a round's close `reopened by 9` (and the outcome after it); a
    photographer turn `taken back by 9` (and the outcome it ended the match with).  In
    --json: "superseded_by": 7, "voided_by": 9, "corrected_by": 9, "reopened_by": 9,
    "taken_back_by": 9.  A submission recorded after its round's deadline is marked
    `late` ("late": true).  A participant sees the marks on their own submissions and
    contracts only, the public none; everyone sees those on closes, turns and outcomes.
    `audit` lists the same account.

    \b
    Examples:
      matchledger log m1
      matchledger log m1 --json --at 20
      matchledger log m1 --as ann
    """
    log = app().log(match_id, at, public=public, participant=as_participant)
    view, entries, fates = log.view, log.entries, log.marks
    if as_json:
        emit_json([_log_entry(r, shown, fates.get(r.seq), r.seq in log.late) for r, shown in entries])
        return
    listing = [
        {
            "seq": r.seq,
            "recorded_at": r.recorded_at,
            "actor": r.actor,
            "event": r.kind,
            "details": _marked(event_summary(shown), fates.get(r.seq), r.seq in log.late),
        }
        for r, shown in entries
    ]
    last = entries[-1][0] if entries else None
    shown_head = f", head {last.seq}:{last.hash[:16]}…" if last is not None else ""
    label = "" if view.is_host else f" (view: {view.label()})"
    say(f"log of {match_id}{label}: {plural(len(entries), 'event')}{shown_head}")
    if entries:
        click.echo("\n".join(table(listing)))


def _log_entry(row, shown: dict, fate, late: bool = False) -> dict:
    entry = {
        "seq": row.seq,
        "kind": row.kind,
        "recorded_at": row.recorded_at,
        "actor": row.actor,
        "event": shown,
        "prev_hash": row.prev_hash,
        "hash": row.hash,
    }
    if fate is not None:
        entry[fate.key] = fate.by
    if late:
        entry["late"] = True
    return entry


def _marked(summary: str, fate, late: bool = False) -> str:
    summary = f"{summary} [late]" if late else summary
    return summary if fate is None else f"{summary} [{fate.describe()}]"


@click.command("head")
@click.argument("match_id", metavar="MATCH")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def head_cmd(match_id, as_json):
    """The match's head (last seq and hash) to publish, so truncation can be caught later.

    \b
    Example:
      matchledger head m1          # prints e.g. 42:3f9c…; later: verify m1 --head 42:3f9c…
    """
    seq, digest = app().head(match_id)
    if as_json:
        emit_json({"match": match_id, "seq": seq, "hash": digest})
    else:
        click.echo(f"{seq}:{digest}")
