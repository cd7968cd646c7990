"""What every answer carries, and what every request leaves in the log.

Security headers: a Content-Security-Policy that allows nothing but this origin's own
scripts, styles and connections (no inline script, no other origin, no framing), no
referrer (a participant's link is a secret in its URL), no content sniffing, and no
storing of answers in shared caches.

Access log: one structured record per request (method, path, status, bytes, time),
with the token of a link's path replaced by ``[token]``; headers (Authorization among
them) and query strings are never logged.  A refusal that is the server's trouble (a
503: the database unreachable or busy, the concurrency limit) names its kind in the
record (``reason``, set by the app under ``REASON``), in fixed words, never the error's
text (which may name the database).  An error the app did not expect, once it was
answered (500), is one more record with its traceback, tokens redacted, instead of the
server's raw text on stderr.
"""

from __future__ import annotations

import re
import time
import traceback

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_SECURITY_HEADERS_NO_STORE = [*SECURITY_HEADERS, (b"cache-control", b"no-store")]

#: The paths that carry a token: /p/TOKEN..., /a/TOKEN... (``redacted``); and anything
#: shaped like a token elsewhere in a path (a link pasted into the wrong place is still a
#: secret): any run of 32 URL-safe characters or more, so that a token with something
#: glued to it (``/m/TOKEN-x``, ``/m/xTOKEN``) is redacted whole.
_TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_-]{32,}")


#: The scope's key under which the app leaves why it refused (``reason`` in the record).
REASON = "matchledger.reason"

#: Characters of a path logged at most (the rest is summed up).
PATH_LOGGED_MAX = 512


def redacted(path: str) -> str:
    if path.startswith(("/p/", "/a/")):
        end = path.find("/", 3)
        path = path[:3] + "[token]" + ("" if end < 0 else path[end:])
    if len(path) >= 32:  # else too short to hold anything shaped like a token
        path = _TOKEN_SHAPED.sub("[token]", path)
    if len(path) > PATH_LOGGED_MAX:  # a line per request stays a line, whatever a client sends
        path = f"{path[:PATH_LOGGED_MAX]}…[{len(path) - PATH_LOGGED_MAX} more characters]"
    return path


class Guard:
    """ASGI middleware: the headers above on every answer, and the access log."""

    def __init__(self, app, log):
        self.app = app
        self.log = log

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        answer = [0, 0]  # status, bytes

        async def guarded(message):
            if message["type"] == "http.response.start":
                answer[0] = message["status"]
                headers = list(message.get("headers", ()))
                # Starlette and our own answers name their headers in lower case.
                for name, _value in headers:
                    if name == b"cache-control":
                        headers += SECURITY_HEADERS
                        break
                else:
                    headers += _SECURITY_HEADERS_NO_STORE
                message = {**message, "headers": headers}
            else:
                answer[1] += len(message.get("body", b""))
            await send(message)

        failure = None
        try:
            await self.app(scope, receive, guarded)
        except Exception as exc:
            if not answer[0]:
                raise  # nothing was answered: the server answers 500 itself
            failure = exc  # answered (500) already: logged below as data, not by the server as raw text
        finally:
            client = scope.get("client")
            reason = scope.get(REASON)
            self.log.info(
                "request",
                method=scope.get("method"),
                path=redacted(scope.get("path", "")),
                status=answer[0],
                bytes=answer[1],
                ms=round((time.perf_counter() - started) * 1000, 2),
                client=client[0] if client else None,
                **({"reason": reason} if reason is not None else {}),
            )
        if failure is not None:
            # A traceback holds source lines and messages, never locals; still, nothing
            # shaped like a token leaves in it.
            trace = "".join(traceback.format_exception(failure))
            self.log.error(
                "request_failed",
                method=scope.get("method"),
                path=redacted(scope.get("path", "")),
                error=_TOKEN_SHAPED.sub("[token]", trace),
            )
