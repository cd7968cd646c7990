"""The portable JSON Lines form of a match's log (export/import).

Each line is one envelope with the body embedded verbatim, so a re-export of an import
is byte-identical and the hash chain can be checked without a database.
"""

from __future__ import annotations

import msgspec

from .codec import decode_json
from .errors import CorruptLog, MalformedInput
from .limits import JSON_MAX_DEPTH
from .log_store import StoredEvent
from .validation import check_match_id, json_depth


class ExportedEvent(msgspec.Struct, frozen=True):
    match_id: str
    seq: int
    kind: str
    recorded_at: str
    actor: str
    prev_hash: str
    hash: str
    body: msgspec.Raw


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(ExportedEvent)


def export_lines(rows: list[StoredEvent]) -> bytes:
    out = bytearray()
    for r in rows:
        out += _encoder.encode(
            ExportedEvent(
                r.match_id,
                r.seq,
                r.kind,
                r.recorded_at,
                r.actor,
                r.prev_hash,
                r.hash,
                msgspec.Raw(r.body.encode("utf-8")),
            )
        )
        out += b"\n"
    return bytes(out)


def parse_lines(data: bytes, name: str) -> list[StoredEvent]:
    rows: list[StoredEvent] = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = _decoder.decode(line)
            body = bytes(item.body).decode("utf-8")
            depth = json_depth(decode_json(body))
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError) as exc:
            raise MalformedInput(f"{name} line {number}: not an exported event ({exc})") from None
        if depth > JSON_MAX_DEPTH:
            raise MalformedInput(f"{name} line {number}: the event nests {depth} levels deep; at most {JSON_MAX_DEPTH}")
        rows.append(
            StoredEvent(
                item.match_id, item.seq, item.kind, body, item.recorded_at, item.actor, item.prev_hash, item.hash
            )
        )
    if not rows:
        raise MalformedInput(f"{name} holds no events")
    ids = {r.match_id for r in rows}
    if len(ids) > 1:
        raise CorruptLog(f"{name} mixes matches {sorted(ids)}; export one match per file")
    try:
        check_match_id(rows[0].match_id)  # as `new` checks it: the id names files, pages and links
    except MalformedInput as exc:
        raise MalformedInput(f"{name}: {exc}; nothing imported") from None
    return rows
