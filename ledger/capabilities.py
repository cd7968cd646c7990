"""Capability tokens: the links a host hands out so that a participant, the public's
auditors and nobody else reach one match through the service.

A token is random (TOKEN_BYTES from the operating system's secure source, written
URL-safe) and is shown once, to the host who issues it.  Only its sha256 is stored, in
the ``capabilities`` table beside ``events`` (never in the event log, so never in an
export, a hash or a replay): whoever reads the database learns who was invited, never a
link that works.  A high-entropy token needs no salt or slow hash: nobody can guess one
to try against the stored hashes.

Each capability is scoped to one match and one role: a participant reading their own
view, a participant who may also submit their own moves, or an auditor reading the
whole log.  Revoking keeps the row and stamps when (the table is no log: it is updated).
"""

from __future__ import annotations

import hashlib
import re
import secrets

import msgspec

#: Random bytes in a token: 192 bits (at least 128 are asked for).
TOKEN_BYTES = 24
#: What a token looks like: ``secrets.token_urlsafe(TOKEN_BYTES)``.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{32}\Z")

PARTICIPANT = "participant"
AUDITOR = "auditor"
ROLES = (PARTICIPANT, AUDITOR)


class Capability(msgspec.Struct, frozen=True, kw_only=True):
    """What one token lets its holder do (the token itself is never kept)."""

    token_hash: str  # sha256 of the token, lowercase hex
    match_id: str
    role: str  # one of ROLES
    participant: str | None = None  # whose view (a participant's capability only)
    can_submit: bool = False
    created_at: str
    revoked_at: str | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def new_token() -> str:
    """A fresh token that never starts with "-": one that did (1 in 64) would be taken
    for an option by `revoke TOKEN` (drawing again costs 0.05 bits of its 192)."""
    while True:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not token.startswith("-"):
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def well_formed(token: object) -> bool:
    """Whether ``token`` can be one we issued (anything else is looked up nowhere)."""
    return isinstance(token, str) and TOKEN_PATTERN.match(token) is not None
