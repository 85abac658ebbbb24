"""The JSON a client gives a hook on standard input (docs/hooks.md): read bounded, and
read to its end, and for Cursor the folder it names. Light: the agent hooks import it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from synapse_git.errors import BadInput

MAX_INPUT_BYTES = 1024 * 1024
DRAIN_BYTES = 256 * 1024 * 1024  # past this, the writer is not a client sending one event
# Cursor opens one folder or a few; a longer list is not a workspace's.
MAX_ROOTS = 64


def read() -> bytes:
    """Standard input, at most MAX_INPUT_BYTES (BadInput past it, once the rest is read)."""
    raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(raw) > MAX_INPUT_BYTES:
        _drain()
        raise BadInput(f"the hook input is over {MAX_INPUT_BYTES} bytes; nothing recalled")
    return raw


def _drain() -> None:
    """Read the rest of an input too long to use: a client still writing it would meet
    a closed pipe (EPIPE in Node, which Claude Code is), not a finished hook."""
    left = DRAIN_BYTES
    while left > 0:
        chunk = sys.stdin.buffer.read(min(left, 1024 * 1024))
        if not chunk:
            return
        left -= len(chunk)


def event(raw: bytes) -> dict[str, Any]:
    """The input as a JSON object ({} when empty)."""
    try:
        found = json.loads(raw.decode("utf-8", "replace")) if raw.strip() else {}
    except ValueError:
        raise BadInput("the hook input is not JSON") from None
    if not isinstance(found, dict):
        raise BadInput("the hook input is not a JSON object")
    return found


def cursor_folder() -> Path | None:
    """The folder a Cursor hook is about: the first of the input's `workspace_roots`
    that is an absolute path to a folder. None (the caller's folder is used, as before)
    on a terminal, which gives no input and would be waited on, and when the input is
    not JSON, too long, or names no such folder."""
    if sys.stdin is None or sys.stdin.isatty():
        return None
    try:
        roots = event(read()).get("workspace_roots")
    except (BadInput, OSError):
        return None
    return workspace_root(roots)


def workspace_root(roots: Any) -> Path | None:
    """The first of `roots` that is an absolute path to a folder. Anything else is
    passed over: not a string, relative (to what the hook does not know), a NUL or a
    lone surrogate (no path at all), a FIFO or a file (`isdir` opens nothing)."""
    if not isinstance(roots, list):
        return None
    for root in roots[:MAX_ROOTS]:
        if isinstance(root, str) and os.path.isabs(root) and os.path.isdir(root):
            return Path(root)
    return None
