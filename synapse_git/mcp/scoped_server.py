"""The MCP server that knows its caller's scope, and what each tool uses to reach it.

`SynapseServer` asks the client for its roots on the first tool call, resolves
the project from them (or from the fallback folder) and keeps it until the
roots change; it also holds every request to the strict argument checks of
mcp/checks.py and keeps the text copy of a result compact. The tools
themselves live in mcp/server.py.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar
from urllib.parse import unquote, urlparse

import anyio
from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp.types import (
    CallToolResult,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
    NotificationParams,
    TextContent,
)
from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError

from synapse_git import __version__
from synapse_git.answers import RecallOut, RememberOut
from synapse_git.errors import BadInput, SynapseError
from synapse_git.escaping import json_text
from synapse_git.mcp.checks import CheckedInput, EscapedOutput, argument_errors, strict_errors
from synapse_git.settings import Config

if TYPE_CHECKING:
    from collections.abc import Iterator

    from synapse_git.service import Scope, Synapse

# How long a client that offers roots gets to list them before the fallback folder
# is served instead: a client that never answers must not hold every call forever.
ROOTS_WAIT_S = 5.0
# Methods the SDK serves for prompts and resources; Synapse has none, so it does not
# offer them (an empty offer only invites calls that fail).
UNSERVED = (
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
)

Noted = TypeVar("Noted", RecallOut, RememberOut)


class SynapseServer(MCPServer[Any]):
    """An MCPServer that knows where its client works.

    One stdio process serves one client. Under the handshake protocols the
    client's roots are asked for once and kept until it sends
    `notifications/roots/list_changed`; the 2026-07-28 protocol has no such
    notification, so there they are asked for on every call (the client answers
    from its own state, without a model turn). The scope is kept for as long as
    the roots offered stay the same.
    """

    def __init__(self, config: Config, fallback: Path, budget: str | None, guidance: str) -> None:
        # WARNING: tool errors are the caller's business, not log lines on stderr.
        super().__init__("synapse", instructions=guidance, version=__version__, log_level="WARNING")
        self.config = config
        self._synapse: Synapse | None = None
        self.fallback = fallback
        self.budget = budget
        self._lock = threading.Lock()
        self._roots: ListRootsResult | None = None
        self._scope: tuple[tuple[str, ...] | None, Scope] | None = None
        self.roots_note: str | None = None
        # Requests whose text held a lone surrogate, which JSON allows and Unicode does not.
        self.bad_text: set[str] = set()
        # The low-level registry is the one place the SDK's handlers are listed.
        for method in UNSERVED:
            self._lowlevel_server._request_handlers.pop(method, None)
        self._told_semantic = False
        # MCPServer has no public hook for client notifications; the low-level
        # server's registration is the supported way underneath it.
        self._lowlevel_server.add_notification_handler(
            "notifications/roots/list_changed", NotificationParams, self._roots_changed
        )

    @property
    def started(self) -> bool:
        """Whether any call has made the service (and so may have counted reads)."""
        return self._synapse is not None

    @property
    def synapse(self) -> Synapse:
        """The service, made on the first call: importing it loads pygit2, which start-up skips."""
        with self._lock:
            if self._synapse is None:
                from synapse_git.service import Synapse

                self._synapse = Synapse(self.config, long_lived=True)
            return self._synapse

    async def _roots_changed(self, ctx: Any, params: NotificationParams) -> None:
        with self._lock:
            self._roots, self._scope, self.roots_note = None, None, None

    async def run_stdio_async(self) -> None:
        """Serve stdio, reading each line through `_checked_line` first."""
        lines = anyio.wrap_file(CheckedInput(self.bad_text))  # type: ignore[arg-type]  # readline is all it uses
        wire = EscapedOutput()
        try:
            out = anyio.wrap_file(wire)  # type: ignore[arg-type]  # write and flush are all it uses
            async with stdio_server(stdin=lines, stdout=out) as (reader, writer):
                await self._lowlevel_server.run(
                    reader, writer, self._lowlevel_server.create_initialization_options()
                )
        finally:
            wire.close()

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None = None,
    ) -> CallToolResult | InputRequiredResult:
        if context is not None and context.request_id in self.bad_text:
            self.bad_text.discard(context.request_id)
            raise ToolError(
                f"Error executing tool {name}: the arguments hold a lone surrogate "
                "(such as \\ud800), which is not Unicode text; nothing was done"
            )
        tool = self._tool_manager.get_tool(name)
        wrong = [] if tool is None else strict_errors(tool.parameters, arguments)
        if wrong:
            raise ToolError(f"Error executing tool {name}: bad arguments: " + "; ".join(wrong))
        try:
            result = await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            # The SDK's own message is empty and it logs a long traceback: one line instead.
            cause = exc.__cause__ or exc
            first = str(cause).strip().splitlines()[:1]  # one line, never a report's tail
            detail = f"{type(cause).__name__}: {' '.join(first)[:300]}".rstrip(": ")
            raise ToolError(f"Error executing tool {name}: internal error ({detail})") from None
        except ToolError as exc:
            # pydantic's report spans lines and links its docs; say it in one line.
            if isinstance(exc.__cause__, ValidationError):
                message = argument_errors(exc.__cause__)
                raise ToolError(f"Error executing tool {name}: {message}") from exc.__cause__
            raise
        if isinstance(result, CallToolResult) and result.structured_content is not None:
            # The SDK renders the text copy indented, larger than the response cap that
            # the structured output was held to; the cap counts this compact form.
            # Escaped as every JSON Synapse prints: the copy's text is what an agent reads.
            text = json_text(result.structured_content)
            result = result.model_copy(update={"content": [TextContent(type="text", text=text)]})
        return result

    def cached_roots(self) -> ListRootsResult | None:
        with self._lock:
            return self._roots

    def scope_for(self, roots: ListRootsResult | None, protocol: str | None) -> Scope:
        """The scope of the first root inside a git repository, else of the fallback folder."""
        key = None if roots is None else tuple(str(root.uri) for root in roots.roots)
        with self._lock:
            if protocol in HANDSHAKE_PROTOCOL_VERSIONS:
                self._roots = roots
            if self._scope is not None and self._scope[0] == key:
                return self._scope[1]
        found = None
        for root in roots.roots if roots is not None else ():
            folder = _root_folder(str(root.uri))
            if folder is None:
                continue
            candidate = self.synapse.scope(folder)
            if candidate.project is not None:
                found = candidate
                break
        if found is None:
            found = self.synapse.scope(self.fallback)
        with self._lock:
            self._scope = (key, found)
        return found

    def budget_or_default(self, budget: str | None) -> str | None:
        return budget if budget is not None else self.budget

    def tell_semantic(self, notice: str | None) -> None:
        """Say once on stderr (the client's log) that recall runs without vectors."""
        if notice is not None and notice.startswith("off") and not self._told_semantic:
            self._told_semantic = True
            print(f"synapse: semantic recall {notice}", file=sys.stderr, flush=True)


def _root_folder(uri: str) -> Path | None:
    """The folder a `file:` root names; None for another kind of root or a missing
    folder; BadInput for a path no folder can have (too long, a NUL)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    folder = Path(unquote(parsed.path))
    try:
        return folder if folder.is_dir() else None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise BadInput(
            f"the client's root {uri[:80]}{'…' if len(uri) > 80 else ''} names no folder"
            f" ({reason}); nothing was done"
        ) from None


def with_roots_note(server: SynapseServer, answer: Noted) -> Noted:
    """`answer`, saying so when the client's roots could not be had and the fallback was used."""
    if server.roots_note is not None:
        answer["note"] = server.roots_note
    return answer


def server_of(ctx: Context[Any, Any]) -> SynapseServer:
    """The server a tool call came through."""
    server = ctx.mcp_server
    assert isinstance(server, SynapseServer)
    return server


async def client_roots(ctx: Context[Any, Any]) -> ListRoots | ListRootsResult | None:
    """The client's roots: kept from an earlier call, asked for, or None when it has none."""
    capabilities = ctx.client_capabilities
    if capabilities is None or capabilities.roots is None:
        return None
    cached = server_of(ctx).cached_roots()
    if cached is not None:
        return cached
    if ctx.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        # 2026-07-28: the SDK asks within the call (an input_required round).
        return ListRoots()
    server = server_of(ctx)
    try:
        with anyio.fail_after(ROOTS_WAIT_S):
            found: ListRootsResult = await ctx.session.send_request(
                ListRootsRequest(),
                ListRootsResult,
                metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
            )
    except MCPError:
        # It offers roots but cannot list them: serve the fallback folder rather than fail.
        return ListRootsResult(roots=[])
    except ValidationError as exc:
        # A root that is no file: URI (http://…) fails the SDK's model: say it in one line.
        where = ".".join(str(part) for part in exc.errors()[0]["loc"]) if exc.errors() else ""
        raise ToolError(
            f"the client's roots are not a list of file: URIs ({where or 'roots'}: "
            f"{exc.errors()[0]['msg'] if exc.errors() else 'invalid'}); nothing was done"
        ) from None
    except TimeoutError:
        # Kept as no roots until the client says they changed: one wait, not one a call.
        server.roots_note = (
            f"the client did not list its roots within {ROOTS_WAIT_S:g} s; "
            f"serving {server.fallback} instead"
        )
        return ListRootsResult(roots=[])
    return found


ClientRoots = Annotated[ListRootsResult | None, Resolve(client_roots)]


@contextlib.contextmanager
def tool_errors() -> Iterator[None]:
    """Synapse's errors, whose messages say what to do, as tool errors."""
    try:
        yield
    except SynapseError as exc:
        raise ToolError(str(exc)) from None
