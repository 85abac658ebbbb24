"""Substrings confirmed on the text, as the trigram index would have matched them
(docs/store.md#the-trigram-index).

The trigram index keeps no positions (`detail=none`), so it can only say which
rows hold every trigram of a substring, in any order (store/fts.holding_any).
Here those candidates are confirmed on their text, folded the way the trigram
tokenizer folds it, and a substring's bm25 is computed the way FTS5 computes it
for a phrase: the rows, their order and their scores are what the index with
positions gave.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing

from synapse_git.store import fts

# Column weights of the trigram ranking: (body, source), as index_ranking asks bm25.
WEIGHTS = (1.0, 0.3)
_K1 = 1.2
_B = 0.75

# The tokenizer's case folding of each character seen so far: ASCII as Python
# folds it, any other character as SQLite itself says (its tables differ from
# Python's in several hundred characters).
_FOLDED: dict[int, str] = {code: chr(code).lower() for code in range(128)}
_LOCK = threading.Lock()


def _learn(chars: set[str]) -> None:
    ordered = sorted(chars)
    with _LOCK, closing(sqlite3.connect(":memory:")) as probe:
        probe.execute("CREATE VIRTUAL TABLE t USING fts5 (c, tokenize = 'trigram')")
        probe.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
        rows = ((n, ch * 3) for n, ch in enumerate(ordered, 1))
        probe.executemany("INSERT INTO t (rowid, c) VALUES (?, ?)", rows)
        for term, doc in probe.execute("SELECT term, doc FROM v"):
            _FOLDED[ord(ordered[int(doc) - 1])] = str(term)[0]
        for ch in ordered:
            _FOLDED.setdefault(ord(ch), ch)


def fold(text: str) -> str:
    """`text` with each character folded as the trigram tokenizer folds it."""
    return folded([text])[0]


def folded(texts: Sequence[str]) -> list[str]:
    """Each of `texts` folded, the characters not seen before asked of SQLite at once."""
    unknown = {ch for text in texts if not text.isascii() for ch in text if ord(ch) not in _FOLDED}
    if unknown:
        _learn(unknown)
    return [text.lower() if text.isascii() else text.translate(_FOLDED) for text in texts]


def occurrences(folded_text: str, folded_item: str) -> int:
    """How many times `folded_item` starts in `folded_text`, overlaps counted (the
    instances of a phrase)."""
    count, at = 0, folded_text.find(folded_item)
    while at >= 0:
        count += 1
        at = folded_text.find(folded_item, at + 1)
    return count


# A row whose text is all ASCII: as many characters as bytes.
_PLAIN = (
    "length(m.body) = length(CAST(m.body AS BLOB))"
    " AND length(m.source) = length(CAST(m.source AS BLOB))"
)


def _like(item: str) -> str:
    """A LIKE pattern for text holding `item` anywhere."""
    escaped = item.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def holding(
    conn: sqlite3.Connection,
    items: Sequence[str],
    condition: str = "1",
    params: Sequence[object] = (),
) -> Iterator[int]:
    """The rows whose body or source holds one of `items` as a substring, oldest
    first, among the memories `m` meeting `condition`: the trigram index's
    candidates, confirmed in the same statement where SQL can, else here."""
    sql = (
        "SELECT memorygram.rowid, {} FROM memorygram JOIN memories m"
        f" ON m.id = memorygram.rowid WHERE memorygram MATCH ? AND {condition}"
    )
    args = [fts.holding_any(items), *params]
    if all(fts.exact(item) for item in items):
        yield from (int(row[0]) for row in conn.execute(sql.format("1"), args))
        return
    wanted = folded(list(items))
    if all(item.isascii() for item in items):
        # LIKE ignores the case of ASCII letters only, as the tokenizer folds them: a
        # row it matches holds the item (1). A row with other characters, which may
        # fold into ASCII ones, is confirmed on its folded text (0); an all-ASCII row
        # LIKE does not match is no match (NULL), and its text is never handed over.
        # The source, short, is tried first.
        like = r"m.source LIKE ? ESCAPE '\' OR m.body LIKE ? ESCAPE '\'"
        likes = " OR ".join(like for _ in items)
        verdict = f"CASE WHEN {likes} THEN 1 WHEN {_PLAIN} THEN NULL ELSE 0 END"
        patterns = [_like(item) for item in items for _ in (0, 1)]
        for memory_id, held in conn.execute(sql.format(verdict), [*patterns, *args]):
            if held or (held is not None and _holds(conn, int(memory_id), wanted)):
                yield int(memory_id)
        return
    for memory_id, body, source in conn.execute(sql.format("m.body, m.source"), args):
        body, source = folded([body, source])
        if any(item in body or item in source for item in wanted):
            yield int(memory_id)


def _holds(conn: sqlite3.Connection, memory_id: int, wanted: list[str]) -> bool:
    row = conn.execute("SELECT body, source FROM memories WHERE id = ?", (memory_id,)).fetchone()
    body, source = folded([row[0], row[1]])
    return any(item in body or item in source for item in wanted)


def _varints(blob: bytes) -> list[int]:
    """SQLite's variable-length integers, as FTS5 writes them."""
    out: list[int] = []
    at = 0
    while at < len(blob):
        value = 0
        for step in range(9):
            byte = blob[at]
            at += 1
            if step == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        out.append(value)
    return out


def _totals(conn: sqlite3.Connection) -> tuple[int, int]:
    """Rows in the trigram index and their tokens in all columns: FTS5's
    averages record (row 1 of its data table), which its bm25 reads too."""
    row = conn.execute("SELECT block FROM memorygram_data WHERE id = 1").fetchone()
    values = _varints(bytes(row[0])) if row and row[0] else []
    return (values[0], sum(values[1:])) if values else (0, 0)


def _tokens(text: str) -> int:
    # The trigram tokenizer makes one token at every character but the last two.
    return max(0, len(text) - 2)


def ranked(
    conn: sqlite3.Connection, ids: Iterable[int], items: Sequence[str], hits: Sequence[int]
) -> list[int]:
    """`ids` (each holding one of `items`, found in `hits` rows of the index each)
    ordered as `bm25(memorygram, 1.0, 0.3)` over the phrases `items` orders them,
    best first, the newest first among equals: FTS5's formula, step for step, so
    the scores are the very numbers it computed."""
    total, tokens = _totals(conn)
    if not total:
        return []
    average = tokens / total
    idf = []
    for found in hits:
        value = math.log((total - found + 0.5) / (found + 0.5))
        idf.append(value if value > 0.0 else 1e-6)
    wanted = folded(list(items))
    marks = ",".join(str(int(i)) for i in ids)
    rows = conn.execute(f"SELECT id, body, source FROM memories WHERE id IN ({marks})").fetchall()
    texts = folded([text for _, body, source in rows for text in (body, source)])
    scored = []
    for (memory_id, body, source), columns in zip(
        rows, zip(texts[::2], texts[1::2], strict=True), strict=True
    ):
        size = float(_tokens(body) + _tokens(source))
        score = 0.0
        for weight_idf, item in zip(idf, wanted, strict=True):
            # Instances in column order, each adding its column's weight, as bm25 sums them.
            freq = 0.0
            for text, weight in zip(columns, WEIGHTS, strict=True):
                for _ in range(occurrences(text, item)):
                    freq += weight
            score += weight_idf * (
                (freq * (_K1 + 1.0)) / (freq + _K1 * (1 - _B + _B * size / average))
            )
        scored.append((-1.0 * score, -int(memory_id), int(memory_id)))
    scored.sort()
    return [memory_id for _, _, memory_id in scored]
