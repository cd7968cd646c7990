"""The HTTP front door: routes, tokens, answers and errors (docs/design.md, "Service").

Each handler parses what it is given, calls the one application (through ``Reads`` and
the ``Writer``) and renders; nothing here knows a rule of a game.  What a handler reads
it hands whole to the reading thread (``reading.py``: never the event loop), which
answers within a deadline or not at all (503); the public's answers kept while changes
are pushed are answered on the loop (``Reads.peek``).  A refusal is answered
as an RFC 9457 problem (``problems.py``), or on a page as a page that says it.  Every answer carries
the security headers and is logged with its path's token redacted (``guard.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import parse_qsl

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from matchledger.engine.state import as_participant
from matchledger.ledger.capabilities import AUDITOR, PARTICIPANT, Capability
from matchledger.ledger.errors import (
    ConnectionLost,
    DatabaseBusy,
    DatabaseUnavailable,
    MalformedInput,
    MatchledgerError,
)
from matchledger.projections.presentation.printable import printable

from . import pages
from .connections import OVER_LIMIT, TIMED_OUT
from .feed import AFTER, LAST_EVENT_ID, Feeds
from .forms import FIELD_MAX, form_html, is_over, tokens_from_form
from .guard import REASON
from .health import OK, Readiness
from .live import Live, Messages
from .openapi import openapi
from .problems import PROBLEM_JSON, Refused, refused
from .reading import DatabaseTimedOut, Reading
from .reads import Reads, to_json
from .writes import LinkClosed, NotTaken, PastDeadline, TooManySubmissions, Writer, receipt_json

#: Seconds `serve` waits at its stop for the writer to finish what it was given.
WRITER_STOP_SECONDS = 5.0
#: Bytes of a request body read at most (a submission is a few hundred).
BODY_MAX = 16 * 1024
#: The one answer for a token that opens nothing here: unknown, revoked, another
#: match's, or a match that does not exist (no hint of which).
NOT_VALID = "this token does not open this match: it is unknown, revoked or for another match"


#: The one answer for a link that opens nothing (the same whatever the reason).
LINK_CLOSED = "It was mistyped, revoked, or is not this kind of link: ask the match's host for a new one."


def _not_valid() -> Refused:
    return Refused(401, NOT_VALID, {"WWW-Authenticate": 'Bearer error="invalid_token"'})


def _seq_shaped(text: str) -> bool:
    """An event's seq as a query gives it: ASCII digits (``"²".isdigit()`` is true too),
    not absurdly many."""
    return text.isascii() and text.isdigit() and len(text) <= 18


class SubmissionBody(msgspec.Struct, forbid_unknown_fields=True):
    tokens: list[str]


_submission = msgspec.json.Decoder(SubmissionBody)


def json_answer(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status, headers, media_type="application/json")


def html_answer(body: str, status: int = 200) -> Response:
    return Response(body.encode("utf-8"), status, media_type="text/html; charset=utf-8")


class Service:
    """The routes, bound to one database's reads, writer and live streams."""

    def __init__(
        self,
        reads: Reads,
        writer: Writer,
        live: Live,
        *,
        base_url: str,
        assets: dict[str, tuple[bytes, str]],
        readiness: Readiness | None = None,
        reading: Reading | None = None,
    ):
        self.reads, self.writer, self.live = reads, writer, live
        self.reading = reading if reading is not None else Reading(reads)
        #: (what, the match's generation) -> the read under way for every stream that wants it
        self._under_way: dict[tuple, asyncio.Future] = {}
        self.readiness = readiness
        self.feeds = Feeds(reads)
        self.base_url = base_url
        self.assets = assets

    # ------------------------------------------------------------------ the app

    def app(self) -> _Shedding:
        # Starlette tries routes in turn: the ones asked for most come first.
        routes = [
            Route("/api/v1/matches/{match}/me", self.api_me),
            Route("/p/{token}", self.participant_page, methods=["GET", "POST"]),
            Route("/api/v1/matches/{match}/public", self.api_public),
            Route("/api/v1/matches/{match}/submissions", self.api_submit, methods=["POST"]),
            Route("/api/v1/matches/{match}/head", self.api_head),
            Route("/api/v1/matches/{match}/choices", self.api_choices),
            Route("/m/{match}", self.public_page),
            Route("/p/{token}/events", self.participant_events),
            Route("/p/{token}/choices", self.participant_choices),
            Route("/m/{match}/events", self.public_events),
            Route("/assets/{name}", self.asset),
            Route("/", self.index),
            Route("/a/{token}", self.auditor_page),
            Route("/a/{token}/export", self.auditor_export),
            Route("/api/v1/openapi.json", self.openapi),
            Route("/api/v1/matches/{match}/export", self.api_export),
            Route("/api/v1/matches/{match}/events", self.api_events),
            Route("/healthz", self.healthz),
            Route("/readyz", self.readyz),
        ]
        handlers = {Refused: self.refusal, HTTPException: self.http_error, Exception: self.internal_error}
        # Starlette hands each handler the exceptions of its key's class, but types every
        # handler as taking any Exception (starlette issues 1142, 2417): ours take theirs.
        app = Starlette(routes=routes, exception_handlers=handlers, lifespan=self.lifespan)  # type: ignore[arg-type]
        # Starlette would answer /p/TOKEN/ with a redirect to an absolute URL made of the
        # request's own Host header (307 Location: http://evil.example/p/TOKEN): a path
        # ending in a slash is simply not found.
        app.router.redirect_slashes = False
        return _Shedding(app, self)

    @contextlib.asynccontextmanager
    async def lifespan(self, _app) -> AsyncIterator[None]:
        self.writer.start()
        self.live.start()
        self.reads.start(self.reading)
        try:
            yield
        finally:
            await self.reads.stop()
            await self.live.stop()
            self.reading.close()
            self.writer.close(timeout=WRITER_STOP_SECONDS)

    # ------------------------------------------------------------------ errors

    @staticmethod
    def _is_api(request: Request) -> bool:
        return request.url.path.startswith("/api/")

    async def refusal(self, request: Request, exc: Refused) -> Response:
        if exc.reason is not None:
            request.scope[REASON] = exc.reason  # the access log's record says why (guard.py)
        if self._is_api(request) or request.url.path.endswith(("/events", "/export", "/choices")) or _is_probe(request):
            return Response(exc.body(), exc.status, exc.headers, media_type=PROBLEM_JSON)
        # a link that opens its page but may not do this (a read-only one posting) is not dead
        closed = exc.status == 403 and exc.message == LINK_CLOSED
        title = "This link opens nothing" if closed else {404: "Not found"}.get(exc.status, "Not possible")
        response = html_answer(pages.message_page(title, exc.message), exc.status)
        response.headers.update(exc.headers)
        return response

    async def http_error(self, request: Request, exc: HTTPException) -> Response:
        message = {404: "not found", 405: "method not allowed"}.get(exc.status_code, exc.detail)
        return await self.refusal(request, Refused(exc.status_code, message, dict(exc.headers or {})))

    async def internal_error(self, request: Request, exc: Exception) -> Response:
        return await self.refusal(request, Refused(500, "internal error"))

    @staticmethod
    def _reading(call, *args, match_id: str | None = None, **kwargs):
        """(On the reading thread.) ``call`` (a read: asking it twice changes nothing),
        its errors worded for HTTP.  A connection the server ended since the last read (a
        restart, a failover, an idle timeout) is found only when a statement fails on
        it: the read is asked once more, on the connection opened again, so the first
        request after a restart is answered rather than refused."""
        try:
            try:
                return call(*args, **kwargs)
            except ConnectionLost:
                return call(*args, **kwargs)
        except MatchledgerError as exc:
            raise refused(exc, match_id=match_id) from None

    async def _read(self, call, *args, match_id: str | None = None):
        """``call(*args)`` on the reading thread (:meth:`_reading`), or 503 with
        ``Retry-After`` if the database does not answer within the deadline."""
        try:
            return await self.reading(lambda: self._reading(call, *args, match_id=match_id))
        except DatabaseTimedOut as exc:
            raise Refused(
                503,
                "the ledger's database did not answer in time; try again shortly",
                {"Retry-After": "2"},
                kind="busy",
                reason=f"database did not answer within {exc.deadline:g} s",
            ) from None

    # ------------------------------------------------------------------ tokens

    def _bearer(self, header: str | None, match_id: str) -> tuple[Capability, str]:
        """(On the reading thread.) The capability of the bearer token of the request's
        Authorization ``header``, and the token."""
        if not header:
            raise Refused(401, "a token is needed: send Authorization: Bearer TOKEN", {"WWW-Authenticate": "Bearer"})
        scheme, _, token = header.partition(" ")
        token = token.strip()
        capability = self._reading(self.reads.grant, token) if scheme.lower() == "bearer" else None
        if capability is None or capability.match_id != match_id:
            raise _not_valid()
        return capability, token

    def _link(self, token: str, role: str) -> Capability:
        """(On the reading thread.) What the link ``token`` opens, if it is a ``role``'s."""
        capability = self._reading(self.reads.grant, token)
        if capability is None or capability.role != role:
            raise Refused(403, LINK_CLOSED)
        return capability

    @staticmethod
    def _participant(capability: Capability, *, submit: bool = False) -> str:
        if capability.role != PARTICIPANT:
            raise Refused(403, "an auditor's token has no participant's view; it reads the whole log (export)")
        if submit and not capability.can_submit:
            raise Refused(403, "this token reads only; ask the host for a link that may submit (invite --submit)")
        assert capability.participant is not None  # a participant's link names them (Access.invite)
        return capability.participant

    @staticmethod
    def _at(request: Request) -> int | None:
        if not request.scope.get("query_string"):
            return None
        text = request.query_params.get("at")
        if text is None:
            return None
        if not _seq_shaped(text):
            raise Refused(
                400,
                f"?at must be an event's seq (a whole number from 1), got {text[:40]!r}",
                kind="malformed-input",
                members={"parameter": "at"},
            )
        return int(text)

    # ------------------------------------------------------------------ the JSON API

    async def api_public(self, request: Request) -> Response:
        match_id = request.path_params["match"]
        at = self._at(request)
        kept = self.reads.peek(("public", match_id)) if at is None else None
        if isinstance(kept, bytes):
            return json_answer(kept)
        return json_answer(await self._read(self.reads.public, match_id, at, match_id=match_id))

    async def api_head(self, request: Request) -> Response:
        """The public head (the last public event: it never moves with a hidden
        submission), or with an auditor's token the match's last event."""
        match_id = request.path_params["match"]
        header = request.headers.get("authorization")
        if header is None:
            kept = self.reads.peek(("public-head", match_id))
            if isinstance(kept, bytes):
                return json_answer(kept)
            return json_answer(await self._read(self.reads.public_head, match_id, match_id=match_id))

        def read() -> bytes:
            if self._bearer(header, match_id)[0].role != AUDITOR:
                return self.reads.public_head(match_id)
            seq, digest = self.reads.head(match_id)
            return to_json({"seq": seq, "hash": digest})

        return json_answer(await self._read(read, match_id=match_id))

    async def api_me(self, request: Request) -> Response:
        match_id = request.path_params["match"]
        header, at = request.headers.get("authorization"), self._at(request)

        def read() -> bytes:
            capability, _token = self._bearer(header, match_id)
            self._participant(capability)
            return self.reads.me(capability, at)

        return json_answer(await self._read(read, match_id=match_id))

    async def api_choices(self, request: Request) -> Response:
        match_id = request.path_params["match"]
        header, at = request.headers.get("authorization"), self._at(request)

        def read() -> bytes:
            capability, _token = self._bearer(header, match_id)
            self._participant(capability)
            return self._choices_json(capability, at)

        return json_answer(await self._read(read, match_id=match_id))

    async def api_export(self, request: Request) -> Response:
        match_id = request.path_params["match"]
        header = request.headers.get("authorization")

        def read() -> tuple[str, bytes]:
            capability, _token = self._bearer(header, match_id)
            if capability.role != AUDITOR:
                raise Refused(403, "only an auditor's token reads the whole log")
            return capability.match_id, self.reads.export(capability)

        return _export(*await self._read(read, match_id=match_id))

    async def api_submit(self, request: Request) -> Response:
        match_id = request.path_params["match"]
        header = request.headers.get("authorization")

        def read() -> tuple[str, str]:
            capability, token = self._bearer(header, match_id)
            return self._participant(capability, submit=True), token

        participant, token = await self._read(read, match_id=match_id)
        try:
            # The body may come long after the headers: the writer checks the link again.
            body = _submission.decode(await self._body(request))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise Refused(400, f'the body must be JSON {{"tokens": [TEXT, ...]}}: {exc}') from None
        try:
            recorded = await self._submit(match_id, participant, body.tokens, token)
        except LinkClosed:
            raise _not_valid() from None
        return json_answer(to_json(receipt_json(recorded)), 201)

    async def openapi(self, request: Request) -> Response:
        return json_answer(to_json(openapi(self.base_url)))

    # ------------------------------------------------------------------ writing

    @staticmethod
    async def _body(request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > BODY_MAX):
            raise Refused(400, f"the body is larger than {BODY_MAX} bytes")
        body = b""
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > BODY_MAX:
                    raise Refused(400, f"the body is larger than {BODY_MAX} bytes")
        except ClientDisconnect:
            # Nobody is left to answer: the access log's one record (at info) says why,
            # 408 when the body did not come in time, else 499 (nginx's "client left").
            if request.scope.get(TIMED_OUT):
                raise Refused(408, "the request's body did not arrive in time") from None
            raise Refused(499, "the client left before its request's body arrived") from None
        return body

    async def _submit(self, match_id: str, participant: str, tokens: list[str], link: str):
        """What was recorded; LinkClosed if ``link`` was revoked before it was written."""
        try:
            return await self.writer.submit(match_id, participant, tokens, link=link)
        except LinkClosed:
            raise  # a matchledger error too, but the caller's to answer
        except TooManySubmissions as exc:
            raise Refused(429, str(exc), kind="too-many-submissions", members={"match": match_id}) from None
        except PastDeadline as exc:
            raise Refused(409, str(exc), kind="past-deadline", members={"match": match_id}) from None
        except NotTaken as exc:
            raise Refused(
                503,
                "the ledger's database did not answer in time; nothing was recorded: try again shortly",
                {"Retry-After": "2"},
                kind="busy",
                reason=f"the writer did not take the submission within {exc.deadline:g} s",
            ) from None
        except MatchledgerError as exc:
            raise refused(exc, match_id=match_id, rules=True) from None

    # ------------------------------------------------------------------ pages

    async def index(self, request: Request) -> Response:
        return html_answer(pages.index_page())

    async def public_page(self, request: Request) -> Response:
        match_id = request.path_params["match"]
        at = self._at(request)
        if at is not None:
            page = await self._read(self.reads.page, match_id, None, at, match_id=match_id)
            return html_answer(pages.public_page(match_id, page, at=at))
        key = ("public-page", match_id)
        body = self.reads.peek(key)
        if not isinstance(body, bytes):

            def make() -> bytes:
                return pages.public_page(match_id, self.reads.page(match_id)).encode("utf-8")

            body = await self._read(self.reads.rendered, key, match_id, make, match_id=match_id)
        return Response(body, media_type="text/html; charset=utf-8")

    async def participant_page(self, request: Request) -> Response:
        token = request.path_params["token"]
        if request.method == "POST":
            capability = await self._read(self._link, token, PARTICIPANT)
            return await self._form_submitted(request, token, capability)
        at = self._at(request)
        recorded = request.query_params.get("recorded", "") if request.scope.get("query_string") else ""
        return await self._read(self._participant_page, token, at, recorded)

    def _participant_page(self, token: str, at: int | None, recorded: str) -> Response:
        """(On the reading thread.) The participant's page of the link ``token``: as the
        match stood after ``at``, or now, with the receipt of ``recorded`` (a seq)."""
        capability = self._link(token, PARTICIPANT)
        match_id, me = capability.match_id, capability.participant
        if at is not None:
            page = self._reading(self.reads.page, match_id, me, at, match_id=match_id)
            return html_answer(pages.participant_page(token, match_id, page, "", at=at))
        if _seq_shaped(recorded):
            page = self._reading(self.reads.page, match_id, me, match_id=match_id)
            receipt = next((r for r in page.receipts if r.seq == int(recorded)), None)
            notice = (
                pages.receipt_notice(match_id, receipt.text, pages.replaced_by(page.receipts, receipt.seq))
                if receipt is not None
                else ""
            )
            return html_answer(pages.participant_page(token, match_id, page, self._form(capability, page), notice))

        def make() -> bytes:  # the page names its token: kept per link, never shared
            page = self.reads.page(match_id, me)
            return pages.participant_page(token, match_id, page, self._form(capability, page)).encode("utf-8")

        body = self._reading(
            self.reads.rendered, ("participant-page", capability.token_hash), match_id, make, me, match_id=match_id
        )
        return Response(body, media_type="text/html; charset=utf-8")

    def _choices_json(self, capability: Capability, at: int | None = None) -> bytes:
        """``{"participant", "choices"}``: what the participant may submit (the game's
        legal choices, from what they may know), kept until their view's head moves."""
        match_id, me = capability.match_id, self._participant(capability)

        def make() -> bytes:
            return to_json({"participant": me, "choices": self.reads.app.choices(match_id, me, at)})

        if at is not None:
            self.reads.check_at(match_id, as_participant(me), at)
            return make()
        return self.reads.rendered(("choices", match_id, me), match_id, make, me)

    def _form(self, capability: Capability, page, entered: Sequence[tuple[str, str]] = ()) -> str:
        """The participant's form, keeping what they ``entered`` (after a refusal), under
        a key (``data-form``) that live.js redraws the form by when it moves."""
        if not capability.can_submit:
            return '<p class="closed">This link reads only.</p>'
        description = msgspec.json.decode(self._choices_json(capability))["choices"]
        over = is_over(page.models["status"])
        form = form_html(description, entered, over=over)
        # The key is the form as drawn empty: it moves with what may be submitted, never
        # with what was entered, so the stream's form (drawn empty) does not replace a
        # refused form that kept the participant's input.
        blank = form_html(description, over=over) if entered else form
        key = hashlib.sha256(blank.encode("utf-8")).hexdigest()[:16]
        return f'<div data-form="{key}">{form}</div>'

    async def participant_choices(self, request: Request) -> Response:
        """The participant's legal choices as JSON (docs/service.md, "The JSON API")."""
        token, at = request.path_params["token"], self._at(request)

        def read() -> bytes:
            capability = self._link(token, PARTICIPANT)
            return self._reading(self._choices_json, capability, at, match_id=capability.match_id)

        return json_answer(await self._read(read))

    async def _form_submitted(self, request: Request, token: str, capability: Capability) -> Response:
        match_id, me = capability.match_id, self._participant(capability, submit=True)
        # The body may come long after the headers: the writer checks the link again.
        fields = parse_qsl((await self._body(request)).decode("utf-8", "replace"))
        too_long = sorted(key for key, value in fields if len(value) > FIELD_MAX)
        if too_long:  # cut short, it would record something else than what was sent
            raise Refused(
                400,
                f"the form's field {printable(too_long[0][:40])!r} is longer than {FIELD_MAX} characters; "
                "nothing was recorded",
            )
        choices = await self._read(self._choices_json, capability, match_id=match_id)
        description = msgspec.json.decode(choices)["choices"]
        try:
            tokens = tokens_from_form(description, fields)
        except MalformedInput as exc:  # a list's choice that is no option now: refused as the rules refuse
            return await self._read(self._refused_form, token, capability, fields, str(exc), match_id=match_id)
        try:
            row = (await self._submit(match_id, me, tokens, token))[0]
        except LinkClosed:
            raise Refused(403, LINK_CLOSED) from None
        except Refused as exc:
            if exc.status != 422 and exc.kind != "past-deadline":
                raise
            return await self._read(
                self._refused_form, token, capability, fields, exc.message, exc.status, match_id=match_id
            )
        return Response(status_code=303, headers={"Location": f"{token}?recorded={row.seq}"})

    def _refused_form(
        self,
        token: str,
        capability: Capability,
        entered: Sequence[tuple[str, str]],
        message: str,
        status: int = 422,
    ) -> Response:
        """(On the reading thread.) The page again, saying why nothing was recorded,
        keeping every input as sent, with the status the API answers the same refusal
        with (409 past the deadline)."""
        match_id, me = capability.match_id, capability.participant
        page = self.reads.page(match_id, me)
        form = self._form(capability, page, entered)
        body = pages.participant_page(token, match_id, page, form, pages.error_notice(message))
        return html_answer(body, status)

    async def auditor_page(self, request: Request) -> Response:
        token = request.path_params["token"]

        def read() -> tuple[str, tuple[int, str]]:
            capability = self._link(token, AUDITOR)
            return capability.match_id, self._reading(
                self.reads.head, capability.match_id, match_id=capability.match_id
            )

        match_id, head = await self._read(read)
        return html_answer(pages.auditor_page(token, match_id, head))

    async def auditor_export(self, request: Request) -> Response:
        token = request.path_params["token"]

        def read() -> tuple[str, bytes]:
            capability = self._link(token, AUDITOR)
            return capability.match_id, self._reading(self.reads.export, capability, match_id=capability.match_id)

        return _export(*await self._read(read))

    # ------------------------------------------------------------------ live streams

    async def public_events(self, request: Request):
        match_id = request.path_params["match"]
        key = ("public-live", match_id)

        def made() -> bytes:
            return self.reads.rendered(
                key, match_id, lambda: pages.live_message(pages.live_html(self.reads.page(match_id)))
            )

        async def render() -> bytes:
            kept = self.reads.peek(key)
            return kept if isinstance(kept, bytes) else await self._shared(key, match_id, made)

        if self.reads.peek(key) is None:  # a match that is not kept yet: does it exist?
            await self._read(self.reads.head, match_id, match_id=match_id)
        return EventStream(self.live.open(match_id, _client(request), render))

    async def participant_events(self, request: Request):
        token = request.path_params["token"]
        capability = await self._read(self._link, token, PARTICIPANT)
        match_id, me = capability.match_id, capability.participant

        def make() -> bytes:
            page = self.reads.page(match_id, me)
            return pages.live_message(pages.live_html(page), self._form(capability, page), pages.now_html(page))

        async def render() -> bytes:
            return await self.reading(
                self.reads.rendered, ("live", match_id, me, capability.can_submit), match_id, make, me
            )

        return EventStream(self.live.open(match_id, _client(request), render, self._revocation(token, "link")))

    async def _shared(self, key: tuple, match_id: str, call):
        """``call()`` on the reading thread, once for every stream of the same ``key``
        woken by the same move: a move wakes every page of its match at once, and each
        would otherwise hand the thread the same read.  Keyed by the match's generation,
        so a stream woken by a later move never takes a read begun before it."""
        under_way = (*key, self.reads.generation(match_id))
        running = self._under_way.get(under_way)
        if running is None:
            running = asyncio.ensure_future(self.reading(call))
            self._under_way[under_way] = running
            running.add_done_callback(lambda done: self._done(under_way, done))
        return await asyncio.shield(running)

    def _done(self, key: tuple, done: asyncio.Future) -> None:
        self._under_way.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved: every stream that waited for it has left

    def _revocation(self, token: str, what: str):
        """Why the stream of the link (or token: ``what``) ``token`` may send no more: it
        was revoked since (looked up afresh, on the reading thread), or None."""

        async def refusal() -> str | None:
            try:
                revoked = await self.reading(self.reads.grant, token) is None
            except (DatabaseBusy, DatabaseUnavailable):
                # A passing outage (a database that did not answer in time included):
                # nothing is sent meanwhile (the view cannot be read either, which ends
                # the stream for the browser to come back), and the link is checked
                # again at the next beat.
                return None
            except MatchledgerError:
                return "the ledger cannot be read"  # closed, as a link that cannot be checked
            return (
                f"this {what} was revoked: it opens nothing any more; ask the match's host for a new one"
                if revoked
                else None
            )

        return refusal

    async def api_events(self, request: Request):
        """The feed for bots: the events of the public's view, or with a participant's
        token of theirs, as server-sent events (``feed.py``)."""
        match_id = request.path_params["match"]
        header = request.headers.get("authorization")
        sent, name = request.headers.get(LAST_EVENT_ID), "Last-Event-ID"
        if sent is None and request.scope.get("query_string"):
            sent, name = request.query_params.get(AFTER), AFTER

        def read() -> tuple[str | None, str | None, int]:
            self._reading(self.reads.head, match_id, match_id=match_id)
            participant, token = None, None
            if header is not None:
                capability, token = self._bearer(header, match_id)
                participant = self._participant(capability)
            after = self._reading(self.feeds.resumed_after, match_id, participant, sent, name, match_id=match_id)
            return participant, token, after

        participant, token, after = await self._read(read, match_id=match_id)
        feed = self.feeds.render(match_id, participant, after)

        async def render() -> bytes:
            return await self.reading(feed)  # each stream its own cursor: nothing to share

        if token is None:
            return EventStream(self.live.open(match_id, _client(request), render))
        return EventStream(self.live.open(match_id, _client(request), render, self._revocation(token, "token")))

    # ------------------------------------------------------------------ health

    async def healthz(self, request: Request) -> Response:
        """The process answers (nothing else is touched: a load balancer's liveness)."""
        return json_answer(OK)

    async def readyz(self, request: Request) -> Response:
        """The database is readable now, of a schema this server reads (``health.py``)."""
        if self.readiness is not None:
            refusal = await self.readiness.check()
            if refusal is not None:
                raise refusal
        return json_answer(OK)

    # ------------------------------------------------------------------ files

    async def asset(self, request: Request) -> Response:
        found = self.assets.get(request.path_params["name"])
        if found is None:
            raise Refused(404, "not found")
        body, media_type = found
        return Response(body, media_type=media_type, headers={"Cache-Control": "public, max-age=300"})


#: The routes a load balancer or an orchestrator asks (``health.py``): problems, not pages.
PROBES = ("/healthz", "/readyz")


def _is_probe(request: Request) -> bool:
    return request.url.path in PROBES


def _export(match_id: str, body: bytes) -> Response:
    """The whole log of ``match_id``, as a file to keep."""
    disposition = f'attachment; filename="{match_id}.jsonl"'
    return Response(body, media_type="application/x-ndjson", headers={"Content-Disposition": disposition})


class _Shedding:
    """The answer to a request beyond ``serve --limit-concurrency``: the server marks it
    (``connections.OVER_LIMIT``) and this answers 503 with ``Retry-After``, as the
    service words every refusal (a problem, or a page on a page's path), and logged with
    its reason, in place of uvicorn's bare text.  ``/healthz`` is answered all the same:
    a process shedding load is alive, and an orchestrator must not restart it for that."""

    def __init__(self, app, service: Service):
        self.app = app
        self.service = service

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope.get(OVER_LIMIT) and scope.get("path") != "/healthz":
            refusal = Refused(
                503,
                "the server is answering as many requests as it may; try again shortly",
                {"Retry-After": "5"},
                kind="over-capacity",
            )
            response = await self.service.refusal(Request(scope, receive), refusal)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _client(request: Request) -> str | None:
    """The client's address (a trusted proxy's X-Forwarded-For, else the peer's)."""
    return request.client.host if request.client else None


class EventStream:
    """A ``text/event-stream`` answer that ends when its messages end or the client
    leaves (noticed at once, not at the next write)."""

    def __init__(self, messages: Messages):
        self.messages = messages

    async def __call__(self, scope: dict[str, Any], receive, send) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),
                ],
            }
        )

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        leaving = asyncio.ensure_future(gone())
        try:
            while True:
                following = asyncio.ensure_future(self.messages.__anext__())
                await asyncio.wait({following, leaving}, return_when=asyncio.FIRST_COMPLETED)
                if not following.done():
                    following.cancel()
                    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                        await following
                    return
                try:
                    chunk = following.result()
                except StopAsyncIteration:
                    break
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            return
        finally:
            leaving.cancel()
            await self.messages.aclose()
