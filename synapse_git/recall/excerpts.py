"""Excerpts (docs/recall.md, step 7): an abridged hit shows the text around the
rarest question word it holds, since that word is what made it a hit; a common
word near the top ("initialization sequence") says little about why.
"""

from __future__ import annotations

import re
import sqlite3

from synapse_git.recall import coverage, query_terms, word_forms
from synapse_git.recall.query_terms import Term
from synapse_git.recall.ranking import Search
from synapse_git.recall.read_texts import term_pattern
from synapse_git.store import body_windows
from synapse_git.textrules import cut_utf8

ELLIPSIS = "…"
# Text kept before the word, as a share of the allowance: enough to show what
# the sentence is about, most of it for what follows.
LEAD = 4
_TOKEN = re.compile(r"(?:[^\W_]|(?<=\w)[\u0300-\u036f])+")
# The opening read whole; past it a term is looked for a window at a time and the
# text around its first match read alone (store/body_windows.py).
SCAN_BYTES = 16_384


def position(text: str, term: Term) -> int | None:
    """Where `text` holds `term`: the word itself first, then another form of it,
    then (for an identifier) a substring; None when it does not."""
    family = word_forms.family(term.word)
    stem_at = None
    for match in _TOKEN.finditer(text):
        word = query_terms.fold(match.group())
        if word == term.word:
            return match.start()
        if stem_at is None and word_forms.family(word) == family:
            stem_at = match.start()
    if stem_at is not None:
        return stem_at
    if term.substring:
        at = text.lower().find(term.raw)
        return None if at < 0 else at
    return None


def window(text: str, at: int, allowance: int) -> str:
    """About `allowance` bytes of `text` around character `at`, starting at its
    line when that is near, with an ellipsis where the text goes on."""
    data = text.encode("utf-8")
    offset = len(text[:at].encode("utf-8"))
    line_start = len(text[: text.rfind("\n", 0, at) + 1].encode("utf-8"))
    start = max(0, offset - allowance // LEAD)
    if offset - line_start <= allowance // 2:
        start = line_start
    room = allowance - (len(ELLIPSIS.encode()) * 2 if start else len(ELLIPSIS.encode()))
    piece = cut_utf8(data[start:], room).decode("utf-8", "ignore")
    # Start on a whole word rather than inside one.
    if start and start != line_start:
        head = piece.find(" ")
        piece = piece[head + 1 :] if 0 <= head < 24 else piece
        piece = ELLIPSIS + piece
    if start + len(piece.encode("utf-8")) < len(data):
        piece = piece.rstrip() + ELLIPSIS
    return piece


def around_rarest(
    conn: sqlite3.Connection, search: Search, memory_id: int, allowance: int
) -> str | None:
    """The excerpt of memory `memory_id` around the rarest term it holds."""
    row = conn.execute(
        "SELECT substr(CAST(body AS BLOB), 1, ?), length(CAST(body AS BLOB)) > ?"
        " FROM memories WHERE id = ?",
        (SCAN_BYTES, SCAN_BYTES, memory_id),
    ).fetchone()
    if row is None:
        return None
    text = bytes(row[0] or b"").decode("utf-8", "ignore")
    ranked = coverage.rarest_first(search.query.terms, dict(search.weights))
    for term in ranked:
        at = position(text, term)
        if at is None:
            continue
        line = _opening_line(text)
        if line is not None and at < line[0] + len(line[1]) and len(line[1].encode()) <= allowance:
            # The word is in the opening line, a title more often than not.
            return line[1]
        return window(text, at, allowance)
    return _past_opening(conn, ranked, memory_id, allowance) if row[1] else None


def _past_opening(
    conn: sqlite3.Connection, ranked: list[Term], memory_id: int, allowance: int
) -> str | None:
    """The excerpt around the rarest term a long body holds only past its opening."""
    for term in ranked:
        found = body_windows.first_match(
            conn, memory_id, term_pattern(term), SCAN_BYTES - body_windows.OVERLAP
        )
        if found is None:
            continue
        start, text = body_windows.window(conn, memory_id, found, allowance, allowance * 2)
        at = position(text, term)
        if at is None:
            continue
        room = allowance - len(ELLIPSIS.encode())
        piece = window(text, at, room)
        return piece if piece.startswith(ELLIPSIS) or start == 0 else ELLIPSIS + piece
    return None


def _opening_line(text: str) -> tuple[int, str] | None:
    """The first line holding more than blanks, with where it starts."""
    start = 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            return start, line.rstrip("\r\n")
        start += len(line)
    return None
