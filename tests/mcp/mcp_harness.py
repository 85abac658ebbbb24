"""A real MCP client (the SDK's, over stdio) driving the installed `synapse mcp`, made
synchronous with an anyio blocking portal so tests read as plain calls."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.client.context import ClientRequestContext
from mcp.types import INTERNAL_ERROR, CallToolResult, ErrorData, ListRootsResult, Root
from support import GIT_ENV

SYNAPSE = Path(sys.executable).with_name("synapse")


class Session:
    """One `synapse mcp` process and a connected client."""

    def __init__(self, portal: BlockingPortal, client: Client, roots: list[Path] | None) -> None:
        self.portal = portal
        self.client = client
        self.roots = roots

    @property
    def instructions(self) -> str | None:
        return self.client.instructions

    def list_tools(self) -> list[Any]:
        return list(self.portal.call(self.client.list_tools).tools)

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        return self.portal.call(self.client.call_tool, name, arguments)

    def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call a tool that must succeed; its structured output."""
        result = self.call(name, arguments)
        assert not result.is_error, f"{name} failed: {result.content}"
        assert result.structured_content is not None
        return result.structured_content

    def error(self, name: str, arguments: dict[str, Any]) -> str:
        """Call a tool that must fail; its error text."""
        result = self.call(name, arguments)
        assert result.is_error, f"{name} should have failed: {result.structured_content}"
        return " ".join(getattr(block, "text", "") for block in result.content)

    def set_roots(self, roots: Sequence[Path]) -> None:
        """Offer other roots and tell the server, as an editor does when folders change."""
        assert self.roots is not None, "this client offers no roots"
        self.roots[:] = list(roots)
        self.portal.call(self.client.session.send_roots_list_changed)


def server_env(data: Path) -> dict[str, str]:
    # The semantic switch follows the test's (off unless tests/semantic turns it on).
    semantic = os.environ.get("SYNAPSE_SEMANTIC", "off")
    return {"SYNAPSE_DATA": str(data), "PYTHONUTF8": "1", "SYNAPSE_SEMANTIC": semantic, **GIT_ENV}


@contextmanager
def mcp_session(
    data: Path,
    *,
    cwd: Path,
    args: Sequence[str] = (),
    roots: list[Path] | None = None,
    roots_fail: bool = False,
    roots_hang: bool = False,
    mode: str = "auto",
) -> Iterator[Session]:
    """Spawn `synapse mcp ARGS` in `cwd` with SYNAPSE_DATA=`data`; `roots`, when given, are
    offered to the server (the list may be changed later through `Session.set_roots`);
    with `roots_fail` the client offers roots but answers every request for them with an
    error."""
    params = StdioServerParameters(
        command=str(SYNAPSE), args=["mcp", *args], env=server_env(data), cwd=str(cwd)
    )
    callback = None
    if roots is not None:
        offered = roots

        async def callback(context: ClientRequestContext) -> ListRootsResult:
            return ListRootsResult(roots=[Root(uri=folder.as_uri()) for folder in offered])

    if roots_hang:

        async def callback(context: ClientRequestContext) -> ListRootsResult:
            # A client that offers roots and never lists them.
            await anyio.sleep_forever()
            raise AssertionError("unreachable")

    if roots_fail:

        async def callback(context: ClientRequestContext) -> ErrorData:
            return ErrorData(code=INTERNAL_ERROR, message="roots are not available")

    client = Client(params, list_roots_callback=callback, mode=mode)
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal())
        stack.enter_context(portal.wrap_async_context_manager(client))
        yield Session(portal, client, roots)


def in_env(data: Path) -> dict[str, str]:
    """The environment for a CLI process sharing the server's store."""
    return {**os.environ, **server_env(data)}


@contextmanager
def started_from(params: StdioServerParameters, roots: list[Path]) -> Iterator[Session]:
    """A client that starts the server exactly as `params` say (a client's configuration)."""

    async def callback(context: ClientRequestContext) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=folder.as_uri()) for folder in roots])

    client = Client(params, list_roots_callback=callback)
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal())
        stack.enter_context(portal.wrap_async_context_manager(client))
        yield Session(portal, client, roots)
