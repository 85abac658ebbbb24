"""A client's own memory file (`CLAUDE.md`, `AGENTS.md`, any such Markdown) read as
memories: each bullet point one memory, its source `FILE:LINE` (docs/hooks.md,
"Beside the client's own memory").

Only list items become memories: headings, prose, fenced code and HTML comments
are the file's own structure, not facts to recall. A bullet's indented
continuation lines join it; a nested bullet is a memory of its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.file_reads import NotRegular, regular_bytes

KINDS = ("jsonl", "claude-md", "agents-md", "markdown")
MAX_FILE_BYTES = 4 * 1024 * 1024

_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?(.*\S)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def bullets(text: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each bullet point in Markdown `text`."""
    fence: str | None = None
    comment = False
    current: tuple[int, list[str], int] | None = None  # line, parts, indent
    for number, line in enumerate(text.splitlines(), 1):
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        if (opened := _FENCE.match(line)) is not None:
            fence = opened.group(1)
            if current:
                yield current[0], " ".join(current[1])
                current = None
            continue
        if comment or line.lstrip().startswith("<!--"):
            comment = "-->" not in line
            continue
        found = _BULLET.match(line)
        if found is not None:
            if current:
                yield current[0], " ".join(current[1])
            current = (number, [found.group(2)], len(found.group(1)))
        elif current and line.strip() and len(line) - len(line.lstrip()) > current[2]:
            current[1].append(line.strip())
        elif current:
            yield current[0], " ".join(current[1])
            current = None
    if current:
        yield current[0], " ".join(current[1])


def as_lines(path: Path, label: str, project: str | None) -> list[str]:
    """The bullets of `path` as import JSON Lines, sourced `LABEL:LINE`."""
    try:
        # Opened without waiting and read only if regular: a FIFO named CLAUDE.md would
        # hold the import for ever, a link to /dev/zero would be read without end.
        raw = regular_bytes(path, MAX_FILE_BYTES + 1)
    except NotRegular:
        raise BadInput(f"{path} is not a regular file: not a memory file") from None
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise BadInput(f"{path} is over {MAX_FILE_BYTES} bytes: not a memory file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is not UTF-8 (byte {exc.start})") from None
    return [
        json.dumps({"body": body, "source": f"{label}:{number}", "project": project})
        for number, body in bullets(text)
    ]
