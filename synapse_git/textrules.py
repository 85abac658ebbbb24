"""Text rules shared by every module: validation, byte sizes, normalization."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from synapse_git.errors import BadInput
from synapse_git.settings import MAX_BODY_BYTES, MAX_SOURCE_BYTES

_SPACE = re.compile(r"\s+")


def utf8(text: str, what: str) -> bytes:
    """`text` as UTF-8; lone surrogates cannot be stored, so they are bad input."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{what} is not valid Unicode (it holds a lone surrogate)") from None


def check_body(body: str) -> str:
    size = len(utf8(body, "body"))
    if not body.strip():
        raise BadInput("body is empty")
    if size > MAX_BODY_BYTES:
        raise BadInput(f"body is {size} bytes; the limit is {MAX_BODY_BYTES} bytes (1 MiB)")
    return body


def check_source(source: str) -> str:
    size = len(utf8(source, "source"))
    if size > MAX_SOURCE_BYTES:
        raise BadInput(f"source is {size} bytes; the limit is {MAX_SOURCE_BYTES} bytes")
    return source


def normalize(body: str) -> str:
    """NFC, case folded, whitespace collapsed: two bodies equal here are duplicates."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", body).casefold()).strip()


def norm_key(body: str) -> str:
    return hashlib.sha256(normalize(body).encode("utf-8", "surrogatepass")).hexdigest()


def cut_utf8(data: bytes, limit: int) -> bytes:
    """The longest prefix of `data` of at most `limit` bytes that ends on a character."""
    if len(data) <= limit:
        return data
    end = limit
    while end > 0 and (data[end] & 0xC0) == 0x80:
        end -= 1
    return data[:end]


def first_line(body: str, width: int = 100) -> str:
    """A body's first non-empty line, shortened to `width` characters for a table."""
    for line in body.splitlines():
        if line.strip():
            line = line.strip().replace("\t", " ")
            return line if len(line) <= width else line[: width - 1] + "…"
    return ""
