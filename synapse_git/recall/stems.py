"""Porter stems (docs/recall.md, "Stems that meet"): which of a word's other forms
the porter index already finds as the word itself.

SQLite's porter tokenizer stems most derived forms a word is given
(`quasarment`, `quasare`) as it stems the word: searched beside it they find
nothing more, each costs a look-up, and bm25 scores the one word once per
form. A word's stem belongs to the tokenizer, not to any store, so it is asked
once of a table in memory and kept for the life of the process.
"""

from __future__ import annotations

import functools
import sqlite3
import threading
from collections.abc import Sequence

# The porter index's tokenizer, as store/schema.py declares it.
TOKENIZE = "porter unicode61"

_lock = threading.Lock()
_tables: list[sqlite3.Connection] = []


def _table() -> sqlite3.Connection:
    if not _tables:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.execute(f"CREATE VIRTUAL TABLE words USING fts5 (word, tokenize = '{TOKENIZE}')")
        conn.execute("CREATE VIRTUAL TABLE stems USING fts5vocab (words, 'instance')")
        _tables.append(conn)
    return _tables[0]


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> tuple[str, ...]:
    """The tokens the porter index makes of `word`, in order (one for a plain word)."""
    with _lock:
        conn = _table()
        # Written and read inside one transaction that is rolled back: the table
        # stays empty, and no word ever meets another.
        conn.execute("BEGIN")
        try:
            conn.execute("INSERT INTO words (rowid, word) VALUES (1, ?)", (word,))
            rows = conn.execute("SELECT term FROM stems ORDER BY offset").fetchall()
        finally:
            conn.execute("ROLLBACK")
    return tuple(str(row[0]) for row in rows)


def apart(word: str, forms: Sequence[str]) -> list[str]:
    """Those of `forms` the porter index does not take for `word` or for an earlier
    one of them: the forms worth a look-up of their own."""
    seen = {stem(word)}
    out = []
    for form in forms:
        key = stem(form)
        if key not in seen:
            seen.add(key)
            out.append(form)
    return out
