"""A long body read in bounded windows (docs/store.md#long-bodies).

SQLite's incremental blob I/O reads only the pages asked for: looking for a word
at the end of a megabyte note holds CHUNK bytes at a time, never the body whole,
and the text around a match is read on its own.
"""

from __future__ import annotations

import re
import sqlite3

CHUNK = 65_536  # bytes read at a time
OVERLAP = 512  # bytes read again at each seam: a match up to this long is never split


def _open(conn: sqlite3.Connection, memory_id: int) -> sqlite3.Blob | None:
    try:
        return conn.blobopen("memories", "body", memory_id, readonly=True)
    except sqlite3.OperationalError:  # no such row (forgotten meanwhile)
        return None


def _start(data: bytes) -> int:
    """How many bytes at the start of `data` continue a character begun before it."""
    skip = 0
    while skip < len(data) and skip < 4 and 0x80 <= data[skip] < 0xC0:
        skip += 1
    return skip


def first_match(
    conn: sqlite3.Connection, memory_id: int, pattern: re.Pattern[str], start: int = 0
) -> int | None:
    """The byte offset in the body of memory `memory_id` of the first match of
    `pattern` in its lower-cased text at or after byte `start`; None when none."""
    blob = _open(conn, memory_id)
    if blob is None:
        return None
    with blob:
        total = len(blob)
        at = start
        while at < total:
            blob.seek(at)
            data = blob.read(CHUNK)
            skip = _start(data)
            # A character cut at the chunk's end is dropped here and read whole next time.
            text = data[skip:].decode("utf-8", "ignore")
            lowered = text.lower()
            found = pattern.search(lowered)
            if found is not None:
                # lower() keeps the length of nearly every text; where it does not,
                # the offset is near enough for a window around it.
                head = (
                    text[: found.start()] if len(lowered) == len(text) else lowered[: found.start()]
                )
                return at + skip + len(head.encode("utf-8"))
            if at + len(data) >= total:
                return None
            at += len(data) - OVERLAP
        return None


def window(
    conn: sqlite3.Connection, memory_id: int, at: int, before: int, after: int
) -> tuple[int, str]:
    """About `before` bytes before byte `at` of the body and `after` from it, cut on
    character boundaries: (the byte offset where the text starts, the text)."""
    blob = _open(conn, memory_id)
    if blob is None:
        return 0, ""
    with blob:
        begin = max(0, at - before)
        blob.seek(begin)
        data = blob.read(at - begin + after)
    skip = _start(data)
    return begin + skip, data[skip:].decode("utf-8", "ignore")


def words_pattern(words: list[str], prefixes: list[str], substrings: list[str]) -> re.Pattern[str]:
    """Any of `words` standing whole, a word starting with one of `prefixes`, or any
    of `substrings` anywhere, in lower-cased text."""
    parts = [rf"(?<![^\W_]){re.escape(w)}(?![^\W_])" for w in words if w]
    parts += [rf"(?<![^\W_]){re.escape(p)}" for p in prefixes if p]
    parts += [re.escape(s) for s in substrings if s]
    return re.compile("|".join(parts) if parts else r"(?!)")
