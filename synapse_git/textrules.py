"""Text rules shared by every module: validation, byte sizes, normalization."""

from __future__ import annotations

import functools
import re
import unicodedata

from synapse_git.errors import BadInput

# Wording for output, which lives with escaping; still reached here by older callers.
from synapse_git.escaping import counted as counted
from synapse_git.escaping import first_line as first_line

try:
    # hashlib's own blake2b, without hashlib, which loads OpenSSL's digests: a tenth of
    # the start-up of every command, which all load this module.
    from _blake2 import blake2b as blake2b
except ImportError:  # another Python than CPython
    from hashlib import blake2b as blake2b

# The limits are read from settings where they are checked: settings loads dataclasses,
# which costs a commit that only wants first lines a quarter of its instructions.


def utf8(text: str, what: str) -> bytes:
    """`text` as UTF-8; lone surrogates cannot be stored, so they are bad input."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{what} is not valid Unicode (it holds a lone surrogate)") from None


# Something a reader can see: not white space, a control, or a zero-width or
# formatting character (ZWSP, ZWJ, word joiner, BOM, soft hyphen, bidi marks).
_SEEN = (
    "[^\\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0]"
)


@functools.cache
def _seen() -> re.Pattern[str]:
    # Compiled on first use: only writes check a body, and this wide class takes a
    # while to compile for every command that loads the module.
    return re.compile(_SEEN)


def check_body(body: str) -> str:
    from synapse_git.settings import MAX_BODY_BYTES

    size = len(utf8(body, "body"))
    if not body.strip():
        raise BadInput("body is empty")
    if _seen().search(body) is None:
        raise BadInput("body holds only invisible characters (zero-width, controls)")
    if size > MAX_BODY_BYTES:
        raise BadInput(f"body is {size} bytes; the limit is {MAX_BODY_BYTES} bytes (1 MiB)")
    return body


def check_source(source: str) -> str:
    from synapse_git.settings import MAX_SOURCE_BYTES

    size = len(utf8(source, "source"))
    if size > MAX_SOURCE_BYTES:
        raise BadInput(f"source is {size} bytes; the limit is {MAX_SOURCE_BYTES} bytes")
    return source


def normalize(body: str) -> str:
    """NFC, case folded, whitespace collapsed: two bodies equal here are duplicates."""
    # str.split() cuts at exactly the characters the regular expression `\s` matches
    # (str.isspace), and drops them at both ends, at a fifth of the expression's cost:
    # keys stored before are unchanged (tests/store/test_store.py).
    return " ".join(unicodedata.normalize("NFC", body).casefold().split())


def norm_key(body: str) -> int:
    """A signed 64-bit key of the normalized body, the store's `norm`. Eight bytes
    a row and in the index instead of a 64-character digest; equal keys are only
    a hint: a reader that merges or reports duplicates confirms on the text."""
    return key_of(normalize(body))


def key_of(normal: str) -> int:
    """`norm_key` of a body already normalized."""
    digest = blake2b(normal.encode("utf-8", "surrogatepass"), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


def cut_utf8(data: bytes, limit: int) -> bytes:
    """The longest prefix of `data` of at most `limit` bytes that ends on a character."""
    if len(data) <= limit:
        return data
    end = limit
    while end > 0 and (data[end] & 0xC0) == 0x80:
        end -= 1
    return data[:end]
