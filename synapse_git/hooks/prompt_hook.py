"""`synapse hook prompt`: the memories that answer the prompt a user just submitted
(docs/hooks.md, "Memory at the prompt"): the hook's JSON read from stdin, one
service call (`prompt_recall.context`), the context printed in the client's
format.

A client runs this before every prompt reaches the model, so it must be quick
and quiet: it loads neither typer, pygit2, the MCP SDK nor the semantic extra,
and it says nothing at all unless a memory answers well. Any error is one line
on stderr and exit 0: the prompt always goes through.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from synapse_git import exit_codes
from synapse_git.errors import BadInput
from synapse_git.escaping import json_text, visible
from synapse_git.hooks import hook_input

FORMATS = ("claude", "codex", "text")


def main(argv: Sequence[str]) -> int:
    """`synapse hook prompt [--format claude|codex|text]`, the hook JSON on stdin."""
    try:
        fmt = _format(argv)
        out = answer(hook_input.event(hook_input.read()), fmt)
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
        return 0
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as exc:
        detail = str(exc) if isinstance(exc, BadInput) else f"{type(exc).__name__}: {exc}"
        line = visible(f"synapse: memory at the prompt skipped ({detail})").splitlines()
        print(line[0][:400] if line else "synapse: memory at the prompt skipped", file=sys.stderr)
        return 0


def _format(argv: Sequence[str]) -> str:
    fmt = "claude"
    items = list(argv)
    while items:
        item = items.pop(0)
        key, eq, value = item.partition("=")
        if key != "--format":
            raise BadInput(f"unknown argument {item[:80]} (see: synapse hook prompt --help)")
        if not eq:
            if not items:
                raise BadInput("--format needs a value")
            value = items.pop(0)
        fmt = value
    if fmt not in FORMATS:
        raise BadInput(f"unknown format {fmt[:40]!r}: choose one of {', '.join(FORMATS)}")
    return fmt


def _text(event: dict[str, Any], key: str) -> str | None:
    value = event.get(key)
    if not isinstance(value, str):
        return None
    # Lone surrogates from JSON escapes cannot be searched or stored: replace them.
    return value.encode("utf-8", "replace").decode("utf-8")


def answer(event: dict[str, Any], fmt: str) -> str:
    """What the hook prints for `event`: nothing, or the hits in the client's format."""
    from synapse_git.service import prompt_recall

    cwd = _text(event, "cwd")
    found = prompt_recall.context(
        _text(event, "prompt"),
        Path(cwd) if cwd and os.path.isdir(cwd) else None,
        _text(event, "session_id") or _text(event, "conversation_id"),
    )
    if found.unnoted is not None:
        print(
            f"synapse: cannot note what this session was given ({found.unnoted})", file=sys.stderr
        )
    if not found.text or fmt == "text":
        return found.text
    event_name = _text(event, "hook_event_name") or "UserPromptSubmit"
    return (
        json_text(
            {"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": found.text}}
        )
        + "\n"
    )
