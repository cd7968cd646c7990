"""Options several commands share, and turning their text into values."""

from __future__ import annotations

import click
from matchledger.ledger.codec import decode_json
from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import ANNOUNCED_FILE_MAX_BYTES

from .files import read_text


def view_options(fn):
    fn = click.option("--as", "as_participant", metavar="PARTICIPANT", help="That participant's view.")(fn)
    fn = click.option("--public", is_flag=True, help="Only what has been announced publicly.")(fn)
    return fn


def read_options(fn):
    fn = click.option("--at", "at", type=int, metavar="SEQ", help="The match as it stood after event SEQ.")(fn)
    fn = click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")(fn)
    return fn


def write_options(fn):
    """``--json`` of a command that writes: what it recorded, for a machine."""
    return click.option(
        "--json", "as_json", is_flag=True,
        help='Print what was recorded as JSON: {"match": ..., "events": [{"seq", "kind", "hash"}, ...]}.',
    )(fn)


def key_values(pairs: tuple[str, ...], flag: str) -> dict[str, str]:
    """``("a=1", "b=2")`` -> ``{"a": "1", "b": "2"}``; each key once."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise MalformedInput(f"{flag} takes KEY=VALUE, got {pair!r}")
        if key.strip() in result:
            raise MalformedInput(f"{flag} {key.strip()!r} is given twice")
        result[key.strip()] = value.strip()
    return result


def load_json_object(text: str, what: str) -> dict:
    try:
        payload = decode_json(read_text(text, what, ANNOUNCED_FILE_MAX_BYTES))
    except ValueError as exc:
        raise MalformedInput(f"{what} {text!r} is not valid JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise MalformedInput(f"{what} {text!r} must hold a JSON object")
    return payload
