"""What the MCP server checks in a request before a tool sees it: lines the SDK's
parser would drop, and arguments pydantic's lax mode would coerce."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Only the SDK-backed server reports pydantic's errors; the stdio server never loads it.
    from pydantic import ValidationError

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_WHOLE = re.compile(r"-?(0|[1-9][0-9]{0,18})")


class CheckedInput:
    """Standard input for the stdio transport, a line at a time.

    JSON may escape a lone surrogate (`"\\ud800"`) that the SDK's parser refuses;
    it then drops the request without an answer. Such a line is read here instead,
    its surrogates replaced so it parses, and its id noted so the call is refused
    with a message. Descriptor 0 is pointed at the null device, as the SDK does,
    so that no child process reads the client's messages.

    The bytes are read and split here rather than by a buffered file, so that the
    SDK's event loop can tell whether a whole line is at hand and wait for the
    descriptor itself (scoped_server.LoopLines) instead of reading on a thread."""

    def __init__(self, bad_text: set[str]) -> None:
        self.bad_text = bad_text
        self.fd = os.dup(sys.stdin.fileno())
        with contextlib.suppress(OSError):
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, sys.stdin.fileno())
            os.close(null)
        # Lines read already, given again first (a session handed to the SDK).
        self.pending: list[str] = []
        self._read = bytearray()
        self._searched = 0  # how much of `_read` holds no newline
        self._ended = False

    def readline(self) -> str:
        """The next line, waiting for it; "" once the input has ended."""
        while (line := self.buffered_line()) is None:
            self.read_more()
        return line

    def buffered_line(self) -> str | None:
        """The next line if it is read whole ("" once the input has ended), else None."""
        if self.pending:
            return self.pending.pop(0)
        end = self._read.find(b"\n", self._searched)
        if end < 0:
            if not self._ended:
                self._searched = len(self._read)
                return None
            end = len(self._read) - 1  # the last line, with no newline after it
        raw = bytes(self._read[: end + 1])
        del self._read[: end + 1]
        self._searched = 0
        return self._checked(raw.decode("utf-8", errors="replace"))

    def read_more(self) -> bool:
        """One read of the descriptor, waiting until some input, or its end, is there;
        whether it found input."""
        chunk = os.read(self.fd, 1 << 16)
        self._read += chunk
        self._ended = not chunk
        return bool(chunk)

    def _checked(self, line: str) -> str:
        if not _SURROGATE_ESCAPE.search(line):
            return line
        try:
            doc = json.loads(line)
        except (ValueError, RecursionError):
            return line
        cleaned = no_surrogates(doc)
        if cleaned == doc and json.dumps(cleaned) == json.dumps(doc):
            return line
        if isinstance(doc, dict) and "id" in doc:
            self.bad_text.add(str(doc["id"]))
        return json.dumps(cleaned) + "\n"

    def close(self) -> None:
        os.close(self.fd)


class EscapedOutput:
    """Standard output for the stdio transport: each message the SDK writes with
    DEL, C1, bidi controls and line separators escaped inside its strings, the one
    rule of every JSON Synapse prints (escaping.json_text). Descriptor 1 is pointed
    at standard error while serving, as the SDK does, so that stray output from
    anything else never lands between messages; `close` puts it back."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self._private = os.dup(sys.stdout.fileno())
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        self.sink = os.fdopen(os.dup(self._private), "wb")

    def write(self, text: str) -> int:
        from synapse_git.escaping import escape_json

        self.sink.write(escape_json(text).encode("utf-8", "surrogateescape"))
        return len(text)

    def flush(self) -> None:
        self.sink.flush()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sink.close()
        with contextlib.suppress(OSError):
            os.dup2(self._private, sys.stdout.fileno())
        os.close(self._private)


def no_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, list):
        return [no_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {no_surrogates(key): no_surrogates(item) for key, item in value.items()}
    return value


def argument_errors(error: ValidationError) -> str:
    parts = []
    for detail in error.errors():
        where = ".".join(str(part) for part in detail["loc"]) or "arguments"
        if detail["type"] == "missing":
            parts.append(f"{where} is missing")
        else:
            given = repr(detail["input"])
            given = given if len(given) <= 60 else given[:57] + "..."
            parts.append(f"{where}: {detail['msg']} (got {given})")
    return "bad arguments: " + "; ".join(parts)


def strict_errors(schema: dict[str, Any], arguments: dict[str, Any]) -> list[str]:
    """What is wrong with `arguments` for a tool of input `schema`, beyond pydantic's
    lax checks: unknown arguments, and a boolean, float or any string but a whole
    number's own digits for a whole number (`" 1"`, `true`, `1.0` are not id 1).

    `"1"` is taken: clients that build arguments from a form (the MCP Inspector among
    them) send every typed-in value as a string, and it can mean nothing else."""
    fields: dict[str, Any] = schema.get("properties", {})
    wrong = []
    for key, value in arguments.items():
        if key not in fields:
            wrong.append(f"{key[:40]!r} is not an argument (use: {', '.join(fields)})")
            continue
        kinds = [fields[key].get("type")]
        kinds += [option.get("type") for option in fields[key].get("anyOf", [])]
        whole = type(value) is int or (value is None and "null" in kinds) or _digits(value)
        if "integer" in kinds and not whole:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            wrong.append(f"{key} must be a whole number, sent as a JSON number (got {shown})")
    return wrong


def _digits(value: object) -> bool:
    """A string that is exactly how a whole number is written: `"12"`, not `"012"`,
    `" 12"` or `"1e3"`."""
    return isinstance(value, str) and _WHOLE.fullmatch(value) is not None
