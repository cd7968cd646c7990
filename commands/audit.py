"""What an auditor runs: verify, export, import."""

from __future__ import annotations

import sys

import click

from .common import emit_json, ledger, resolve_path


@click.command("verify")
@click.argument("match_id", metavar="MATCH", required=False)
@click.option("--all", "all_matches", is_flag=True, help="Every match in the database.")
@click.option("--head", "head", metavar="SEQ:HASH", help="A published head the log must still contain.")
@click.option("--json", "as_json", is_flag=True, help="Findings as JSON.")
def verify_cmd(match_id, all_matches, head, as_json):
    """Check the hash chain, then replay and re-derive every announcement.

    Exit code 0 when everything holds, 3 when anything is found (the first finding
    per match names the seq, the field, the recorded and the recomputed value).

    \b
    Examples:
      matchledger verify m1
      matchledger verify m1 --head 42:3f9c0a…
      matchledger verify --all --json
    """
    from ledger.errors import MalformedInput, UnknownMatch, VerificationFailed
    from ledger.verify import parse_head, verify_chain
    from projections.audit import rederive

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
        found = verify_chain(mid, rows, published)
        if not found:
            found = rederive(mid, ((r.seq, r.event()) for r in rows))
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
    from ledger.errors import UnknownMatch
    from ledger.portable import export_lines

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
    from ledger.errors import IllegalMove, MalformedInput, VerificationFailed
    from ledger.portable import parse_lines
    from ledger.verify import verify_chain
    from projections.fold import replay

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
    replay(match_id, [(r.seq, r.event()) for r in rows])  # the game must accept every event
    store = ledger().store
    if store.has_match(match_id):
        raise IllegalMove(f"match {match_id!r} already exists in {store.path!r}; nothing imported")
    store.append_rows(rows)
    click.echo(f"imported {len(rows)} events of {match_id!r}; head {rows[-1].seq}:{rows[-1].hash}")


COMMANDS = [verify_cmd, export_cmd, import_cmd]
