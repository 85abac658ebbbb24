"""Roots no folder can be: an http:// root and a root URI of 100,000 characters give
a one-line tool error, through the SDK's real client over stdio."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.client.context import ClientRequestContext
from mcp.types import ListRootsResult, Root
from mcp_harness import SYNAPSE, Session, server_env
from support import make_repo

pytestmark = [
    pytest.mark.filterwarnings("ignore:The roots capability is deprecated"),
    # The client sends a root its own model would refuse, which is the point.
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings"),
]


@contextmanager
def offering(data: Path, cwd: Path, uris: list[str]) -> Iterator[Session]:
    """A client offering `uris` as its roots as they are, checked by nothing on its side."""
    params = StdioServerParameters(
        command=str(SYNAPSE), args=["mcp"], env=server_env(data), cwd=str(cwd)
    )

    async def callback(context: ClientRequestContext) -> ListRootsResult:
        return ListRootsResult(roots=[Root.model_construct(uri=uri) for uri in uris])

    client = Client(params, list_roots_callback=callback, mode="legacy")
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal())
        stack.enter_context(portal.wrap_async_context_manager(client))
        yield Session(portal, client, None)


@pytest.mark.parametrize(
    ("uri", "said"),
    [
        ("http://example.com/project", "not a list of file: URIs"),
        ("file:///" + "a" * 100_000, "names no folder (File name too long)"),
    ],
    ids=["http", "long"],
)
def test_a_root_no_folder_can_be_is_a_one_line_error(
    uri: str, said: str, tmp_path: Path, isolated_store: Path
) -> None:
    repo = make_repo(tmp_path / "r")
    with offering(isolated_store, repo, [uri]) as session:
        text = session.error("recall", {"query": "anything"})
    assert said in text
    assert "\n" not in text and "http" not in text.replace("http://example.com", "")
    assert len(text) < 400
