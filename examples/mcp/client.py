"""A generic MCP client over stdio: start `synapse mcp`, offer this folder as the root,
recall by a question and read the first hit exactly.

    python examples/mcp/client.py "how do we deploy?"
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.context import ClientRequestContext
from mcp.types import ListRootsResult, Root


async def roots(context: ClientRequestContext) -> ListRootsResult:
    """The folders this client works in; the server serves the first one inside git."""
    return ListRootsResult(roots=[Root(uri=Path.cwd().as_uri())])


async def main(question: str) -> None:
    # An MCP client passes on only a few environment variables; pass the store's.
    env = {key: os.environ[key] for key in ("SYNAPSE_DATA",) if key in os.environ}
    server = StdioServerParameters(command="synapse", args=["mcp"], env=env)
    async with Client(server, list_roots_callback=roots) as client:
        print((client.instructions or "").splitlines()[-1])
        found = await client.call_tool("recall", {"query": question, "budget": "lean"})
        recall = found.structured_content or {}
        for hit in recall.get("hits", []):
            print(f"#{hit['id']} {hit['body'][:70]!r}{' (abridged)' if hit['abridged'] else ''}")
        if not recall.get("hits"):
            print("nothing recalled")
            return
        first = recall["hits"][0]
        # Exact reading: start at 0 and follow `next` until it is null.
        body, offset = b"", 0
        while offset is not None:
            page = await client.call_tool(
                "readmemory", {"id": first["id"], "project": first["project"], "offset": offset}
            )
            memory = (page.structured_content or {}).get("memory")
            if memory is None:
                print(f"memory {first['id']} is no longer readable")
                return
            body += memory["body"].encode("utf-8")
            offset = memory["next"]
        print(f"memory {first['id']}, {len(body)} bytes:\n{body.decode('utf-8')}")


if __name__ == "__main__":
    anyio.run(main, " ".join(sys.argv[1:]))
