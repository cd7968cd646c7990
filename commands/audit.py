"""What an auditor runs: verify, audit, diff, rescore, explain."""

from __future__ import annotations

import os
import sys

import click

from matchledger.ledger.errors import MalformedInput, Unavailable, VerificationFailed
from matchledger.ledger.postgres_urls import is_postgres_url
from matchledger.projections.presentation.explanation import explanation_text
from matchledger.projections.presentation.text import generic_text, table
from matchledger.projections.presentation.wording import json_text, options_text, plural
from matchledger.projections.receipts import parse_receipt

from .errors import message
from .files import input_path
from .options import PublishedHead, at_option, key_values, usage_error
from .output import emit_json, say
from .session import app


@click.command("verify")
@click.argument("match_id", metavar="[MATCH]", required=False)
@click.option("--all", "all_matches", is_flag=True, help="Every match in the database.")
@click.option(
    "--head",
    "head",
    type=PublishedHead(),
    metavar="SEQ:HASH",
    help="A published head the log must still contain (the hash in full, or its first 12 or more hex digits).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --all: verify in N processes (default: the machine's cores).",
)
@click.option(
    "--receipt",
    "receipts",
    multiple=True,
    metavar="SEQ:HASH",
    help="A receipt the service gave a participant: a submission proven in the verified chain, or why not. Repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Findings as JSON.")
def verify_cmd(match_id, all_matches, head, jobs, receipts, as_json):
    """Check the hash chain, then replay and re-derive every announcement.

    The stored state snapshot, which reads start from, is compared with the state the
    replay reaches.  Exit code 0 when everything holds, 3 when anything is found (the
    first finding per match names the seq, the field, the recorded and the recomputed
    value).  --all verifies the matches in parallel processes (--jobs) and reports them
    in match order, exactly as one process would.

    --head takes the head as `head` printed it; a prefix of the hash (at least 12 hex
    digits, as `log` shows it) stands for the whole hash.  A prefix pins only as many
    bits as it holds: publish the full hash where a log must be pinned against a
    determined forger.

    --receipt proves a participant's receipt: the event at SEQ must have HASH, the chain
    must hold up to it, and it must be a submission (SubmissionRecorded, the event the
    service hands out receipts for); each one proven is named with its participant and
    round and what became of that submission, as `log` marks it (`superseded by 7`,
    `voided by 5`, `corrected by 9`, or `counts`): a receipt proves the submission was
    recorded, not that it still counts.  Any other event is a finding saying what it
    is.  With --json, "receipts_checked" lists every receipt (seq, hash, kind,
    participant, round, ok, fate: {"voided_by": 5} with `log --json`'s key, or null)
    and "receipts" the findings among them.

    \b
    Examples:
      matchledger verify m1
      matchledger verify m1 --head 42:3f9c0a1b2c3d4e5f
      matchledger verify --all --json
      matchledger verify --all --jobs 4
      matchledger verify m1 --receipt 12:9b1e0c…   # a participant's receipt from serve
    """
    if bool(match_id) == bool(all_matches):
        raise usage_error("name one MATCH or give --all")
    if head and all_matches:
        raise usage_error("--head checks one match; name it instead of --all")
    if jobs is not None and not all_matches:
        raise usage_error("--jobs goes with --all")
    if receipts and all_matches:
        raise usage_error("--receipt checks one match; name it instead of --all")
    try:
        receipts = [parse_receipt(text) for text in receipts]
    except MalformedInput as exc:
        raise usage_error(message(exc)) from None
    application = app()
    if all_matches:
        reports = list(
            _with_progress(application.verify_all(jobs or os.cpu_count() or 1), len(application.match_ids()), as_json)
        )
    else:
        reports = [application.verify(match_id, head)]
    findings = [finding for report in reports for finding in report.findings]
    checked = _receipts(application, match_id, receipts)
    receipt_findings = [check.finding for check in checked if check.finding is not None]
    findings += receipt_findings
    unverified = [report for report in reports if report.not_installed is not None]
    if as_json:
        result = {"ok": not findings and not unverified, "matches": [report.to_json() for report in reports]}
        if receipts:
            result["receipts"] = [finding.to_json() for finding in receipt_findings]
            result["receipts_checked"] = [check.to_json() for check in checked]
        emit_json(result)
    else:
        for report in reports:
            if report.ok:
                abandoned = "" if report.abandoned is None else f"; abandoned at seq {report.abandoned}"
                say(
                    f"{report.match_id}: ok ({plural(report.events, 'event')}; chain intact, every announcement re-derived){abandoned}",
                    role="ok",
                )
            elif report.not_installed is not None:
                say(
                    f"{report.match_id}: not verified here ({plural(report.events, 'event')}; chain intact): its game "
                    f"{report.not_installed!r} is not installed; install the distribution that provides it"
                )
        _say_receipts(match_id, checked)
        for finding in findings:
            say(f"FINDING {finding.describe()}", role="finding")
    if findings:
        raise VerificationFailed(f"verify found {plural(len(findings), 'discrepancy', 'discrepancies')}", findings)
    if unverified:  # no finding: what this installation cannot check (exit 1, not 3)
        games = ", ".join(sorted({report.not_installed for report in unverified}))
        raise Unavailable(
            f"{plural(len(unverified), 'match', 'matches')} not verified: of games not installed here "
            f"({games}): {', '.join(report.match_id for report in unverified)}"
        )


def _receipts(application, match_id: str, receipts: list[tuple[int, str]]) -> list:
    """Each receipt checked: the event it names, and what is wrong with it, if anything."""
    return application.check_receipts(match_id, receipts) if receipts else []


def _say_receipts(match_id: str, checked: list) -> None:
    """Each receipt proven, named, then the count when all are (the others are findings)."""
    for check in checked:
        if check.ok:
            say(check.describe(), role="ok")
    if checked and all(check.ok for check in checked):
        say(f"{match_id}: {plural(len(checked), 'receipt')} in the verified chain")


def _with_progress(reports, count: int, as_json: bool):
    """The reports, with a progress bar on a terminal (never in the JSON or the text)."""
    if as_json or not sys.stderr.isatty():
        yield from reports
        return
    with click.progressbar(length=count, label="verifying", file=sys.stderr) as bar:
        for report in reports:
            bar.update(1)
            yield report


#: The report's lists in the order the text shows them, each with its heading.
_SECTIONS = (
    ("corrections", "corrections"),
    ("host_announcements", "host announcements"),
    ("resubmissions", "resubmissions"),
    ("notes", "notes"),
    ("fates", "no longer counting"),
    ("late", "late submissions"),  # only in the report of a match with deadlines
)


@click.command("audit")
@click.argument("match_id", metavar="MATCH")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON.")
def audit_cmd(match_id, as_json):
    """An auditor's report: the verdict of verify, every correction, amendment and host-entered announcement.

    Each with who recorded it, when and why; then superseded submissions, notes, and
    every event that no longer counts with what became of it (the account `log` marks:
    superseded, voided, corrected, reopened, taken back, and by which seq).  A void
    names the submission that counts again in its target's place (counts_again) and
    the turn and outcome it took back (takes_back).  In a match with deadlines, every
    submission recorded after its round's deadline is listed as late.
    The verdict is `verify`'s own (the same findings).  Exit code 0 when the match
    verifies, 3 when verify has a finding (the report is printed either way; when a
    link of the chain is broken, it covers only the events before the first bad seq).

    \b
    Example:
      matchledger audit m1
    """
    audit = app().audit(match_id)
    report = audit.report
    if as_json:
        emit_json(report)
    else:
        head = report["head"]  # None when the chain breaks at its first event: nothing is vouched for
        say(
            f"audit of {match_id}: {plural(report['events'], 'event')}, "
            + (f"head {head['seq']}:{head['hash']}" if head else "no event the chain vouches for")
        )
        if report["verified"]:
            say("verify: ok", role="ok")
        else:
            say("verify: " + "; ".join(f.describe() for f in audit.findings), role="finding")
        for key, label in _SECTIONS:
            if key not in report:
                continue
            click.echo(f"{label}: {len(report[key])}")
            if report[key]:
                click.echo(generic_text({"": report[key]}, 1).replace("  :\n", "", 1))
    if audit.findings:
        raise VerificationFailed(
            f"verify found {plural(len(audit.findings), 'discrepancy', 'discrepancies')}", audit.findings
        )


@click.command("diff")
@click.argument("match_a", metavar="A")
@click.argument("match_b", metavar="B", required=False)
@click.option("--db-b", "db_b", metavar="PATH", help="B's database file or postgresql:// URL (default: A's).")
@click.option("--json", "as_json", is_flag=True, help="The comparison as JSON.")
def diff_cmd(match_a, match_b, db_b, as_json):
    """Compare two matches' logs (or one match in two database files).

    Prints the first event where they part and which read models differ.  Both logs'
    chains are verified first, and the read models are rebuilt from each log's first
    event (no cached state is trusted).  Exit code 0 when the logs hold the same events
    and both chains are intact, 3 when they part, a read model differs or a chain is
    broken.

    \b
    Examples:
      matchledger diff m1 m1-replayed
      matchledger --db host.db diff m1 --db-b auditor.db
    """
    if match_b is None and db_b is None:
        raise usage_error("name a second match B, or give --db-b to compare A across two files")
    other_db = db_b if db_b is None or is_postgres_url(db_b) else str(input_path(db_b, "database"))
    comparison = app().diff(match_a, match_b or match_a, other_db)
    result = comparison.data
    findings = [(side.upper(), finding) for side, found in comparison.findings.items() for finding in found]
    if as_json:
        emit_json(result)
    else:
        parting = result["first_parting"]
        if parting is None:
            say(f"identical: {plural(result['a']['events'], 'event')} with the same contents", role="ok")
        else:
            say(f"the logs part at seq {parting['seq']}:", role="finding")
            say(
                f"  A: {(parting['a'] or {}).get('kind', '(no event)')}  B: {(parting['b'] or {}).get('kind', '(no event)')}"
            )
            if "field" in parting:
                say(f"  field {parting['field']}: A {json_text(parting['a_value'])}, B {json_text(parting['b_value'])}")
        differing = result["differing_read_models"]
        say("read models that differ: " + (", ".join(differing) if differing else "none"))
        for side, finding in findings:
            say(f"FINDING {side}: {finding.describe()}", role="finding")
    if comparison.differs:
        raise VerificationFailed("the two logs differ", [finding for _side, finding in findings])


@click.command("rescore")
@click.argument("match_id", metavar="MATCH")
@click.option(
    "--option", "options", multiple=True, required=True, metavar="KEY=VALUE", help="The other ruling; repeat for more."
)
@click.option("--json", "as_json", is_flag=True, help="Both outcomes as JSON.")
def rescore_cmd(match_id, options, as_json):
    """What the outcome would be under another ruling, beside the recorded one.

    Nothing is written.

    \b
    Examples:
      matchledger rescore m1 --option filming_lights_divisor=1
      matchledger rescore m2 --option diamond_center_must_be_empty=false --json
    """
    result = app().rescore(match_id, key_values(options, "--option"))
    recorded, rescored = result.recorded, result.rescored
    if as_json:
        emit_json({"options": result.overrides, "recorded": recorded, "rescored": rescored})
        return
    before = {s["participant"]: s for s in recorded.get("standings", [])}
    after = {s["participant"]: s for s in rescored.get("standings", [])}
    rows = [
        {
            "participant": p,
            "rank": before[p].get("rank"),
            "total": before[p].get("total"),
            "rescored rank": after.get(p, {}).get("rank"),
            "rescored total": after.get(p, {}).get("total"),
        }
        for p in before
    ]
    say(f"rescore of {match_id} with {options_text(result.overrides)} (nothing written)")
    click.echo("\n".join(table(rows)) if rows else "(no standings yet)")
    awards_before = [_award(a) for a in recorded.get("awards", [])]
    awards_after = [_award(a) for a in rescored.get("awards", [])]
    lost = [a for a in awards_before if a not in awards_after]
    gained = [a for a in awards_after if a not in awards_before]
    click.echo("awards: " + ("unchanged" if not lost and not gained else ""))
    for a in lost:
        say(f"  - {a}")
    for a in gained:
        say(f"  + {a}")


def _award(award: dict) -> str:
    shards = f" {plural(award['shards'], 'shard')}" if "shards" in award else ""
    return f"{award['participant']}: {award['kind']}{shards} ({award.get('reason', '')})"


@click.command("explain")
@click.argument("match_id", metavar="MATCH")
@click.argument("participant")
@at_option
@click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")
def explain_cmd(match_id, participant, at, as_json):
    """PARTICIPANT's score derived line by line, with the rule behind each point.

    The lines sum exactly to what `scores` shows (host view).

    \b
    Examples:
      matchledger explain m1 alice
      matchledger explain m2 zed --json
    """
    reading = app().explain(match_id, participant, at)
    data = reading.data
    if as_json:
        emit_json(data)
        return
    say(f"explain {participant} in {match_id} ({reading.state.game})" + (f", as of seq {at}" if at else ""))
    click.echo(explanation_text(data))
