"""The SDK's MCP server that knows its caller's scope, and what each tool uses to reach it.

`SynapseServer` asks the client for its roots on the first tool call and resolves
the project from them (mcp/scope_state.py keeps both); it also holds every
request to the strict argument checks of mcp/checks.py and keeps the text copy
of a result compact. The tools themselves live in mcp/server.py.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Annotated, Any

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
from synapse_git.errors import SynapseError
from synapse_git.escaping import json_text
from synapse_git.mcp.checks import CheckedInput, EscapedOutput, argument_errors, strict_errors
from synapse_git.mcp.scope_state import ROOTS_WAIT_S, ServerState
from synapse_git.mcp.tool_calls import internal_error

if TYPE_CHECKING:
    from collections.abc import Iterator

    from synapse_git.service import Scope

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


class SynapseServer(MCPServer[Any]):
    """An MCPServer that knows where its client works (`state`)."""

    def __init__(self, state: ServerState, guidance: str) -> None:
        # WARNING: tool errors are the caller's business, not log lines on stderr.
        super().__init__("synapse", instructions=guidance, version=__version__, log_level="WARNING")
        self.state = state
        # Requests whose text held a lone surrogate, which JSON allows and Unicode does not.
        self.bad_text: set[str] = set()
        # The low-level registry is the one place the SDK's handlers are listed.
        for method in UNSERVED:
            self._lowlevel_server._request_handlers.pop(method, None)
        # MCPServer has no public hook for client notifications; the low-level
        # server's registration is the supported way underneath it.
        self._lowlevel_server.add_notification_handler(
            "notifications/roots/list_changed", NotificationParams, self._roots_changed
        )

    async def _roots_changed(self, ctx: Any, params: NotificationParams) -> None:
        self.state.roots_changed()

    def run_over(self, lines: CheckedInput, wire: EscapedOutput) -> None:
        """Serve stdio: read through `lines`, write through `wire`."""
        anyio.run(self._serve_stdio, lines, wire)

    async def _serve_stdio(self, lines: CheckedInput, wire: EscapedOutput) -> None:
        self.bad_text = lines.bad_text
        # anyio's file wrapper takes each readline, write and flush to a worker thread
        # and back: three trips a call, about a tenth of what a call costs the server
        # beyond the tool's own work.
        source, out = LoopLines(lines), OneHopWire(wire)
        async with stdio_server(stdin=source, stdout=out) as (reader, writer):  # type: ignore[arg-type]
            await self._lowlevel_server.run(
                reader, writer, self._lowlevel_server.create_initialization_options()
            )

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
            raise ToolError(internal_error(name, exc.__cause__ or exc)) from None
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


def scoped(ctx: Context[Any, Any], roots: ListRootsResult | None) -> tuple[ServerState, Scope]:
    """The state of the server a tool call came through, and the call's scope."""
    server = ctx.mcp_server
    assert isinstance(server, SynapseServer)
    uris = None if roots is None else [str(root.uri) for root in roots.roots]
    keep = ctx.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS
    return server.state, server.state.scope_for(roots, uris, keep=keep)


async def client_roots(ctx: Context[Any, Any]) -> ListRoots | ListRootsResult | None:
    """The client's roots: kept from an earlier call, asked for, or None when it has none."""
    capabilities = ctx.client_capabilities
    if capabilities is None or capabilities.roots is None:
        return None
    server = ctx.mcp_server
    assert isinstance(server, SynapseServer)
    cached: ListRootsResult | None = server.state.cached_roots()
    if cached is not None:
        return cached
    if ctx.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        # 2026-07-28: the SDK asks within the call (an input_required round).
        return ListRoots()
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
        server.state.roots_timed_out()
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


class LoopLines:
    """Standard input as the SDK's stdio transport reads it (`async for line in …`),
    on the event loop: a line already read is handed on at once, and the loop waits
    for the descriptor to be readable rather than a worker thread for a line. Input
    that cannot be waited for so (a regular file, /dev/null) is read on a thread."""

    def __init__(self, lines: CheckedInput) -> None:
        self.lines = lines
        self.polled = True

    def __aiter__(self) -> LoopLines:
        return self

    async def __anext__(self) -> str:
        while (line := self.lines.buffered_line()) is None:
            await self._wait()
        if not line:
            raise StopAsyncIteration
        return line

    async def _wait(self) -> None:
        if self.polled:
            try:
                await anyio.wait_readable(self.lines.fd)
            except PermissionError:
                self.polled = False  # epoll takes no regular file
            else:
                # Readable: this read returns what is there without waiting. The end
                # is still found through a worker thread, as the SDK's own reader finds
                # it: the requests read just before it get the same time to be answered.
                if self.lines.read_more():
                    return
                await anyio.to_thread.run_sync(self.lines.read_more)
                return
        await anyio.to_thread.run_sync(self.lines.read_more)


class OneHopWire:
    """Standard output as the SDK's stdio transport writes to it: each message written
    and flushed in one trip to a worker thread, where anyio's wrapper makes two. The
    write stays off the event loop: a client slow to read must not stop it."""

    def __init__(self, wire: EscapedOutput) -> None:
        self.wire = wire

    async def write(self, text: str) -> None:
        await anyio.to_thread.run_sync(self._write, text)

    async def flush(self) -> None:
        """Done with the write."""

    def _write(self, text: str) -> None:
        self.wire.write(text)
        self.wire.flush()
