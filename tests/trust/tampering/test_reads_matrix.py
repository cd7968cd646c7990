"""Tampering against every read: each kind of tampering (tampering.KINDS), made with
plain sqlite3 to one match of a copy of a database holding every game's fixture match
finished and unfinished, then every read command through the real command line, in
the host's, the public's and a participant's view, text and JSON, now and `--at` the
seqs around the tampering and the checkpoint.

A read either shows exactly what it showed before the tampering, or refuses with exit
code 3 naming the first bad seq, showing nothing.  A consistent rewrite (every hash
recomputed) is the boundary: reads of the rewritten part show what the rewritten log
gives, exactly (no more, no less), unless a snapshot the log still vouches for stands
for it, or the rewritten log contradicts itself at a checkpoint (refused there); and
`verify --head` with the head published before names it.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.helpers import invoke
from tests.reliability.support import FIXTURE_MATCHES, copy_db
from tests.trust.tampering.harness import (
    FORGED,
    FORGED_NOTE,
    KINDS,
    REFERENCE,
    SAME,
    Read,
    build,
    fresh_copy,
    reads,
    rng_for,
    rows_of,
    run,
)

# Long, like the suites under tests/reliability/ (which get the marker from their folder):
# `-m "not reliability"` leaves it out.
pytestmark = pytest.mark.reliability

LABELS = [f"{game}-{state}" for game in FIXTURE_MATCHES for state in ("finished", "open")]


@pytest.fixture(scope="module")
def reads_matrix_template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tamper-reads")
    matches = {match.label: match for match in build(folder / "recorded.db", folder)}
    path = copy_db(folder / "recorded.db", folder / "clean.db")  # every page in the file, none in a WAL
    return path, matches, {}, folder / "before"


def before(clean, read):
    """What ``read`` showed before the tampering (each read run once on the clean file)."""
    path, _matches, cache, folder = clean
    if read.args not in cache:
        cache[read.args] = run(path, read, folder)
    return cache[read.args]


def _reference(path, match_id, folder):
    """The tampered log alone: the same file without the match's snapshot."""
    reference = fresh_copy(path, folder / "reference.db")
    conn = sqlite3.connect(reference)
    conn.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    conn.commit()
    conn.close()
    return reference


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("kind", KINDS, ids=[kind.__name__ for kind in KINDS])
# every row of the table of reads under tampering in docs/guarantees.md: each is one or more KINDS
@pytest.mark.guarantee(
    "reads.changed-rows",
    "reads.truncated",
    "reads.forged-snapshot",
    "reads.forged-snapshot-digest",
    "reads.checkpoint-digest-rechained",
    "reads.checkpoint-seq-rechained",
    "reads.inserted-before-checkpoint",
    "reads.inserted-after-checkpoint",
    "reads.replaced-and-repointed",
    "reads.forged-snapshot-rechained",
)
def test_every_read_shows_the_truth_or_refuses_naming_the_first_bad_seq(kind, label, reads_matrix_template, tmp_path):
    path0, matches, _cache, _folder = reads_matrix_template
    match = matches[label]
    path = fresh_copy(path0, tmp_path / "t.db")
    rows = rows_of(path0, match.id)
    tamper = kind(path, match, rows, rng_for(kind.__name__, label))
    assert rows_of(path, match.id) != rows or tamper.touched == match.last + 1  # the log (or only the snapshot) changed

    reference = _reference(path, match.id, tmp_path)
    start = tamper.touched or tamper.rewritten or tamper.truncated
    c = match.checkpoint
    ats = sorted({at for at in (start - 1, start, c - 1, c, match.last) if 1 <= at <= match.last})
    pictures = (KINDS.index(kind) + LABELS.index(label)) % 3 == 0
    outcomes = []
    png = pictures and kind is KINDS[0]  # a PNG is an SVG converted (slow): a sample of one kind
    for read in reads(match, ats, pictures, png):
        expected, seq = tamper.expect(match, read.parts)
        got = run(path, read, tmp_path / "tampered")
        code, stdout, stderr, written = got
        where = f"{' '.join(read.args)} -> expected {expected} {seq or ''}, got exit {code}: {stderr.strip()[:300]}"
        assert "Traceback" not in stdout + stderr, where
        if expected == SAME:
            _equal(got, before(reads_matrix_template, read), where, "before the tampering")
        elif expected == REFERENCE:
            _equal(got, run(reference, read, tmp_path / "reference"), where, "the tampered log alone")
        elif expected == FORGED:  # shown, as the forged snapshot has it
            assert code == 0, where
            if got != before(reads_matrix_template, read):
                outcomes.append("forgery shown")
        else:
            assert code == 3, where
            assert f"{match.id} seq {seq}: " in stderr, where
            assert stdout == "" and written is None, where
        outcomes.append(expected)
    # Not vacuous: every kind meets reads that show the truth, and (but for the forged
    # snapshot alone, which changes nothing a read sees) reads that cannot; a forged
    # snapshot the log vouches for is seen.
    if tamper.truncated is None:
        assert SAME in outcomes
    assert tamper.touched == match.last + 1 or set(outcomes) - {SAME}, outcomes
    assert FORGED not in outcomes or "forgery shown" in outcomes
    if tamper.rewritten is not None:  # the boundary is real: where the log is read, the rewrite is shown
        log = invoke(path, "log", match.id, "--json", expect=None)
        if log.exit_code == 0:
            assert log.stdout != before(reads_matrix_template, Read(("log", match.id, "--json"), ())), (
                "the rewrite is not in the log"
            )
    if tamper.truncated is not None:  # what is shown is a true prefix: the match as it stood then
        assert rows_of(path, match.id) == rows[: tamper.truncated]
        assert (
            invoke(path, "outcome", match.id, "--json").stdout
            == invoke(path0, "outcome", match.id, "--json", "--at", tamper.truncated).stdout
        )

    _verify(path, match, tamper)
    _audit(path, path0, reference, match, tamper)
    _diff(path, path0, match, tamper)


def _equal(got, wanted, where, what):
    """``got`` is ``wanted`` (exit code, stdout, stderr, file written), or a short account."""
    if got == wanted:
        return
    names = ("exit code", "stdout", "stderr", "file written")
    for name, a, b in zip(names, got, wanted):
        if a != b:
            if isinstance(a, (str, bytes)) and isinstance(b, (str, bytes)):
                at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                a, b = a[max(0, at - 80) : at + 80], b[max(0, at - 80) : at + 80]
            pytest.fail(f"{where}\n{name} differs from {what}:\n  got    {a!r}\n  wanted {b!r}")


def _findings(result):
    return json.loads(result.stdout)["matches"][0]["findings"]


def _verify(path, match, tamper):
    """verify names the first bad seq (with the head published before, when given), and
    without a head finds exactly what it can."""
    if tamper.head is not None:
        result = invoke(path, "verify", match.id, "--json", "--head", f"{tamper.head[0]}:{tamper.head[1]}", expect=3)
        assert _findings(result)[0]["seq"] == tamper.first_bad, _findings(result)
    plain = invoke(path, "verify", match.id, "--json", expect=None)
    expected = tamper.first_bad if tamper.verify_without_head == 0 else tamper.verify_without_head
    if expected is None:
        assert plain.exit_code == 0, plain.output
    elif isinstance(expected, tuple):
        assert plain.exit_code == 3 and expected[0] <= _findings(plain)[0]["seq"] <= expected[1], plain.output
    else:
        assert plain.exit_code == 3 and _findings(plain)[0]["seq"] == expected, plain.output


AUDITED = ("corrections", "host_announcements", "resubmissions", "notes")


def _audit(path, path0, reference, match, tamper):
    """`audit` gives verify's verdict and exit code, and reports only events the chain
    vouches for: before a broken link the report is what it was; of a consistent
    rewrite, what the rewritten log holds."""
    result = invoke(path, "audit", match.id, "--json", expect=None)
    verified = invoke(path, "verify", match.id, "--json", expect=None)
    assert result.exit_code == verified.exit_code, result.output
    report = json.loads(result.stdout)
    assert report["findings"] == _findings(verified) and report["verified"] is (verified.exit_code == 0)
    if tamper.touched is not None:  # up to the first bad seq (the whole log when only the snapshot lies)
        cut = min(tamper.touched, match.last + 1)
        wanted = json.loads(invoke(path0, "audit", match.id, "--json").stdout)
        for key in AUDITED:
            assert report[key] == [e for e in wanted[key] if e.get("superseded_by", e["seq"]) < cut], key
        assert report["events"] == cut - 1 and report["head"]["seq"] == cut - 1
        assert FORGED_NOTE not in result.stdout
    else:
        wanted = json.loads(invoke(reference, "audit", match.id, "--json", expect=None).stdout)
        assert {key: report[key] for key in (*AUDITED, "events", "head")} == {
            key: wanted[key] for key in (*AUDITED, "events", "head")
        }
    text = invoke(path, "audit", match.id, expect=None)
    assert text.exit_code == result.exit_code
    if result.exit_code:
        assert f"verify: {match.id} seq {report['findings'][0]['seq']}: " in text.stdout


def _diff(path, path0, match, tamper):
    """`diff` against the untouched copy: the logs part where the tampering starts, or the
    tampered side's chain is named at its first bad seq."""
    result = invoke(path, "diff", match.id, "--db-b", path0, "--json", expect=None)
    data = json.loads(result.stdout)
    text = invoke(path, "diff", match.id, "--db-b", path0, expect=None)
    assert text.exit_code == result.exit_code
    if tamper.diff_parts_at is None:  # the logs hold the same events (only the snapshot, or who recorded one, differs)
        assert result.exit_code == 0 and data["identical"] and "identical" in text.stdout, data
        return
    assert result.exit_code == 3, data
    chain = data["findings"]["a"]
    if tamper.touched is not None:
        assert chain and chain[0]["seq"] == tamper.first_bad, data
        assert f"FINDING A: {match.id} seq {tamper.first_bad}: " in text.stdout
    else:
        assert data["first_parting"]["seq"] == tamper.diff_parts_at, data["first_parting"]
        assert f"the logs part at seq {tamper.diff_parts_at}:" in text.stdout
