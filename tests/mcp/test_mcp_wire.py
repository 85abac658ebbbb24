"""The standard-library stdio server says on the wire what the SDK-backed server says:
mcp/tools.json is what the SDK serves, and each protocol edge (an unknown method,
lines that are no message, a request before `initialize`, a batch, a huge line,
stdin closed during a call, notifications) is answered by both alike."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS
from support import make_repo
from wire import FAST, INITIALIZE, INITIALIZED, SDK, by_id, exchange, line

from synapse_git.mcp import stdio_server

DEFINITIONS = Path(stdio_server.__file__).with_name("tools.json")
UPDATE = "SYNAPSE_UPDATE_SNAPSHOT"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def both(lines: list[bytes], data: Path, cwd: Path, **options: Any) -> list[list[dict[str, Any]]]:
    """The answers of the SDK and of `synapse mcp` to the same lines, each by id."""
    said = []
    for label, command in (("sdk", SDK), ("fast", FAST)):
        # Each on its own copy of the store: a write must not meet the other's.
        store = data.parent / f"{data.name}-{label}"
        shutil.copytree(data, store)
        answers, stderr = exchange(command, lines, data=store, cwd=cwd, **options)
        assert "Traceback" not in stderr, stderr
        said.append(sorted(answers, key=lambda answer: json.dumps(answer.get("id"))))
    return said


def request(number: Any, method: str, params: Any = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method}
    if params is not None:
        message["params"] = params
    return line(message)


def call(number: int, name: str, arguments: dict[str, Any]) -> bytes:
    return request(number, "tools/call", {"name": name, "arguments": arguments})


HELLO = [line(INITIALIZE), line(INITIALIZED)]


def test_the_served_definitions_are_the_sdks(isolated_store: Path, repo: Path) -> None:
    asked = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": "2025-11-25"}}
    answers, _ = exchange(
        SDK,
        [line(asked), line(INITIALIZED), request(1, "tools/list")],
        data=isolated_store,
        cwd=repo,
    )
    hello, tools = by_id(answers)["0"]["result"], by_id(answers)["1"]["result"]
    current = {
        "name": hello["serverInfo"]["name"],
        "capabilities": hello["capabilities"],
        "tools": tools["tools"],
    }
    if os.environ.get(UPDATE) == "1":
        DEFINITIONS.write_text(json.dumps(current, indent=1, ensure_ascii=False) + "\n", "utf-8")
    assert json.loads(DEFINITIONS.read_text("utf-8")) == current, (
        f"the tools the SDK serves changed: rerun with {UPDATE}=1 and commit {DEFINITIONS.name}"
    )


def test_the_protocol_versions_are_the_sdks() -> None:
    assert stdio_server.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


@pytest.mark.parametrize("version", ["2024-11-05", "2025-11-25", "2026-07-28", "1999-01-01", ""])
def test_initialize_negotiates_the_version_as_the_sdk_does(
    version: str, isolated_store: Path, repo: Path
) -> None:
    hello = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": version}}
    sdk, fast = both([line(hello), line(INITIALIZED), line(hello)], isolated_store, repo)
    assert fast == sdk
    assert len(fast) == 3


def test_protocol_edges_are_answered_as_the_sdk_does(isolated_store: Path, repo: Path) -> None:
    lines = [
        *HELLO,
        request(1, "nope/nothing", {}),
        b'{"jsonrpc": "2.0", "id": 2, "method":\n',  # no JSON
        b"[]\n",
        b"42\n",
        b'[{"jsonrpc": "2.0", "id": 3, "method": "ping"}]\n',  # a batch
        b"\n",
        b"   \n",
        b'{"id": 4, "method": "ping"}\n',
        b'{"jsonrpc": "1.0", "id": 5, "method": "ping"}\n',
        b'{"jsonrpc": "2.0", "id": null, "method": "ping"}\n',
        b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}\n',
        b'{"jsonrpc": "2.0", "id": true, "method": "ping"}\n',
        request("six", "ping"),
        b'{"jsonrpc": "2.0", "id": 77, "result": {}}\n',  # an answer to nothing asked
        b'{"jsonrpc": "2.0", "id": [1], "result": {}}\n',
        b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": []}}\n',
        b'{"jsonrpc": "2.0", "method": "tools/list"}\n',  # a notification: no answer
        b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}\n',
        b'{"jsonrpc": "2.0", "method": "notifications/whatever"}\n',
        request(7, "ping", {"x": 1}),
        request(8, "tools/list", {"cursor": 5}),
        request(9, "tools/list", {"cursor": "abc"}),
        request(10, "tools/call"),
        request(11, "tools/call", {}),
        request(12, "tools/call", {"name": 5}),
        request(13, "tools/call", {"name": "recall", "arguments": [1]}),
        request(14, "prompts/list"),
        request(15, "prompts/get", {}),
        request(16, "resources/list", {}),
        request(17, "resources/read", {"uri": "file:///x"}),
        request(18, "logging/setLevel", {"level": "debug"}),
        request(19, "completion/complete", {}),
        b'{"jsonrpc": "2.0", "id": 20, "method": 5}\n',
        b'{"jsonrpc": "2.0", "id": 21, "method": "ping", "params": []}\n',
        b"\xff\xfe not utf-8\n",
    ]
    sdk, fast = both(lines, isolated_store, repo)
    assert fast == sdk
    answered = {json.dumps(answer["id"]) for answer in fast}
    assert '"six"' in answered and "4" not in answered and "2" not in answered


def test_a_request_before_initialize_is_answered_as_the_sdk_does(
    isolated_store: Path, repo: Path
) -> None:
    lines = [request(1, "tools/list"), request(2, "ping"), *HELLO, request(3, "tools/list")]
    sdk, fast = both(lines, isolated_store, repo)
    assert fast == sdk
    assert by_id(fast)["1"]["error"]["code"] == -32602


def test_tool_calls_and_their_errors_are_answered_as_the_sdk_does(
    isolated_store: Path, repo: Path
) -> None:
    calls = [
        call(1, "remember", {"body": "The port is 5433.", "scope": "global"}),
        call(2, "remember", {"body": "x" * (3 * 1024 * 1024)}),  # a 3 MiB line
        call(3, "nosuch", {}),
        call(4, "recall", {"query": "x", "limit": 0}),
        call(5, "readmemory", {"id": 1}),
        call(6, "recall", {"query": "x", "budget": "huge", "alternatives": '["a", "b"]'}),
        call(7, "remember", {"body": "fine", "scope": "team", "share": "yes"}),
        call(8, "recall", {"alternatives": ["a", 1, "b", "c", "d"]}),
        call(9, "recall", {"at": "x" * 300}),
        call(10, "supersede", {"id": 1}),
        call(11, "forget", {"id": 4242}),
    ]
    sdk, fast = both([*HELLO, *calls], isolated_store, repo, calls=set(range(1, 12)))
    assert fast == sdk
    assert by_id(fast)["1"]["result"]["isError"] is False


def test_recall_and_read_answer_as_the_sdk_does(isolated_store: Path, repo: Path) -> None:
    from synapse_git.service import Synapse

    svc = Synapse()
    made = svc.remember("Integration tests need `make db-up` first; port 5433.", svc.scope(repo))
    project = str(repo.resolve())
    calls = [
        call(1, "recall", {"query": "integration tests port"}),
        call(2, "readmemory", {"id": made.id, "project": project, "budget": "lean"}),
        call(3, "recall", {"query": ""}),
        call(4, "readmemory", {"id": "99", "project": None}),
    ]
    sdk, fast = both([*HELLO, *calls], isolated_store, repo, calls={1, 2, 3, 4})
    assert fast == sdk
    assert by_id(fast)["1"]["result"]["structuredContent"]["hits"][0]["id"] == made.id


def test_stdin_closed_during_a_call(isolated_store: Path, repo: Path) -> None:
    lines = [*HELLO, call(1, "remember", {"body": "Written as stdin closes.", "scope": "global"})]
    sdk, fast = both(lines, isolated_store, repo, close_early=True)
    # The client is gone: neither answers the call; each exits, its store whole.
    assert fast == sdk
    assert [answer["id"] for answer in fast] == [0]
    for label in ("sdk", "fast"):
        store = isolated_store.parent / f"{isolated_store.name}-{label}" / "memory.db"
        if not store.exists():
            continue  # the call never reached the store
        with closing(sqlite3.connect(store)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        assert rows <= 1


def test_the_first_answer_loads_no_sdk_pydantic_typer_or_pygit2(
    isolated_store: Path, repo: Path
) -> None:
    lines = [*HELLO, request(1, "tools/list"), call(2, "recall", {"query": "port"})]
    # The console script, as clients start it; every import of the session is listed.
    answers, stderr = exchange(
        FAST, lines, data=isolated_store, cwd=repo, calls={2}, env={"PYTHONPROFILEIMPORTTIME": "1"}
    )
    assert by_id(answers)["2"]["result"]["isError"] is False
    loaded = {
        entry.rsplit("|", 1)[1].strip().split(".")[0]
        for entry in stderr.splitlines()
        if entry.startswith("import time:") and "|" in entry
    }
    assert "synapse_git" in loaded
    assert not loaded & {"mcp", "mcp_types", "pydantic", "pydantic_core", "typer", "pygit2"}


def test_a_session_that_opens_without_initialize_is_the_sdks(
    isolated_store: Path, repo: Path
) -> None:
    envelope = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    discover = request(1, "server/discover", {"_meta": envelope})
    sdk, fast = both([discover, b"not json\n", request(2, "ping")], isolated_store, repo)
    assert fast == sdk
    assert "result" in by_id(fast)["1"]


def test_the_console_script_and_python_m_serve_alike(isolated_store: Path, repo: Path) -> None:
    module = [sys.executable, "-X", "importtime", "-m", "synapse_git", "mcp"]
    lines = [*HELLO, request(1, "tools/list")]
    first, _ = exchange(FAST, lines, data=isolated_store, cwd=repo)
    second, imports = exchange(module, lines, data=isolated_store, cwd=repo)
    assert first == second
    # The same fast path: neither typer nor the SDK is loaded for a handshake session.
    loaded = {line.rsplit("|", 1)[-1].strip() for line in imports.splitlines()}
    assert not loaded & {"typer", "mcp", "pydantic"}, loaded & {"typer", "mcp", "pydantic"}
    done = subprocess.run([*FAST, "--project", "/no/such"], capture_output=True, text=True)
    assert done.returncode == 2 and "not a folder" in done.stderr
