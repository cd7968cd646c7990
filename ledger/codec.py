"""The one encoder/decoder pair.  Its bytes are what is stored and what is hashed.

Dict keys are written in sorted order (``order="deterministic"``), so the same event
always encodes to the same bytes on every machine, which the hash chain relies on.
"""

from __future__ import annotations

import hashlib

import msgspec

from .errors import CorruptLog
from .events import EVENT_TYPES, AnyEvent, Event
from .upcasters import CURRENT_VERSION, upcast

GENESIS_HASH = "0" * 64

_encoder = msgspec.json.Encoder(order="deterministic")
_event_decoder = msgspec.json.Decoder(AnyEvent)
_generic_decoder = msgspec.json.Decoder()


#: Encode any event or JSON value canonically (the encoder's own method: the append
#: path calls it once per event).
encode = _encoder.encode


def decode_event(body: bytes | str) -> Event:
    """Decode a stored body into its event, upgrading older versions on the way."""
    try:
        event = _event_decoder.decode(body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        event = None
        first_error = exc
    else:
        if event.v >= CURRENT_VERSION.get(type(event).__name__, 1):
            return event
    try:
        raw = _generic_decoder.decode(body)
    except msgspec.DecodeError as exc:
        raise CorruptLog(f"event body is not valid JSON: {exc} in {_excerpt(body)}") from None
    if not isinstance(raw, dict) or raw.get("type") not in EVENT_TYPES:
        tag = raw.get("type") if isinstance(raw, dict) else None
        raise CorruptLog(f"unknown event type {tag!r} in {_excerpt(body)}")
    upgraded = upcast(raw)
    try:
        return msgspec.convert(upgraded, AnyEvent)
    except msgspec.ValidationError as exc:
        detail = exc if event is None else first_error
        raise CorruptLog(f"event body does not fit {raw['type']}: {detail} in {_excerpt(body)}") from None


def decode_json(data: bytes | str):
    return _generic_decoder.decode(data)


def _excerpt(body: bytes | str, limit: int = 80) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    return repr(text if len(text) <= limit else text[:limit] + "…")


class _HashedFields(msgspec.Struct, frozen=True):
    # Field order is the canonical order of the hashed bytes; never reorder.
    actor: str
    body: msgspec.Raw
    kind: str
    match_id: str
    prev_hash: str
    recorded_at: str
    seq: int


def chain_hash(
    prev_hash: str, *, match_id: str, seq: int, recorded_at: str, actor: str, kind: str, body: bytes
) -> str:
    """``sha256(prev_hash ‖ canonical bytes of the envelope without its hash)``, hex."""
    fields = _HashedFields(
        actor=actor,
        body=msgspec.Raw(body),
        kind=kind,
        match_id=match_id,
        prev_hash=prev_hash,
        recorded_at=recorded_at,
        seq=seq,
    )
    return hashlib.sha256(prev_hash.encode("utf-8") + _encoder.encode(fields)).hexdigest()


_sha256 = hashlib.sha256


class BatchHasher:
    """``chain_hash`` for many events of one append (same match, actor and time): the
    canonical bytes are assembled from pieces encoded once, byte for byte what
    ``chain_hash`` hashes (tests/core/test_codec.py holds the two equal)."""

    def __init__(self, *, match_id: str, recorded_at: str, actor: str):
        encode_ = _encoder.encode
        self._head = b'{"actor":' + encode_(actor) + b',"body":'
        self._middle = b',"match_id":' + encode_(match_id) + b',"prev_hash":'
        self._tail = b',"recorded_at":' + encode_(recorded_at) + b',"seq":'

    def __call__(self, prev_hash: str, seq: int, kind: str, body: bytes) -> str:
        encode_ = _encoder.encode
        return _sha256(
            b"".join(
                (
                    prev_hash.encode("utf-8"),
                    self._head,
                    body,
                    b',"kind":',
                    encode_(kind),
                    self._middle,
                    encode_(prev_hash),
                    self._tail,
                    encode_(seq),
                    b"}",
                )
            )
        ).hexdigest()


class ChainHasher:
    """``chain_hash`` for the rows of one match as verify reads them back (tuples in
    ``Store.chain_rows`` order: seq, kind, body, recorded_at, actor, prev_hash, hash).
    The match's piece of the canonical bytes is encoded once and every other field by
    the encoder ``chain_hash`` uses, so the bytes hashed are exactly the same
    (tests/core/test_verify_fast.py holds the two equal)."""

    def __init__(self, match_id: str):
        self._middle = b',"match_id":' + _encoder.encode(match_id) + b',"prev_hash":'

    def digests(self, rows) -> list[str]:
        # One comprehension for all the rows: a call per row would cost a fifth more.
        encode_, sha256, join, middle = _encoder.encode, hashlib.sha256, b"".join, self._middle
        return [
            sha256(
                join(
                    (
                        prev_hash.encode("utf-8"),
                        b'{"actor":',
                        encode_(actor),
                        b',"body":',
                        body.encode("utf-8"),
                        b',"kind":',
                        encode_(kind),
                        middle,
                        encode_(prev_hash),
                        b',"recorded_at":',
                        encode_(recorded_at),
                        b',"seq":',
                        encode_(seq),
                        b"}",
                    )
                )
            ).hexdigest()
            for seq, kind, body, recorded_at, actor, prev_hash, _hash in rows
        ]
