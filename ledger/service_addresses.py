"""Where the service is reached: the address `serve` records when it starts, so that the
links `invite` prints lead to it (after ``--port 0``, the port the system gave).

It is kept beside the capabilities (the ``service_addresses`` table), never in the event
log or an export: it is a fact of the installation, not of a match.  One row per
*source*: the address a host gave `serve` (``--base-url``, as behind a proxy) and the
address a `serve` listened on, each the latest recorded.  A given address wins over a
listened one, so that one `serve` started by hand on a free port beside a fleet behind a
proxy does not send every new link to it.

Whoever hands us the database may have written anything there, and the address is shown
to everyone the host gives a link: it is checked (:func:`well_formed_base_url`) before it
is used, as a host's ``--base-url`` is.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import msgspec

#: The address a host gave `serve` (``--base-url``): the one participants reach.
GIVEN = "base-url"
#: The address a `serve` listened on (its port the one the system gave after ``--port 0``).
LISTENED = "listening"
#: The sources, the one `invite` prefers first.
SOURCES = (GIVEN, LISTENED)

#: The longest address accepted (a browser's address bar takes about as much).
BASE_URL_MAX_LENGTH = 2_000

# What may not appear in a base URL: a query, a fragment, and what HTML or a shell would
# take for the end of the address.
_FORBIDDEN = frozenset(" ?#\"'<>\\")


class ServiceAddress(msgspec.Struct, frozen=True, kw_only=True):
    """An address of the service as `serve` recorded it."""

    url: str  # http(s)://HOST[:PORT][/PREFIX], without a trailing "/"
    source: str  # one of SOURCES
    recorded_at: str


#: The addresses a server listens on to be reached on every interface: no browser can go
#: to them, so no link may lead there (``serve --host 0.0.0.0`` needs ``--base-url``).
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::"})


def is_wildcard(url: str) -> bool:
    """Whether ``url``'s host is a wildcard address (:data:`WILDCARD_HOSTS`)."""
    try:
        return urlsplit(url).hostname in WILDCARD_HOSTS
    except ValueError:
        return False


def well_formed_base_url(url: object) -> bool:
    """Whether ``url`` is an address links can be made from: ``http(s)://HOST[:PORT][/PREFIX]``,
    printable, at most :data:`BASE_URL_MAX_LENGTH` characters, no query or fragment, and a
    host a browser can go to (no wildcard)."""
    if not isinstance(url, str) or not url.isprintable() or len(url) > BASE_URL_MAX_LENGTH:
        return False
    scheme, sep, _ = url.partition("://")
    if scheme not in ("http", "https") or not sep or url.endswith("/") or _FORBIDDEN.intersection(url):
        return False  # a trailing "/" would make every link ".../prefix//p/TOKEN"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a port that is no number, or past 65535, raises)
    except ValueError:
        return False
    # a host, and no user part: "https://games.example.org@elsewhere" leads elsewhere
    return bool(parts.hostname) and "@" not in parts.netloc and parts.hostname not in WILDCARD_HOSTS


def preferred(addresses: list[ServiceAddress]) -> ServiceAddress | None:
    """The address links lead to: the given one if any, else the one listened on."""
    by_source = {address.source: address for address in addresses}
    return next((by_source[source] for source in SOURCES if source in by_source), None)
