"""Options several commands share, and turning their text into values.

A value that cannot be meant whatever the match holds (two views at once, `KEY=VALUE`
without `=`, a seq below 1, a hash too short to pin anything) is a usage error: exit 2
with click's usage line, before anything is opened.  Errors about what the match holds
(a participant it does not have, a seq past its end) stay input errors (exit 1)."""

from __future__ import annotations

import re

import click

from matchledger.ledger.errors import MalformedInput
from matchledger.ledger.limits import ANNOUNCED_FILE_MAX_BYTES

from .errors import message
from .files import read_text


def usage_error(message: str) -> click.UsageError:
    """A usage error of the command being run (exit 2, with its usage line)."""
    return click.UsageError(message, click.get_current_context(silent=True))


class EventSeq(click.ParamType):
    """A seq: events are numbered from 1."""

    name = "seq"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        text = str(value).strip()
        if not re.fullmatch(r"-?[0-9]+", text):
            self.fail(f"{value!r} is not an event number", param, ctx)
        if int(text) < 1:
            self.fail(f"{value!r}: events are numbered from 1", param, ctx)
        return int(text)


class PublishedHead(click.ParamType):
    """``SEQ:HASH`` as `head` prints it, the hash in full or cut to a prefix of at least
    HEAD_PREFIX_MIN_DIGITS hex digits (as `log` shows it)."""

    name = "SEQ:HASH"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        from matchledger.ledger.verify import parse_head  # the layers load only when a command runs

        try:
            return parse_head(value)
        except MalformedInput as exc:
            self.fail(message(exc), param, ctx)


def _one_view(ctx: click.Context, param: click.Parameter, value):
    """--public and --as exclude each other: whichever is parsed second refuses."""
    other = "as_participant" if param.name == "public" else "public"
    if value not in (None, False) and ctx.params.get(other) not in (None, False):
        raise click.UsageError("give either --public or --as PARTICIPANT, not both", ctx)
    return value


def view_options(fn):
    fn = click.option(
        "--as", "as_participant", metavar="PARTICIPANT", callback=_one_view, help="That participant's view."
    )(fn)
    fn = click.option("--public", is_flag=True, callback=_one_view, help="Only what has been announced publicly.")(fn)
    return fn


def at_option(fn):
    return click.option("--at", "at", type=EventSeq(), metavar="SEQ", help="The match as it stood after event SEQ.")(fn)


def read_options(fn):
    fn = at_option(fn)
    fn = click.option("--json", "as_json", is_flag=True, help="Stable machine-readable JSON.")(fn)
    return fn


def write_options(fn):
    """``--json`` of a command that writes: what it recorded, for a machine."""
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        help='Print what was recorded as JSON: {"match": ..., "events": [{"seq", "kind", "hash"}, ...]}.',
    )(fn)


def key_values(pairs: tuple[str, ...], flag: str) -> dict[str, str]:
    """``("a=1", "b=2")`` -> ``{"a": "1", "b": "2"}``; each key once."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise usage_error(f"{flag} takes KEY=VALUE, got {pair!r}")
        if key.strip() in result:
            raise usage_error(f"{flag} {key.strip()!r} is given twice")
        result[key.strip()] = value.strip()
    return result


def load_json_object(text: str, what: str) -> dict:
    from matchledger.ledger.codec import decode_json  # only a command that reads a JSON file needs it

    source = read_text(text, what, ANNOUNCED_FILE_MAX_BYTES)  # refused as it is, not as JSON
    try:
        payload = decode_json(source)
    except ValueError as exc:
        raise MalformedInput(f"{what} {text!r} is not valid JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise MalformedInput(f"{what} {text!r} must hold a JSON object")
    return payload
