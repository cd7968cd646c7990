"""What an auditor runs: verify, export, import."""

from __future__ import annotations

import sys

import click

from .common import emit_json, ledger, resolve_path


@click.command("verify")
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--all", "all_matches", is_flag=True, help="Every match in the database.")
@click.option("--head", "head", metavar="SEQ:HASH", help="A published head the log must still contain.")
@click.option("--json", "as_json", is_flag=True, help="Findings as JSON.")
def verify_cmd(match_id, all_matches, head, as_json):
    """Check the hash chain, then replay and re-derive every announcement (and compare
    the stored state snapshot, which reads start from, with the state replay reaches).

    Exit code 0 when everything holds, 3 when anything is found (the first finding
    per match names the seq, the field, the recorded and the recomputed value).

    \b
    Examples:
      matchledger verify m1
      matchledger verify m1 --head 42:3f9c0a…
      matchledger verify --all --json
    """
    from matchledger.ledger.errors import MalformedInput, UnknownMatch, VerificationFailed
    from matchledger.ledger.verify import parse_head, verify_chain
    from matchledger.projections import snapshots
    from matchledger.projections.audit import rederive

    if bool(match_id) == bool(all_matches):
        raise MalformedInput("name one MATCH or give --all")
    if head and all_matches:
        raise MalformedInput("--head checks one match; name it instead of --all")
    store = ledger().store
    published = parse_head(head) if head else None
    ids = store.match_ids() if all_matches else [match_id]
    if not all_matches and not store.has_match(match_id):
        raise UnknownMatch(f"no match {match_id!r} in {store.path!r}")
    findings = []
    report = []
    progress = _progress(ids) if all_matches and not as_json and sys.stderr.isatty() else None
    for mid in ids:
        rows = store.rows(mid)
        events: list = []
        found = verify_chain(mid, rows, published, decoded=events)
        if not found:
            stored = store.snapshot(mid, snapshots.revision()) if snapshots.revision() else None
            found = rederive(mid, events, bodies=[row.body for row in rows], snapshot=stored and stored[:2])
        findings += found
        report.append({"match": mid, "events": len(rows), "ok": not found, "findings": [f.to_json() for f in found]})
        if progress:
            progress.update(1)
    if progress:
        progress.render_finish()
    if as_json:
        emit_json({"ok": not findings, "matches": report})
    else:
        for entry, mid in zip(report, ids):
            if entry["ok"]:
                click.echo(f"{mid}: ok ({entry['events']} events; chain intact, every announcement re-derived)")
        for finding in findings:
            click.echo(f"FINDING {finding.describe()}")
    if findings:
        raise VerificationFailed(f"verify found {len(findings)} discrepanc{'y' if len(findings) == 1 else 'ies'}", findings)


def _progress(ids):
    bar = click.progressbar(length=len(ids), label="verifying", file=sys.stderr)
    bar.__enter__()
    return bar


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
    from matchledger.ledger.errors import UnknownMatch
    from matchledger.ledger.portable import export_lines

    rows = ledger().store.rows(match_id)
    if not rows:
        raise UnknownMatch(f"no match {match_id!r} in {ledger().store.path!r}")
    data = export_lines(rows)
    if output:
        with open(output, "wb") as handle:
            handle.write(data)
        click.echo(f"exported {len(rows)} events of {match_id!r} to {output}", err=True)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


@click.command("import")
@click.argument("file", metavar="FILE")
def import_cmd(file):
    """Import a match exported with `export`; the chain is verified before anything is written.

    Refuses a match id that already exists in the database.

    \b
    Example:
      matchledger --db auditor.db import m1.jsonl
    """
    from matchledger.ledger.errors import IllegalMove, MalformedInput, VerificationFailed
    from matchledger.ledger.portable import parse_lines
    from matchledger.ledger.verify import verify_chain
    from matchledger.projections.fold import replay

    path = resolve_path(file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise MalformedInput(f"cannot read {file!r}: {exc.strerror or exc}") from None
    rows = parse_lines(data, str(file))
    match_id = rows[0].match_id
    findings = verify_chain(match_id, rows)
    if findings:
        raise VerificationFailed(f"{file}: broken chain, nothing imported: {findings[0].describe()}", findings)
    state = replay(match_id, [(r.seq, r.event()) for r in rows])  # the game must accept every event
    app = ledger(create=True)
    if app.store.has_match(match_id):
        raise IllegalMove(f"match {match_id!r} already exists in {app.store.path!r}; nothing imported")
    app.import_rows(rows, state)
    click.echo(f"imported {len(rows)} events of {match_id!r}; head {rows[-1].seq}:{rows[-1].hash}")


@click.command("audit")
@click.argument("match_id", metavar="MATCH")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON.")
def audit_cmd(match_id, as_json):
    """An auditor's report: verify verdict, every correction, amendment and host-entered
    announcement with who, when and why, superseded submissions and notes.

    \b
    Example:
      matchledger audit m1
    """
    from matchledger.ledger.errors import UnknownMatch
    from matchledger.ledger.verify import verify_chain
    from matchledger.projections.audit import audit_report, rederive

    from .render import render

    store = ledger().store
    rows = store.rows(match_id)
    if not rows:
        raise UnknownMatch(f"no match {match_id!r} in {store.path!r}")
    events: list = []
    findings = verify_chain(match_id, rows, decoded=events) or rederive(match_id, events)
    report = audit_report(match_id, rows, findings)
    if as_json:
        emit_json(report)
        return
    click.echo(f"audit of {match_id}: {report['events']} events, head {report['head']['seq']}:{report['head']['hash']}")
    click.echo("verify: " + ("ok" if report["verified"] else "; ".join(f.describe() for f in findings)))
    for key in ("corrections", "host_announcements", "resubmissions", "notes"):
        click.echo(f"{key.replace('_', ' ')}: {len(report[key])}")
        if report[key]:
            click.echo(render({"": report[key]}, 1).replace("  :\n", "", 1))


@click.command("diff")
@click.argument("match_a", metavar="A")
@click.argument("match_b", metavar="B", required=False)
@click.option("--db-b", "db_b", metavar="PATH", help="B's database file (default: the same as A's).")
@click.option("--json", "as_json", is_flag=True, help="The comparison as JSON.")
def diff_cmd(match_a, match_b, db_b, as_json):
    """Compare two matches' logs (or one match in two database files): the first event
    where they part, and which read models differ.

    \b
    Examples:
      matchledger diff m1 m1-replayed
      matchledger --db host.db diff m1 --db-b auditor.db
    """
    from matchledger.ledger.errors import MalformedInput, UnknownMatch
    from matchledger.ledger.store import Store
    from matchledger.projections.app import Ledger
    from matchledger.projections.audit import first_parting
    from matchledger.projections.views import all_read_models

    if match_b is None and db_b is None:
        raise MalformedInput("name a second match B, or give --db-b to compare A across two files")
    match_b = match_b or match_a
    app_a = ledger()
    app_b = Ledger(Store(db_b, create=False)) if db_b else app_a
    rows_a, rows_b = app_a.store.rows(match_a), app_b.store.rows(match_b)
    for rows, name, app in ((rows_a, match_a, app_a), (rows_b, match_b, app_b)):
        if not rows:
            raise UnknownMatch(f"no match {name!r} in {app.store.path!r}")
    parting = first_parting(rows_a, rows_b)
    models_a = all_read_models(app_a.state(match_a))
    models_b = all_read_models(app_b.state(match_b))
    differing = sorted(k for k in set(models_a) | set(models_b) if models_a.get(k) != models_b.get(k))
    result = {"a": {"match": match_a, "db": app_a.store.path, "events": len(rows_a)},
              "b": {"match": match_b, "db": app_b.store.path, "events": len(rows_b)},
              "identical": parting is None, "first_parting": parting, "differing_read_models": differing}
    if as_json:
        emit_json(result)
        return
    if parting is None:
        click.echo(f"identical: {len(rows_a)} events with the same contents")
    else:
        click.echo(f"the logs part at seq {parting['seq']}:")
        click.echo(f"  A: {(parting['a'] or {}).get('kind', '(no event)')}  B: {(parting['b'] or {}).get('kind', '(no event)')}")
        if "field" in parting:
            click.echo(f"  field {parting['field']}: A {parting['a_value']!r}, B {parting['b_value']!r}")
    click.echo("read models that differ: " + (", ".join(differing) if differing else "none"))


@click.command("rescore")
@click.argument("match_id", metavar="MATCH")
@click.option("--option", "options", multiple=True, required=True, metavar="KEY=VALUE", help="The other ruling; repeat for more.")
@click.option("--json", "as_json", is_flag=True, help="Both outcomes as JSON.")
def rescore_cmd(match_id, options, as_json):
    """What the outcome would be under another ruling, beside the recorded one.
    Nothing is written.

    \b
    Examples:
      matchledger rescore m1 --option filming_lights_divisor=1
      matchledger rescore m2 --option diamond_center_must_be_empty=false --json
    """
    from matchledger.engine.base import HOST
    from matchledger.projections.audit import rescore

    from .common import key_values
    from .render import table

    app = ledger()
    state = app.state(match_id)
    game = app.game_of(state)
    overrides = {k: game.parse_option(k, v) for k, v in key_values(options, "--option").items()}
    alternative = rescore(match_id, app.store.events(match_id), overrides)
    recorded, rescored = game.outcome(state, HOST), game.outcome(alternative, HOST)
    if as_json:
        emit_json({"options": overrides, "recorded": recorded, "rescored": rescored})
        return
    before = {s["participant"]: s for s in recorded.get("standings", [])}
    after = {s["participant"]: s for s in rescored.get("standings", [])}
    rows = [
        {"participant": p, "rank": before[p].get("rank"), "total": before[p].get("total"),
         "rescored rank": after.get(p, {}).get("rank"), "rescored total": after.get(p, {}).get("total")}
        for p in before
    ]
    click.echo(f"rescore of {match_id} with {', '.join(f'{k}={v}' for k, v in overrides.items())} (nothing written)")
    click.echo("\n".join(table(rows)) if rows else "(no standings yet)")
    awards_before = [_award(a) for a in recorded.get("awards", [])]
    awards_after = [_award(a) for a in rescored.get("awards", [])]
    lost = [a for a in awards_before if a not in awards_after]
    gained = [a for a in awards_after if a not in awards_before]
    click.echo("awards: " + ("unchanged" if not lost and not gained else ""))
    for a in lost:
        click.echo(f"  - {a}")
    for a in gained:
        click.echo(f"  + {a}")


def _award(award: dict) -> str:
    shards = f" {award['shards']} shards" if "shards" in award else ""
    return f"{award['participant']}: {award['kind']}{shards} ({award.get('reason', '')})"


@click.command("explain")
@click.argument("match_id", metavar="MATCH")
@click.argument("participant")
@click.option("--at", "at", type=int, metavar="SEQ", help="The match as it stood after event SEQ.")
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def explain_cmd(match_id, participant, at, as_json):
    """PARTICIPANT's score derived line by line, with the rule behind each point;
    the lines sum exactly to what `scores` shows (host view).

    \b
    Examples:
      matchledger explain m1 alice
      matchledger explain m2 zed --json
    """
    from .common import view_for

    app = ledger()
    state = app.state(match_id, at)
    view_for(False, participant, state)  # validates the name
    data = app.game_of(state).explain(state, participant)
    if as_json:
        emit_json(data)
        return
    click.echo(f"explain {participant} in {match_id} ({state.game})" + (f", as of seq {at}" if at else ""))
    for category in data["categories"]:
        click.echo(f"{category['category']}: {category['score']}" + (f"  (exact {category['exact']})" if category.get("exact") not in (None, str(category["score"])) else ""))
        for line in category["lines"]:
            click.echo(f"  {str(line['points']):>8}  {line['detail']}  [{line['rule']}]")
    click.echo(f"total: {data['total']}")


COMMANDS = [verify_cmd, export_cmd, import_cmd, audit_cmd, diff_cmd, rescore_cmd, explain_cmd]
