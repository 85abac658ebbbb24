"""Every MCP request gets an answer: lone surrogates, lax types, unknown arguments, a
client that never lists its roots, methods Synapse does not serve; errors are one line."""

from __future__ import annotations

import json
import os
import select
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp_harness import SYNAPSE, mcp_session, server_env
from support import make_repo

from synapse_git.service import Synapse

pytestmark = pytest.mark.filterwarnings("ignore:The roots capability is deprecated")


def raw_session(data: Path, cwd: Path, requests: list[str]) -> tuple[list[dict[str, object]], str]:
    """Requests written as raw JSON lines (the SDK's client cannot send a lone surrogate)."""
    server = subprocess.Popen(
        [str(SYNAPSE), "mcp"],
        cwd=cwd,
        env={**os.environ, **server_env(data)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    hello = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    }
    lines = [json.dumps(hello), '{"jsonrpc": "2.0", "method": "notifications/initialized"}']
    answers = []
    try:
        for number, line in enumerate([*lines, *requests]):
            server.stdin.write(line.encode() + b"\n")
            server.stdin.flush()
            if number == 1:
                continue
            ready, _, _ = select.select([server.stdout], [], [], 30)
            assert ready, f"no answer to {line}"
            answers.append(json.loads(server.stdout.readline()))
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    assert server.stderr is not None
    return answers, server.stderr.read().decode()


def call(number: int, name: str, arguments: str) -> str:
    return (
        f'{{"jsonrpc": "2.0", "id": {number}, "method": "tools/call", '
        f'"params": {{"name": "{name}", "arguments": {arguments}}}}}'
    )


def test_lone_surrogates_lax_types_and_unknown_methods_are_answered(
    tmp_path: Path, isolated_store: Path
) -> None:
    repo = make_repo(tmp_path / "repo")
    svc = Synapse()
    kept = svc.remember("The port is 5433.", svc.scope(repo)).id
    store = isolated_store / "memory.db"
    before = store.read_bytes()
    answers, stderr = raw_session(
        isolated_store,
        repo,
        [
            call(1, "remember", '{"body": "\\ud800 broken", "scope": "global"}'),
            call(2, "recall", '{"query": "port \\udfff"}'),
            call(3, "forget", f'{{"id": " {kept}"}}'),
            call(4, "forget", '{"id": true}'),
            call(5, "readmemory", f'{{"id": {kept}.0, "project": null}}'),
            call(6, "recall", '{"query": "port", "bogus": 1}'),
            call(7, "recall", f'{{"query": "port", "limit": {2**63}}}'),
            '{"jsonrpc": "2.0", "id": 8, "method": "prompts/get", "params": {"name": "x"}}',
            '{"jsonrpc": "2.0", "id": 9, "method": "resources/list", "params": {}}',
        ],
    )
    hello, *rest = answers
    capabilities = hello["result"]["capabilities"]  # type: ignore[index]
    assert "prompts" not in capabilities and "resources" not in capabilities
    by_id = {answer["id"]: answer for answer in rest}
    assert sorted(by_id) == list(range(1, 10))
    expected = {
        1: "lone surrogate",
        2: "lone surrogate",
        3: "id must be a whole number, sent as a JSON number (got ' 1')",
        4: "id must be a whole number, sent as a JSON number (got True)",
        5: "id must be a whole number, sent as a JSON number (got 1.0)",
        6: "'bogus' is not an argument",
        7: "is too large",
    }
    for number, words in expected.items():
        result = by_id[number]["result"]
        assert result["isError"] is True, result  # type: ignore[index]
        text = result["content"][0]["text"]  # type: ignore[index]
        assert words in text and "\n" not in text, text
    for number in (8, 9):
        assert by_id[number]["error"]["code"] == -32601  # type: ignore[index]
    assert "Traceback" not in stderr and "╭" not in stderr, stderr
    assert store.read_bytes() == before


def test_a_client_that_never_lists_its_roots_gets_the_fallback_and_a_note(
    tmp_path: Path, isolated_store: Path
) -> None:
    repo = make_repo(tmp_path / "repo")
    svc = Synapse()
    svc.remember("The port is 5433.", svc.scope(repo))
    with mcp_session(isolated_store, cwd=repo, roots_hang=True, mode="legacy") as session:
        found = session.ok("recall", {"query": "port"})
        assert [hit["body"] for hit in found["hits"]] == ["The port is 5433."]
        assert "did not list its roots" in found["note"]
        # Asked once: the next call does not wait again, and still says why.
        again = session.ok("recall", {"query": "port"})
        assert again["note"] == found["note"]


def test_a_damaged_repository_is_a_one_line_tool_error(
    tmp_path: Path, isolated_store: Path
) -> None:
    repo = make_repo(tmp_path / "repo")
    svc = Synapse()
    svc.remember("The user likes short commits.", svc.scope(tmp_path), is_global=True)
    before = (isolated_store / "memory.db").read_bytes()
    (repo / ".git" / "refs" / "heads" / "main").write_text("12" * 20 + "\n")
    with mcp_session(isolated_store, cwd=repo) as session:
        message = session.error("remember", {"body": "a fact"})
    assert "git fsck" in message and "\n" not in message
    assert (isolated_store / "memory.db").read_bytes() == before


def test_an_unexpected_exception_is_a_one_line_tool_error_naming_it(tmp_path: Path) -> None:
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError

    from synapse_git.mcp.server import build
    from synapse_git.settings import Config

    server = build(Config(tmp_path), project=tmp_path)
    # Called outside a request, the tool's context cannot be made: the SDK raises a
    # ValueError inside the call, which is what any unexpected failure looks like.
    with pytest.raises(ToolError) as caught:
        anyio.run(server.call_tool, "recall", {"query": "x"}, None)
    assert not isinstance(caught.value, UnexpectedToolError)
    message = str(caught.value)
    assert message.startswith("Error executing tool recall: internal error (ValueError: ")
    assert "\n" not in message
