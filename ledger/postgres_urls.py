"""PostgreSQL URLs: telling one from a file name, and naming one without its password
(no psycopg here: the command line checks ``--db`` before anything is loaded)."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

URL_PREFIXES = ("postgresql://", "postgres://")
#: A URL's parameters that hold a secret: the login's password, and the password of the
#: client's TLS key (libpq's connection parameters).
SECRET_PARAMETERS = frozenset({"password", "sslpassword"})


def is_postgres_url(text: str) -> bool:
    return text.startswith(URL_PREFIXES)


def printable_url(url: str) -> str:
    """``url`` without its passwords (in the user part, or as a parameter: ``SECRET_PARAMETERS``)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc.rpartition("@")[2]
        if parts.username is not None:
            netloc = f"{parts.username}@{netloc}"
        query = parts.query
        if SECRET_PARAMETERS & dict(parse_qsl(query)).keys():
            kept = [(key, value) for key, value in parse_qsl(query) if key not in SECRET_PARAMETERS]
            query = urlencode(kept, safe=":/,")
        # by hand: urlunsplit drops the empty host of ``postgresql:///db`` (a socket)
        return (
            f"{parts.scheme}://{netloc}{parts.path}"
            + (f"?{query}" if query else "")
            + (f"#{parts.fragment}" if parts.fragment else "")
        )
    except ValueError:
        return url.split("://", 1)[0] + "://…"


def secrets_of(url: str) -> list[str]:
    """The password(s) a URL holds, as typed and decoded: never to appear in a message."""
    try:
        parts = urlsplit(url)
        found = [parts.password or ""]
        found += [value for key, value in parse_qsl(parts.query) if key in SECRET_PARAMETERS]
    except ValueError:
        found = re.findall(r"(?<=:)[^:@/]+(?=@)|(?<=password=)[^&]+", url)  # sslpassword= ends so too
    found += [unquote(secret) for secret in found]
    return sorted({secret for secret in found if secret}, key=len, reverse=True)
