"""The one encoder/decoder pair.  Its bytes are what is stored and what is hashed, and
:func:`envelope_hash` is the one place the hashed bytes of an envelope are put together.

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
_sha256 = hashlib.sha256  # bound once: called for every row appended or verified


#: Encode any event or JSON value canonically (the encoder's own method: the append
#: path calls it once per event).
encode = _encoder.encode


def decode_event(body: bytes | str) -> Event:
    """Decode a stored body into its event, upgrading older versions on the way."""
    try:
        event = _event_decoder.decode(body)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        event = None
        first_error = exc
    else:
        if event.v >= CURRENT_VERSION.get(type(event).__name__, 1):
            return event
    try:
        raw = decode_json(body)
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
    """Any JSON value; msgspec.DecodeError (a ValueError) for anything else, JSON nested
    too deeply for the decoder included."""
    try:
        return _generic_decoder.decode(data)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply to decode") from None


def _excerpt(body: bytes | str, limit: int = 80) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    return repr(text if len(text) <= limit else text[:limit] + "…")


def envelope_hash(
    actor_json: bytes,
    body: bytes,
    kind: str,
    match_id_json: bytes,
    prev_hash: str,
    recorded_at_json: bytes,
    seq: int,
) -> str:
    """The chain hash of one envelope, hex: ``sha256(prev_hash ‖ canonical JSON of the
    envelope without its hash)``, the JSON being ``{"actor", "body", "kind", "match_id",
    "prev_hash", "recorded_at", "seq"}`` in that (sorted) order, written as the encoder
    writes each value, with ``body`` embedded as stored.

    The parameters come in the same order.  ``actor_json``, ``match_id_json`` and
    ``recorded_at_json`` are already encoded (``encode(value)``): they repeat over the
    rows of a match or an append, so a caller may encode each once.
    """
    return _sha256(
        b"".join(
            (
                prev_hash.encode("utf-8"),
                b'{"actor":',
                actor_json,
                b',"body":',
                body,
                b',"kind":',
                encode(kind),
                b',"match_id":',
                match_id_json,
                b',"prev_hash":',
                encode(prev_hash),
                b',"recorded_at":',
                recorded_at_json,
                b',"seq":',
                encode(seq),
                b"}",
            )
        )
    ).hexdigest()
