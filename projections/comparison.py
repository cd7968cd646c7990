"""`diff`: where two copies of a match's log part, and which read models differ.

Both logs are verified first (their chains, with no cache in between), and the read
models are rebuilt from each log's first event: a stale or forged snapshot on either
side changes nothing here.
"""

from __future__ import annotations

import msgspec

from matchledger.ledger.codec import decode_json
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.log_store import StoredEvent
from matchledger.ledger.verify import Finding

from .fold import replay
from .rederive import first_difference
from .views import all_read_models


class Side(msgspec.Struct, frozen=True):
    """One of the two logs: its match, where it is kept, its rows and what verifying
    its chain found."""

    match_id: str
    location: str
    rows: list[StoredEvent]
    findings: list[Finding]


class Comparison(msgspec.Struct, frozen=True):
    data: dict  # JSON-ready
    findings: dict[str, list[Finding]]  # "a" and "b": chain findings and replays that stopped

    @property
    def differs(self) -> bool:
        return (
            self.data["first_parting"] is not None
            or bool(self.data["differing_read_models"])
            or any(self.findings.values())
        )


def compare(side_a: Side, side_b: Side) -> Comparison:
    """``identical`` when both logs hold the same events; which read models differ."""
    parting = first_parting(side_a.rows, side_b.rows)
    findings = {"a": list(side_a.findings), "b": list(side_b.findings)}
    models = {}
    for key, side in (("a", side_a), ("b", side_b)):
        try:
            models[key] = all_read_models(replay(side.match_id, [(row.seq, row.event()) for row in side.rows]))
        except MatchledgerError as exc:
            models[key] = {}
            findings[key].append(Finding(side.match_id, len(side.rows), f"replay stops: {exc}"))
    differing = sorted(k for k in set(models["a"]) | set(models["b"]) if models["a"].get(k) != models["b"].get(k))
    data = {
        "a": {"match": side_a.match_id, "db": side_a.location, "events": len(side_a.rows)},
        "b": {"match": side_b.match_id, "db": side_b.location, "events": len(side_b.rows)},
        "identical": parting is None,
        "first_parting": parting,
        "differing_read_models": differing,
        "findings": {key: [f.to_json() for f in found] for key, found in findings.items()},
    }
    return Comparison(data, findings)


def first_parting(rows_a: list[StoredEvent], rows_b: list[StoredEvent]) -> dict | None:
    """The first seq at which two logs differ (by content, not by time, actor or salt)."""
    for a, b in zip(rows_a, rows_b):
        if a.kind != b.kind or a.body != b.body:
            body_a, body_b = _body(a), _body(b)
            if a.kind == b.kind and body_a == body_b:
                continue  # the same event recorded twice: only the salts differ
            entry = {"seq": a.seq, "a": {"kind": a.kind, "body": body_a}, "b": {"kind": b.kind, "body": body_b}}
            diff = first_difference(body_a, body_b)
            if diff:
                entry.update(field=diff[0], a_value=diff[1], b_value=diff[2])
            return entry
    if len(rows_a) != len(rows_b):
        shorter = min(len(rows_a), len(rows_b))
        return {
            "seq": shorter + 1,
            "a": _tail(rows_a, shorter),
            "b": _tail(rows_b, shorter),
            "field": "length",
            "a_value": len(rows_a),
            "b_value": len(rows_b),
        }
    return None


def _body(row: StoredEvent):
    """The row's body as JSON, or as its text when a tampered body is not JSON."""
    try:
        body = decode_json(row.body)
    except ValueError:
        return row.body
    if isinstance(body, dict):
        body.pop("salt", None)  # each recording draws its own: not part of what happened
    return body


def _tail(rows: list[StoredEvent], index: int) -> dict | None:
    if index < len(rows):
        return {"kind": rows[index].kind, "body": _body(rows[index])}
    return None
