"""What a hook posts (docs/service.md, "Posts to the channel"): the public post of
`messages --public` (built by the very code that command runs, from `reveals --public`
alone, so no private message can be in it), written as Discord's webhook body or as
matchledger's JSON, and signed.

Nothing here reads a clock or the network: the bodies of a post depend only on what the
public was told, so a participant's secret changed leaves every byte the same.
"""

from __future__ import annotations

import hashlib
import hmac
import json

from matchledger.ledger.hooks import DISCORD
from matchledger.projections.application import Announced
from matchledger.projections.presentation.messages import compose, messages
from matchledger.projections.presentation.printable import printable_data

#: Discord's limit on a message's ``content``.
DISCORD_LIMIT = 2000

SIGNATURE_HEADER = "X-Matchledger-Signature"
TIMESTAMP_HEADER = "X-Matchledger-Timestamp"


def public_post(shown: Announced) -> tuple[str, dict]:
    """The public post of a close, as `messages --public` prints it (its text) and as
    `messages --public --json` gives it (its parts)."""
    data = compose(shown.match, shown.game, shown.round, shown.seq, shown.public, {}, shown.earlier, shown.deadline)
    [message] = messages(data)
    return message.text, printable_data(data["public"])


def bodies(
    format: str, *, match: str, game: str, kind: str, seq: int, round_no: int, text: str, parts: dict
) -> list[bytes]:
    """The request bodies of one post, in the order they are sent: Discord's, one per
    piece of the text (split at line ends, each at most :data:`DISCORD_LIMIT`
    characters, mentions never pinging anyone); or one JSON body."""
    if format == DISCORD:
        return [_json({"content": piece, "allowed_mentions": {"parse": []}}) for piece in split_text(text)]
    return [
        _json({"match": match, "game": game, "kind": kind, "seq": seq, "round": round_no, "text": text, "post": parts})
    ]


def split_text(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, each ending at a line end where
    one falls within it (a longer line is cut)."""
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # a line longer than a whole piece: cut it
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) <= limit:
            current = joined
        else:
            pieces.append(current)
            current = line
    if current or not pieces:
        pieces.append(current)
    return pieces


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The value of :data:`SIGNATURE_HEADER`: ``sha256=`` and the hex HMAC-SHA256, keyed by
    the hook's secret, of the timestamp, a dot, and the body."""
    mac = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def _json(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
