"""The viewer's front door (docs/ui.md#the-security-model): every request passes here
before a page sees it.

Memory text is untrusted (an agent may have written it from hostile input), and a
local server is reachable by every web page the user opens: a page can send
requests to 127.0.0.1, and a DNS name rebound to 127.0.0.1 can even read the
answers. So a request is served only when

- its Host header names the address the server is bound to (no rebound name),
- it carries this run's token, from the printed address once, then as a cookie
  that is HttpOnly and SameSite=Strict (another site's request carries no cookie),
- it is a GET, a HEAD, or a POST whose Origin (or, lacking one, Referer) is this
  server, whose body is at most `MAX_BODY` bytes and whose form holds this run's
  CSRF value,

and every answer carries a Content-Security-Policy that runs no script at all,
refuses framing, and is never cached. Standard library only, over plain ASGI.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# A memory body is at most 1 MiB; percent-encoded, every byte may take three.
MAX_BODY = 4 * 1024 * 1024
# A URL longer than this is no question a person typed.
MAX_QUERY = 8 * 1024
# Request headers, all together (h11 bounds only a head that arrives in pieces).
MAX_HEADERS = 16 * 1024

HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none';"
        b" form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


@dataclass(frozen=True)
class Secrets:
    """This run's token (proves the caller read the printed address) and CSRF value
    (proves a form came from a page this server rendered). Never stored anywhere."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))


def host_names(host: str, port: int) -> frozenset[str]:
    """The Host header values that name this server: its address and port, and
    `localhost` for a loopback address (no other site can be called localhost)."""
    shown = f"[{host}]" if ":" in host else host
    names = {f"{shown}:{port}"}
    if host in ("127.0.0.1", "::1"):
        names.add(f"localhost:{port}")
    return frozenset(names)


def _same(given: str, wanted: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), wanted.encode("utf-8"))


class Guard:
    """ASGI middleware that refuses every request that fails a rule above."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str], keys: Secrets, port: int) -> None:
        self.app = app
        self.hosts = hosts
        self.keys = keys
        self.origins = frozenset(f"http://{name}" for name in hosts)
        # Cookies ignore the port: two viewers on one machine keep a cookie each.
        self.cookie = f"synapse_ui_{port}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return
        refusal = self._refusal(scope)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if "token" in query:
            await self._enter(scope, send, query)
            return
        if not self._has_cookie(scope):
            await _plain(
                send,
                401,
                "this page needs the address `synapse ui` printed (it carries this run's token)",
            )
            return
        if scope["method"] == "POST":
            body = await _read_body(receive)
            if body is None:
                await _plain(send, 413, f"the request is larger than {MAX_BODY} bytes")
                return
            form = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
            if not _same(form.get("csrf", ""), self.keys.csrf):
                await _plain(send, 403, "the form is not one this server showed: reload the page")
                return
            await self.app(scope, _replay(body), _secured(send))
            return
        await self.app(scope, receive, _secured(send))

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        if sum(len(k) + len(v) for k, v in scope.get("headers", [])) > MAX_HEADERS:
            return 431, f"the request's headers are larger than {MAX_HEADERS} bytes"
        headers = _headers(scope)
        if headers.get("host", "") not in self.hosts:
            return 421, "this server answers only to its own address (the Host header differs)"
        if scope["method"] not in ("GET", "HEAD", "POST"):
            return 405, "only GET and POST are served"
        if len(scope.get("query_string", b"")) > MAX_QUERY:
            return 414, f"the address is longer than {MAX_QUERY} bytes"
        if scope["method"] == "POST":
            origin = headers.get("origin")
            if origin is not None:
                if origin not in self.origins:
                    return 403, "a request from another site is refused (Origin differs)"
            else:
                referer = headers.get("referer", "")
                if not any(referer.startswith(o + "/") for o in self.origins):
                    return 403, "a write must come from this server's own page (no Origin)"
        return None

    def _has_cookie(self, scope: Scope) -> bool:
        for part in _headers(scope).get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == self.cookie and _same(value, self.keys.token):
                return True
        return False

    async def _enter(self, scope: Scope, send: Send, query: dict[str, str]) -> None:
        """The printed address: set the cookie and send the browser to the same page
        without the token, so it stays out of history and Referer headers."""
        if scope["method"] != "GET" or not _same(query.pop("token"), self.keys.token):
            await _plain(send, 401, "this token is not this run's: use the address printed last")
            return
        rest = urlencode(query)
        path = str(scope.get("path", "/"))
        # Only a path of this server: `//host` or `/\host` would send the browser away.
        if not path.startswith("/") or path[1:2] in ("/", "\\"):
            path = "/"
        target = quote(path, safe="/") + (f"?{rest}" if rest else "")
        cookie = f"{self.cookie}={self.keys.token}; HttpOnly; SameSite=Strict; Path=/"
        await _secured(send)(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", target.encode("ascii")),
                    (b"set-cookie", cookie.encode("latin-1")),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


def _headers(scope: Scope) -> dict[str, str]:
    """Request headers by lower-case name; a repeated Host or Origin is refused as a
    value no rule accepts."""
    found: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        if name in found and name in ("host", "origin", "referer"):
            found[name] = "\x00repeated"
        elif name == "cookie" and name in found:
            found[name] += "; " + value
        else:
            found[name] = value
    return found


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None as soon as it passes `MAX_BODY`."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    """A receive channel that hands the already read body to the application."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def _secured(send: Send) -> Send:
    """`send` with the security headers added to the response's start."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in HEADERS if name not in names]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


async def _plain(send: Send, status: int, text: str) -> None:
    """A refusal: one line of plain text, with the security headers."""
    body = f"synapse ui: {text}\n".encode()
    await _secured(send)(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
