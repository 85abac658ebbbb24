"""A client file's text for `synapse setup`: read (bounded, UTF-8, bytes kept as they
are for a byte-for-byte restore), parsed as JSON or TOML with one line for what cannot
be, and the edited document rendered in the file's own layout (docs/mcp.md)."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from synapse_git.clients import mcp_config
from synapse_git.clients.agent_files import Piece
from synapse_git.errors import BadInput
from synapse_git.file_reads import NotRegular

MAX_FILE_BYTES = mcp_config.MAX_FILE_BYTES
BOM = "\ufeff"
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def check_writable(path: Path) -> None:
    """Refuse a file its owner marked read-only: replacing it would undo the mark."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # absent (or unreadable, which reading it has said)
    if stat.S_ISREG(mode) and not mode & 0o222:
        raise BadInput(
            f"{path} is read-only; nothing was written (make it writable to let setup edit it)"
        )


def read(path: Path) -> str | None:
    """The file's text, None when it is absent."""
    try:
        raw = mcp_config.client_bytes(path)
    except FileNotFoundError:
        return None
    except NotRegular as exc:
        what = "a folder" if exc.folder else "not a regular file"
        raise BadInput(f"{path} is {what}; nothing was written") from None
    except mcp_config.TooLarge:
        raise BadInput(f"{path} is over {MAX_FILE_BYTES} bytes; nothing was written") from None
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}; nothing was written") from None
    try:
        # Bytes, not read_text: CRLF line ends must survive a byte-for-byte restore.
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is not UTF-8 (byte {exc.start}); nothing was written") from None


def parse(piece: Piece, text: str | None) -> dict[str, Any]:
    """The document setup edits: a JSON object, or for TOML {"text": …} (edited as text)."""
    body = without_bom(text)
    if piece.syntax == "toml":
        mcp_config.parse_toml(body, piece.path)
        return {"text": body}
    if not body.strip():
        return {}
    try:
        doc = json.loads(body)
    except json.JSONDecodeError as exc:
        if _is_jsonc(body):
            # Cursor and VS Code read comments and trailing commas; rewriting the file as
            # JSON would drop the user's comments, so it is left for them to edit.
            raise BadInput(
                f"{piece.path} holds comments or trailing commas, which setup cannot keep;"
                " nothing was written: add Synapse's entries by hand (docs/mcp.md,"
                " Client setup by hand)"
            ) from None
        raise BadInput(
            f"{piece.path} is not valid JSON ({exc.msg}, line {exc.lineno}); nothing was written"
        ) from None
    except RecursionError:
        raise BadInput(f"{piece.path} is nested too deeply to read; nothing was written") from None
    if not isinstance(doc, dict):
        raise BadInput(f"{piece.path} does not hold a JSON object; nothing was written")
    return doc


def render(piece: Piece, old: str | None, doc: dict[str, Any]) -> str:
    """The text the file should hold for `doc`, in `old`'s layout."""
    if piece.syntax == "toml":
        return in_layout(old, str(doc["text"]))
    if without_bom(old).strip() and json.loads(without_bom(old)) == doc:
        return old or ""  # the same document: keep the user's layout
    return in_layout(old, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def without_bom(text: str | None) -> str:
    """A file's text without its byte order mark, which the clients accept and skip."""
    return (text or "").removeprefix(BOM)


def in_layout(old: str | None, new: str) -> str:
    """`new` with `old`'s byte order mark, and its CRLF line ends where every line has one."""
    if not old or not new:
        return new
    if _crlf_throughout(old):
        new = new.replace("\r\n", "\n").replace("\n", "\r\n")
    return BOM + new if old.startswith(BOM) and not new.startswith(BOM) else new


def in_plain(text: str) -> str:
    """`text` without its byte order mark, and with LF line ends where every line has
    CRLF: what an edit works on, which `in_layout` turns back into the file's layout."""
    bare = without_bom(text)
    return bare.replace("\r\n", "\n") if _crlf_throughout(bare) else bare


def _crlf_throughout(text: str) -> bool:
    return "\r\n" in text and text.count("\n") == text.count("\r\n")


def _is_jsonc(text: str) -> bool:
    """Whether `text` is JSON once its comments and trailing commas are taken out."""
    kept: list[str] = []
    n, quoted = 0, False
    while n < len(text):
        char = text[n]
        if quoted:
            kept.append(text[n : n + 2] if char == "\\" else char)
            n += 2 if char == "\\" else 1
            quoted = char != '"'
            continue
        if text.startswith("//", n):
            n = text.find("\n", n) % (len(text) + 1)
        elif text.startswith("/*", n):
            n = text.find("*/", n) % (len(text) + 1) + 2
        else:
            kept.append(char)
            quoted = char == '"'
            n += 1
    try:
        json.loads(_TRAILING_COMMA.sub(r"\1", "".join(kept)))
    except (ValueError, RecursionError):
        return False
    return True
