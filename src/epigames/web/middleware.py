"""The app's ASGI middleware: body limit, server timing, the client cookie, a JSON 500.

Each is plain ASGI on `HttpMiddleware`: HTTP requests are its business, other scopes
(lifespan) pass through untouched.
"""

from __future__ import annotations

import logging
import re
import secrets
import time

from fastapi.responses import JSONResponse
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Largest request body accepted, in bytes.
MAX_BODY = 16 * 1024
#: The cookie that tells clients apart (with their address); not a secret or a login.
CLIENT_COOKIE = "epigames_client"
_CLIENT_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

log = logging.getLogger("epigames.web")


class HttpMiddleware:
    """ASGI middleware base: HTTP requests go to `handle`, anything else passes through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one HTTP request (subclasses wrap `self.app`)."""
        raise NotImplementedError


def with_header(message: Message, name: bytes, value: str) -> Message:
    """A copy of a `http.response.start` message with one more header."""
    return {**message, "headers": [*message.get("headers", []), (name, value.encode())]}


async def _no_receive() -> Message:  # pragma: no cover - JSONResponse never reads
    return {"type": "http.disconnect"}


class BodyLimit(HttpMiddleware):
    """Refuse bodies over `limit` bytes with 413 (also when streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        super().__init__(app)
        self.limit = limit

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        # Bodies here are small: read the whole body first (stopping at the limit), so an
        # oversized streamed body is refused before the app sees any of it.
        messages: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        replay = iter(messages)

        async def buffered() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, buffered, send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(
            {"detail": f"request body too large: at most {self.limit} bytes"}, status_code=413
        )
        await response({"type": "http"}, _no_receive, send)


class ServerTiming(HttpMiddleware):
    """A `Server-Timing: app;dur=MS` header on every response.

    The time from receiving the request to starting the response, measured in the server:
    the load benchmark reads it to tell server work from client and network overhead.
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                ms = 1000 * (time.perf_counter() - started)
                message = with_header(message, b"server-timing", f"app;dur={ms:.2f}")
            await send(message)

        await self.app(scope, receive, timed_send)


class ClientCookie(HttpMiddleware):
    """Give each client a random cookie, and the request its value.

    The value is `scope["state"]["client_token"]` (so `request.state.client_token`); a
    request without a well-formed cookie gets a new one, set on its response.
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        header = dict(scope.get("headers") or []).get(b"cookie", b"")
        token = cookie_parser(header.decode("latin-1")).get(CLIENT_COOKIE, "")
        fresh = not _CLIENT_TOKEN.fullmatch(token)
        if fresh:
            token = secrets.token_urlsafe(16)
        scope.setdefault("state", {})["client_token"] = token

        async def send_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                cookie = f"{CLIENT_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"
                message = with_header(message, b"set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_cookie)


class CatchAll(HttpMiddleware):
    """An unexpected exception becomes a logged JSON 500.

    Starlette's own handler for `Exception` answers and then re-raises, and the server
    drops the (kept-alive) connection on that; this one answers and keeps it.
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            log.exception("unexpected error in %s %s", scope.get("method"), scope.get("path"))
            if started:  # too late for a response of our own
                raise
            response = JSONResponse(
                {"detail": "internal error: the server logged it; please report it"},
                status_code=500,
            )
            await response(scope, _no_receive, send)
