"""One escaping rule for every text an agent receives: the MCP server's messages and
their text copies escape DEL, C1, bidi controls and line separators as `--json`
does (synapse_git/escaping.py); the structured content parses back to the text."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
from pathlib import Path

import pytest
from mcp_harness import SYNAPSE, mcp_session, server_env
from support import make_repo, run_cli

pytestmark = pytest.mark.filterwarnings("ignore:The roots capability is deprecated")

HOSTILE = "deploy\x1b[2J with \x9b31m and \u202eevil\u202c then\u2028next\u2029para\x7f end"
RAW = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def test_the_text_copy_is_escaped_as_json_output_is(tmp_path: Path, isolated_store: Path) -> None:
    repo = make_repo(tmp_path / "r")
    assert run_cli("memory", "remember", HOSTILE, cwd=repo).returncode == 0
    printed = run_cli("memory", "recall", "deploy", "--json", cwd=repo).stdout
    assert not RAW.search(printed) and "\\u202e" in printed
    with mcp_session(isolated_store, cwd=repo, roots=[repo]) as session:
        for name, arguments in (
            ("recall", {"query": "deploy"}),
            ("readmemory", {"id": 1, "project": str(repo.resolve())}),
            ("remember", {"body": HOSTILE + " again"}),
        ):
            result = session.call(name, arguments)
            assert not result.is_error, result.content
            [copy] = result.content
            text = getattr(copy, "text", "")
            assert not RAW.search(text), (name, text)
            assert "\\u202e" in text or name == "remember"
            # The copy is the structured content, escaped: it parses back to it.
            assert json.loads(text) == result.structured_content
        recalled = session.ok("recall", {"query": "deploy"})
        assert HOSTILE in [hit["body"] for hit in recalled["hits"]]


def test_no_raw_control_reaches_the_wire(tmp_path: Path, isolated_store: Path) -> None:
    repo = make_repo(tmp_path / "r")
    assert run_cli("memory", "remember", HOSTILE, cwd=repo).returncode == 0
    server = subprocess.Popen(
        [str(SYNAPSE), "mcp"],
        cwd=repo,
        env={**os.environ, **server_env(isolated_store)},
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
    recall = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "recall", "arguments": {"query": "deploy"}},
    }
    lines: list[bytes] = []
    try:
        for message in (hello, {"jsonrpc": "2.0", "method": "notifications/initialized"}, recall):
            server.stdin.write(json.dumps(message).encode() + b"\n")
            server.stdin.flush()
            if "id" not in message:
                continue
            ready, _, _ = select.select([server.stdout], [], [], 30)
            assert ready
            lines.append(server.stdout.readline())
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    answer = lines[-1].decode("utf-8")
    assert not RAW.search(answer.rstrip("\n")), answer
    assert "\\u202e" in answer and "\\u2028" in answer and "\\u009b" in answer
    parsed = json.loads(answer)["result"]
    assert parsed["structuredContent"]["hits"][0]["body"] == HOSTILE
