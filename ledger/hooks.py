"""Posts to the channel: the hooks a host adds so that a running `serve` POSTs each
public post (a close, a photographer turn, the end of the match) to a URL of theirs,
and what became of each delivery.

Like the capabilities, hooks live beside the log (the ``hooks`` and
``hook_deliveries`` tables), never in it: they are facts of the installation, not of a
match, and never enter an export, a hash or a replay.

A hook's *secret* signs what is posted (HMAC-SHA256), so that the receiver can tell our
posts from anyone else's.  Signing needs the secret itself, so the database holds it
(as it holds the hashes of the links' tokens): whoever reads the database can sign as
the hook.  The command line shows it once, when the hook is added, and never again.

A *delivery* is one post of one hook: (hook, match, seq, kind), claimed by inserting its
row before anything is sent, so that of two `serve` processes on one database exactly
one sends it.  Each attempt's outcome (a status or an error, and when) is kept on it.

A claim is a lease: its ``claimed_at`` is renewed (compared and set, so only its holder
renews it) before every attempt.  A delivery still pending whose lease is
:data:`DELIVERY_LEASE_SECONDS` old belongs to a `serve` that stopped with it claimed (it
crashed, or was stopped with it queued): the next `serve` to look takes it over, again by
compare-and-set, so one does, and sends it.  A post may then reach the receiver twice
(the stopped one may have sent it without recording so); its ``X-Matchledger-Delivery``
header is the same both times, for the receiver to drop the repeat.
"""

from __future__ import annotations

import secrets
import urllib.parse
from datetime import datetime

import msgspec

#: What a hook may be told of: a round closed, a photographer turn resolved, the match
#: finished, and (issue 28, parts 1-3) a deadline reached or a reminder before one.
CLOSE, TURN, FINISHED, DEADLINE, REMINDER = "close", "turn", "finished", "deadline", "reminder"
KINDS = (CLOSE, TURN, FINISHED, DEADLINE, REMINDER)

#: How a post is written: Discord's webhook body, or matchledger's own JSON.
DISCORD, JSON = "discord", "json"
FORMATS = (DISCORD, JSON)

#: A delivery's states: claimed and being tried, delivered (a 2xx answer), given up.
PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"

#: Seconds after which a pending delivery's claim has lapsed and another `serve` takes it
#: over: far longer than a live sender goes between two renewals (an attempt takes at
#: most its total timeout, 15 s by default, and the longest wait between two is 8 s).
DELIVERY_LEASE_SECONDS = 600

#: Random bytes in a hook's id and in its secret.
HOOK_ID_BYTES = 8
SECRET_BYTES = 32

#: The longest URL accepted (what a browser's address bar takes).
URL_MAX_LENGTH = 2_000
_FORBIDDEN_IN_URL = frozenset(" \"'<>\\")


#: The columns of the ``hooks`` and ``hook_deliveries`` tables, in the order of the rows below.
HOOK_COLUMNS = "hook_id, match_id, url, kinds, format, secret, after_seq, created_at, removed_at"
DELIVERY_COLUMNS = "hook_id, match_id, seq, kind, claimed_at, state, attempts"


class Hook(msgspec.Struct, frozen=True, kw_only=True):
    """One hook: where to post which of a match's posts, and how."""

    hook_id: str
    match_id: str
    url: str
    kinds: tuple[str, ...]  # a subset of KINDS, in KINDS' order
    format: str  # one of FORMATS
    secret: str  # kept to sign; never shown after `hook add`
    after_seq: int  # the match's head when the hook was added: only later posts are sent
    created_at: str
    removed_at: str | None = None

    @property
    def active(self) -> bool:
        return self.removed_at is None


class Attempt(msgspec.Struct, frozen=True, kw_only=True):
    """One try at a delivery: the receiver's HTTP status, or why there was none."""

    at: str
    status: int | None = None
    error: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class Delivery(msgspec.Struct, frozen=True, kw_only=True):
    """One post of one hook, and every attempt at it so far."""

    hook_id: str
    match_id: str
    seq: int
    kind: str
    claimed_at: str
    state: str = PENDING  # one of PENDING, DELIVERED, FAILED
    attempts: tuple[Attempt, ...] = ()


def new_hook_id() -> str:
    return "h" + secrets.token_hex(HOOK_ID_BYTES)


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def well_formed_url(url: object) -> bool:
    """Whether ``url`` can be posted to: ``http(s)://HOST...`` (no user or password),
    printable, at most :data:`URL_MAX_LENGTH` characters, nothing a shell or HTML would
    split it at."""
    if not isinstance(url, str) or not url.isprintable() or len(url) > URL_MAX_LENGTH:
        return False
    scheme, sep, rest = url.partition("://")
    host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    try:
        _port = urllib.parse.urlsplit(url).port  # a port that is no port (0-65535) is refused here, not when posting
    except ValueError:
        return False
    # No user name or password in it: nothing but the post is sent (no credentials).
    return (
        scheme in ("http", "https")
        and bool(sep)
        and bool(host)
        and "@" not in host
        and not _FORBIDDEN_IN_URL.intersection(url)
    )


def encode_attempts(attempts: tuple[Attempt, ...]) -> str:
    return msgspec.json.encode(attempts).decode("utf-8")


def decode_attempts(text: str) -> tuple[Attempt, ...]:
    return msgspec.json.decode(text, type=tuple[Attempt, ...])


def hook_row(hook: Hook) -> tuple:
    return (
        hook.hook_id,
        hook.match_id,
        hook.url,
        ",".join(hook.kinds),
        hook.format,
        hook.secret,
        hook.after_seq,
        hook.created_at,
        hook.removed_at,
    )


def hook_of(row: tuple) -> Hook:
    """A row of ``hooks`` (its columns in ``HOOK_COLUMNS``'s order), its text as stored."""
    hook_id, match_id, url, kinds, format_, secret, after_seq, created_at, removed_at = row
    return Hook(
        hook_id=str(hook_id),
        match_id=str(match_id),
        url=str(url),
        kinds=tuple(str(kinds).split(",")) if kinds else (),
        format=str(format_),
        secret=str(secret),
        after_seq=int(after_seq),
        created_at=str(created_at),
        removed_at=None if removed_at is None else str(removed_at),
    )


def delivery_row(delivery: Delivery) -> tuple:
    return (
        delivery.hook_id,
        delivery.match_id,
        delivery.seq,
        delivery.kind,
        delivery.claimed_at,
        delivery.state,
        encode_attempts(delivery.attempts),
    )


def delivery_of(row: tuple) -> Delivery:
    hook_id, match_id, seq, kind, claimed_at, state, attempts = row
    return Delivery(
        hook_id=str(hook_id),
        match_id=str(match_id),
        seq=int(seq),
        kind=str(kind),
        claimed_at=str(claimed_at),
        state=str(state),
        attempts=decode_attempts(str(attempts)),
    )


def lapsed(delivery: Delivery, now: str) -> bool:
    """Whether ``delivery`` is pending and its claim is :data:`DELIVERY_LEASE_SECONDS`
    old at ``now`` (a time as the ledger records it); a time that does not read as one
    is never lapsed."""
    if delivery.state != PENDING:
        return False
    try:
        claimed = datetime.fromisoformat(delivery.claimed_at.replace("Z", "+00:00"))
        current = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError:
        return False
    return (current - claimed).total_seconds() >= DELIVERY_LEASE_SECONDS


def with_attempts(delivery: Delivery, state: str, attempts: tuple[Attempt, ...]) -> Delivery:
    return msgspec.structs.replace(delivery, state=state, attempts=attempts)
