"""Porter stems (docs/recall.md, "Stems that meet"): which of a word's other forms
the porter index already finds as the word itself.

SQLite's porter tokenizer stems most derived forms a word is given
(`quasarment`, `quasare`) as it stems the word: searched beside it they find
nothing more, each costs a look-up, and bm25 scores the one word once per
form. A word's stem belongs to the tokenizer, not to any store, so it is asked
once of a table in memory and kept for the life of the process.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

# The porter index's tokenizer, as store/schema.py declares it.
TOKENIZE = "porter unicode61"

# Stems kept at most; past it they are forgotten and asked again.
KEEP = 65536

_lock = threading.Lock()
_tables: list[sqlite3.Connection] = []
_known: dict[str, tuple[str, ...]] = {}


def _table() -> sqlite3.Connection:
    if not _tables:
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        conn.execute(f"CREATE VIRTUAL TABLE words USING fts5 (word, tokenize = '{TOKENIZE}')")
        conn.execute("CREATE VIRTUAL TABLE stems USING fts5vocab (words, 'instance')")
        _tables.append(conn)
    return _tables[0]


def stems(words: Sequence[str]) -> list[tuple[str, ...]]:
    """The tokens the porter index makes of each of `words`, in order (one for a
    plain word); the words not asked before are asked together."""
    with _lock:
        missing = list(dict.fromkeys(word for word in words if word not in _known))
        if missing:
            if len(_known) + len(missing) > KEEP:
                _known.clear()
                missing = list(dict.fromkeys(words))
            _known.update(_ask(missing))
        return [_known[word] for word in words]


def stem(word: str) -> tuple[str, ...]:
    return stems([word])[0]


def _ask(words: Sequence[str]) -> dict[str, tuple[str, ...]]:
    conn = _table()
    found: dict[int, list[str]] = {n: [] for n in range(1, len(words) + 1)}
    # Written and read inside one transaction that is rolled back: the table
    # stays empty, and no call sees another's words.
    conn.execute("BEGIN")
    try:
        conn.executemany("INSERT INTO words (rowid, word) VALUES (?, ?)", enumerate(words, start=1))
        for doc, term in conn.execute("SELECT doc, term FROM stems ORDER BY doc, offset"):
            found[int(doc)].append(str(term))
    finally:
        conn.execute("ROLLBACK")
    return {word: tuple(found[n]) for n, word in enumerate(words, start=1)}


def apart(word: str, forms: Sequence[str]) -> list[str]:
    """Those of `forms` the porter index does not take for `word` or for an earlier
    one of them: the forms worth a look-up of their own."""
    return distinct([word, *forms])[1:]


def distinct(words: Sequence[str]) -> list[str]:
    """Those of `words` the porter index does not take for an earlier one: a word's
    synonyms `schedule`, `scheduler` and `scheduled` are one token there, and
    searched side by side they would make bm25 score a note holding it three times
    over a note holding two of the question's words once each."""
    seen: set[tuple[str, ...]] = set()
    out = []
    for word, key in zip(words, stems(words), strict=True):
        if key not in seen:
            seen.add(key)
            out.append(word)
    return out
