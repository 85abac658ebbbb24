"""`synapse mcp` over stdio with the standard library: JSON-RPC 2.0, a line at a time.

An MCP client starts the server at every session and waits for its first
answer; importing the MCP SDK (and pydantic with it) costs about a second of
CPU. This module speaks the handshake protocols (2024-11-05 to 2025-11-25) as
the SDK-backed server (mcp/server.py) does: `initialize` with the same version
negotiation, `ping`, `tools/list` and `tools/call` with the same results and
tool errors, `notifications/roots/list_changed` and `notifications/cancelled`,
and the same JSON-RPC errors. What it serves comes from mcp/tools.json, which
the SDK generates from the tools' typed signatures (mcp/server.py); arguments
are checked against it by mcp/checks.py and mcp/arguments.py.

A session that does not open with a well-formed `initialize` (a client of the
2026-07-28 protocol opens with `server/discover`) is handed to the SDK as it
stands, the lines already read included: it is served exactly as before, and
only then pays for the SDK.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git import __version__
from synapse_git.errors import SynapseError
from synapse_git.escaping import json_text
from synapse_git.mcp import arguments, tool_calls
from synapse_git.mcp.checks import CheckedInput, EscapedOutput, strict_errors
from synapse_git.mcp.scope_state import ROOTS_WAIT_S, ServerState
from synapse_git.mcp.shaping import shaper
from synapse_git.mcp.workers import Workers
from synapse_git.settings import Config

if TYPE_CHECKING:
    from types import FrameType

# The SDK's registry of protocol versions (mcp.types.version), checked by a test.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE = HANDSHAKE_VERSIONS[-1]
# How long a stopping server waits for a writer holding the store before its read
# counts are dropped: the MCP SDK's client sends SIGTERM 2 s after closing stdin, and
# kills the server 2 s after that.
FLUSH_ON_STOP_S = 1.0
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
# Methods of the protocol the SDK knows but Synapse does not serve, and the parameters
# each must carry: the SDK refuses a request without them as invalid before it finds
# no handler for it.
UNSERVED = {
    "completion/complete": ("ref", "argument"),
    "logging/setLevel": ("level",),
    "prompts/get": ("name",),
    "prompts/list": (),
    "resources/list": (),
    "resources/templates/list": (),
    "resources/read": ("uri",),
    "resources/subscribe": ("uri",),
    "resources/unsubscribe": ("uri",),
}
SURROGATE = (
    "the arguments hold a lone surrogate (such as \\ud800), which is not Unicode text;"
    " nothing was done"
)


def definitions() -> dict[str, Any]:
    """mcp/tools.json: what `initialize` and `tools/list` carry, as the SDK makes them."""
    text = Path(__file__).with_name("tools.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def serve(
    config: Config,
    *,
    project: Path | None = None,
    budget: str | None = None,
    with_sdk: bool = False,
) -> None:
    """Serve over stdio until the client closes the connection, or Ctrl-C; `with_sdk`
    serves the whole session with the SDK (what tests compare this module with)."""
    state = ServerState.of(config, project, budget)
    # Ctrl-C in a terminal stops the process, and so does SIGTERM, which a client
    # sends when the server has not exited soon enough after stdin closed: every write
    # is one transaction, so nothing confirmed is lost, and no thread is left waiting.
    # The read counts kept in memory are written first.
    signal.signal(signal.SIGINT, partial(_stopped, state))
    signal.signal(signal.SIGTERM, partial(_stopped, state))
    wire = EscapedOutput()
    lines = CheckedInput(set())
    try:
        session = Session(state, lines, wire)
        if with_sdk:
            session.hand_over([])
        else:
            session.run()
    finally:
        wire.close()
        if state.started:
            state.synapse.reads.flush(wait_s=FLUSH_ON_STOP_S)


def _stopped(state: ServerState, signum: int, frame: FrameType | None) -> None:
    if signum == signal.SIGINT:
        with contextlib.suppress(OSError):
            os.write(2, b"synapse mcp: interrupted, stopped\n")
    if state.started:
        # On a thread of its own, bounded: the signal may have come while this thread
        # held the counts' lock, and a client kills the server soon after SIGTERM.
        writer = threading.Thread(
            target=state.synapse.reads.flush, args=(FLUSH_ON_STOP_S,), daemon=True
        )
        writer.start()
        writer.join(FLUSH_ON_STOP_S + 0.2)
    os._exit(128 + signum)


class Session:
    """One client's session: requests read on this thread, each tool call on one of
    `Workers`' threads."""

    def __init__(self, state: ServerState, lines: CheckedInput, wire: EscapedOutput) -> None:
        self.state = state
        self.lines = lines
        self.wire = wire
        self.served = definitions()
        self.tools = {tool["name"]: tool for tool in self.served["tools"]}
        self.shapes = {name: shaper(tool["outputSchema"]) for name, tool in self.tools.items()}
        self._write = threading.Lock()
        self.roots_offered = False
        # Requests of ours (roots/list) awaiting the client's answer, by id.
        self._asked: dict[int, tuple[threading.Event, list[Any]]] = {}
        self._next_id = 0
        self._workers = Workers()
        self._cancelled: set[Any] = set()
        self._closed = False

    def run(self) -> None:
        read: list[str] = []
        while True:
            line = self.lines.readline()
            if not line:
                return
            read.append(line)
            if line.strip():
                break
        hello = _parsed(line)
        if hello is None or _request_id(hello) is None or not _is_initialize(hello):
            self.hand_over(read)
            return
        self._initialize(hello)
        while line := self.lines.readline():
            self._receive(line)
        # stdin closed: the client is gone. The calls under way finish (each write is
        # one transaction) and, as with the SDK, are not answered.
        self._closed = True
        self._workers.wait()

    def hand_over(self, read: list[str]) -> None:
        from synapse_git.mcp.server import serve_sdk

        self.lines.pending[:0] = read
        serve_sdk(self.state, self.lines, self.wire)

    def _receive(self, line: str) -> None:
        message = _parsed(line)
        if message is None:
            # As the SDK does: a line that is no JSON-RPC message gets no answer.
            return
        if "method" not in message:
            self._answered(message)
            return
        method, params = message["method"], message.get("params")
        if params is not None and not isinstance(params, dict):
            return  # no JSON-RPC message either
        number = _request_id(message)
        if "id" not in message:
            self._notified(method, params)
        elif number is not None and isinstance(method, str):
            self._request(number, method, params)

    def _notified(self, method: Any, params: Any) -> None:
        if method == "notifications/roots/list_changed":
            self.state.roots_changed()
        elif method == "notifications/cancelled" and isinstance(params, dict):
            # The call goes on (a write is one transaction) but is no longer answered.
            number = _request_id({"id": params.get("requestId")})
            if number is not None:
                self._cancelled.add(number)

    def _answered(self, message: dict[str, Any]) -> None:
        number = _request_id(message)
        waiting = None if not isinstance(number, int) else self._asked.pop(number, None)
        if waiting is not None:
            event, box = waiting
            box.append(message)
            event.set()

    def _request(self, number: Any, method: str, params: dict[str, Any] | None) -> None:
        if method == "initialize":
            if _is_initialize({"params": params}):
                self._initialize({"id": number, "params": params})
            else:
                self._error(number, INVALID_PARAMS, "Invalid request parameters", "")
        elif method == "ping":
            self._result(number, {})
        elif method == "tools/list":
            cursor = (params or {}).get("cursor")
            if cursor is not None and not isinstance(cursor, str):
                self._error(number, INVALID_PARAMS, "Invalid request parameters", "")
            else:
                self._result(number, {"tools": self.served["tools"]})
        elif method == "tools/call":
            self._call(number, params or {})
        elif method in UNSERVED and not all(key in (params or {}) for key in UNSERVED[method]):
            self._error(number, INVALID_PARAMS, "Invalid request parameters", "")
        else:
            self._error(number, METHOD_NOT_FOUND, "Method not found", method)

    def _initialize(self, hello: dict[str, Any]) -> None:
        params = hello["params"]
        asked = params["protocolVersion"]
        self.roots_offered = params["capabilities"].get("roots") is not None
        from synapse_git.service.session_start import server_instructions

        self._result(
            hello["id"],
            {
                "capabilities": self.served["capabilities"],
                "instructions": server_instructions(self.state.config),
                "protocolVersion": asked if asked in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE,
                "serverInfo": {"name": self.served["name"], "version": __version__},
            },
        )

    def _call(self, number: Any, params: dict[str, Any]) -> None:
        name, given = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or not isinstance(given, dict | None):
            self._error(number, INVALID_PARAMS, "Invalid request parameters", "")
            return
        self._workers.run(partial(self._run_call, number, name, given or {}))

    def _run_call(self, number: Any, name: str, given: dict[str, Any]) -> None:
        try:
            answer = self._tool_result(number, name, given)
            if number not in self._cancelled and not self._closed:
                self._result(number, answer)
        finally:
            self._cancelled.discard(number)

    def _tool_result(self, number: Any, name: str, given: dict[str, Any]) -> dict[str, Any]:
        if str(number) in self.lines.bad_text:
            self.lines.bad_text.discard(str(number))
            return _failed(f"Error executing tool {name}: {SURROGATE}")
        tool = self.tools.get(name)
        if tool is None:
            return _failed(f"Unknown tool: {name}")
        wrong = strict_errors(tool["inputSchema"], given)
        if wrong:
            return _failed(f"Error executing tool {name}: bad arguments: " + "; ".join(wrong))
        try:
            values = arguments.checked(tool["inputSchema"], given)
        except ValueError as exc:
            return _failed(f"Error executing tool {name}: {exc}")
        try:
            roots = self._roots(number)
            uris = None if roots is None else [root["uri"] for root in roots]
            where = self.state.scope_for(roots, uris, keep=True)
            answer = getattr(tool_calls, name)(self.state, where, **values)
        except SynapseError as exc:
            return _failed(f"Error executing tool {name}: {exc}")
        except Exception as exc:
            return _failed(tool_calls.internal_error(name, exc))
        structured = self.shapes[name](answer)
        return {
            "content": [{"type": "text", "text": json_text(structured)}],
            "isError": False,
            "structuredContent": structured,
        }

    def _roots(self, number: Any) -> list[dict[str, Any]] | None:
        """The client's roots: kept from an earlier call, asked for, or None when it has none."""
        if not self.roots_offered:
            return None
        kept: list[dict[str, Any]] | None = self.state.cached_roots()
        if kept is not None:
            return kept
        event, box = threading.Event(), list[Any]()
        with self._write:
            self._next_id += 1
            asked = self._next_id
            self._asked[asked] = (event, box)
        self._send({"jsonrpc": "2.0", "id": asked, "method": "roots/list"})
        if not event.wait(ROOTS_WAIT_S):
            self._asked.pop(asked, None)
            self.state.roots_timed_out()
            return []
        answer = box[0]
        if "result" not in answer:
            # It offers roots but cannot list them: serve the fallback folder rather than fail.
            return []
        return _roots_of(answer["result"])

    def _result(self, number: Any, result: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "id": number, "result": result})

    def _error(self, number: Any, code: int, message: str, data: Any) -> None:
        self._send(
            {
                "jsonrpc": "2.0",
                "id": number,
                "error": {"code": code, "message": message, "data": data},
            }
        )

    def _send(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._write, contextlib.suppress(BrokenPipeError):
            self.wire.write(text)
            self.wire.flush()


def _parsed(line: str) -> dict[str, Any] | None:
    """A JSON-RPC 2.0 message, or None for what the SDK would drop (no JSON, a batch)."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    return message


def _request_id(message: dict[str, Any]) -> int | str | None:
    number = message.get("id")
    return number if isinstance(number, int | str) and not isinstance(number, bool) else None


def _is_initialize(message: dict[str, Any]) -> bool:
    """Whether `message` is an `initialize` request the SDK would take."""
    params = message.get("params")
    if message.get("method", "initialize") != "initialize" or not isinstance(params, dict):
        return False
    client = params.get("clientInfo")
    return (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(params.get("capabilities"), dict)
        and isinstance(client, dict)
        and isinstance(client.get("name"), str)
        and isinstance(client.get("version"), str)
    )


def _roots_of(result: Any) -> list[dict[str, Any]]:
    """The roots a client listed, or BadInput in the words of the SDK's check."""
    from synapse_git.errors import BadInput

    roots = result.get("roots") if isinstance(result, dict) else None
    where, problem = "roots", "Input should be a valid list"
    if isinstance(roots, list):
        for n, root in enumerate(roots):
            uri = root.get("uri") if isinstance(root, dict) else None
            if not isinstance(root, dict):
                where, problem = f"roots.{n}", "Input should be a valid dictionary"
            elif not isinstance(uri, str):
                where, problem = f"roots.{n}.uri", "URL input should be a string or URL"
            elif not uri.startswith("file:"):
                where, problem = f"roots.{n}.uri", "URL scheme should be 'file'"
            else:
                continue
            break
        else:
            return roots
    raise BadInput(
        f"the client's roots are not a list of file: URIs ({where}: {problem}); nothing was done"
    )


def _failed(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}
