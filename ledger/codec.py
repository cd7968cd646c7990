"""The one encoder/decoder pair.  Its bytes are what is stored and what is hashed, and
:func:`envelope_hash` is the one place the hashed bytes of an envelope are put together.

Dict keys are written in sorted order (``order="deterministic"``), so the same event
always encodes to the same bytes on every machine, which the hash chain relies on.

A stored body is also what auditors query with SQL (``json_extract``), so it must be
the canonical encoding of the event it decodes to (:func:`canonical_problem`): a body
holding a key twice reads one way to SQL (the first value) and another to replay (the
last), and any other spelling of the same event is no body we wrote.
"""

from __future__ import annotations

import hashlib
import json

import msgspec

from .errors import CorruptLog
from .events import EVENT_TYPES, AnyEvent, Event
from .upcasters import CURRENT_VERSION, stored_version, upcast

GENESIS_HASH = "0" * 64

_encoder = msgspec.json.Encoder(order="deterministic")
_event_decoder = msgspec.json.Decoder(AnyEvent)
_generic_decoder = msgspec.json.Decoder()
_in_order_encoder = msgspec.json.Encoder()  # keys as they come: a body of an older version
_sha256 = hashlib.sha256  # bound once: called for every row appended or verified


#: Encode any event or JSON value canonically (the encoder's own method: the append
#: path calls it once per event).
encode = _encoder.encode


def decode_event(body: bytes | str) -> Event:
    """Decode a stored body into its event, upgrading older versions on the way."""
    try:
        event = _event_decoder.decode(body)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        pass
    else:
        if event.v == CURRENT_VERSION.get(type(event).__name__, 1):
            return event
    try:
        raw = decode_json(body)
    except msgspec.DecodeError as exc:
        raise CorruptLog(f"event body is not valid JSON: {exc} in {_excerpt(body)}") from None
    if not isinstance(raw, dict) or raw.get("type") not in EVENT_TYPES:
        tag = raw.get("type") if isinstance(raw, dict) else None
        raise CorruptLog(f"unknown event type {tag!r} in {_excerpt(body)}")
    try:
        upgraded = upcast(raw)
    except CorruptLog as exc:
        raise CorruptLog(f"{exc} in {_excerpt(body)}") from None
    try:
        return msgspec.convert(upgraded, AnyEvent)
    except msgspec.ValidationError as exc:
        raise CorruptLog(f"event body does not fit {raw['type']}: {exc} in {_excerpt(body)}") from None


def canonical_problem(body: bytes, event: Event) -> str | None:
    """Why ``body`` (stored bytes that decode to ``event``) is not the canonical encoding
    of ``event``; None when it is.

    A body of the current version must be exactly ``encode(event)``.  A body of an older
    version (upgraded on decoding, so ``event`` encodes as the current version) must be
    compact JSON whose every object holds each key once: re-encoding its decoded JSON,
    keys in the order they come, gives back its bytes.
    """
    if encode(event) == body:  # every body we write: one encoding, one comparison
        return None
    duplicate = _duplicate_key(body)
    if duplicate is not None:
        return f"key {duplicate!r} appears more than once (SQL's json_extract reads the first value, replay the last)"
    raw = decode_json(body)  # it decoded to ``event``: a JSON object with a known type
    if stored_version(raw) < CURRENT_VERSION.get(raw["type"], 1):
        if _in_order_encoder.encode(raw) == body:
            return None
        return "it is not compact JSON as matchledger writes it (spacing, escapes or numbers spelled otherwise)"
    return f"it is not the canonical encoding of its event, which is {_excerpt(encode(event))}"


def _duplicate_key(body: bytes) -> str | None:
    """The first key that an object of ``body`` (valid JSON) holds twice (None: none)."""
    found: list[str] = []

    def pairs(items: list) -> dict:
        seen: set = set()
        for key, _value in items:
            if key in seen and not found:
                found.append(key)
            seen.add(key)
        return dict(items)

    try:
        json.loads(body, object_pairs_hook=pairs)
    except (ValueError, RecursionError):  # msgspec read it; json need not (depth): no path then
        return None
    return found[0] if found else None


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
