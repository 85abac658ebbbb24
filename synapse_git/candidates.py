"""Conflict candidates for a few memories, found through the porter FTS index
(recall's hits, a new memory), so the store is never loaded or compared pairwise."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter

from synapse_git import conflict_words, memories
from synapse_git.memories import COLUMNS, Memory
from synapse_git.scope import Scope

CANDIDATES = 8  # conflict candidates fetched per memory
FTS_TERMS = 10  # words of a memory looked up to find its candidates
RARE_SHARE = 0.01  # a word in more memories than this does not make candidates
SHORT_PROBES = 48  # memories sharing one word, checked for being short themselves

_WORD = re.compile(r"[^\W\d_][\w-]+")


def _fts_terms(body: str, limit: int = 10) -> list[str]:
    words: list[str] = []
    for word in _WORD.findall(body.lower()):
        if (
            word not in conflict_words.STOP
            and word not in conflict_words.NEGATORS
            and word not in words
        ):
            words.append(word)
    return sorted(words, key=len, reverse=True)[:limit]


def _quote(text: str) -> str:
    """A word as FTS5 data, never syntax."""
    return '"' + text.replace('"', '""') + '"'


class Candidates:
    """Conflict candidates through the porter FTS index, for a few memories at a
    time. Each uncommon word's document list is read once (no ranking, which would
    score every match); a memory sharing enough of them is a candidate."""

    def __init__(self, conn: sqlite3.Connection, scope: Scope) -> None:
        self.conn = conn
        self.scope = scope
        total = int(
            conn.execute("SELECT count(*) FROM memories WHERE state = 'live'").fetchone()[0]
        )
        self.common = max(50, int(total * RARE_SHARE))
        self._lists: dict[str, list[int]] = {}

    def _rows_with(self, term: str) -> list[int]:
        """Ids of live memories holding `term`; empty for a common term."""
        if term not in self._lists:
            ids = [
                int(row[0])
                for row in self.conn.execute(
                    "SELECT rowid FROM memory WHERE memory MATCH ? LIMIT ?",
                    (_quote(term), self.common + 1),
                )
            ]
            self._lists[term] = [] if len(ids) > self.common else ids
        return self._lists[term]

    def of(self, memory: Memory) -> list[Memory]:
        """Visible live memories sharing enough uncommon words with `memory`, those
        sharing most (then the newest) first."""
        terms = _fts_terms(memory.body, FTS_TERMS)
        shared: Counter[int] = Counter()
        for term in terms:
            shared.update(self._rows_with(term))
        shared.pop(memory.id, None)
        # One word substituted leaves the rest shared, and two shared words are
        # enough; a single shared word suffices only when either memory is that short.
        needed = max(1, min(2, len(terms) - 1))
        ranked = sorted(((n, other) for other, n in shared.items()), reverse=True)
        chosen = [other for n, other in ranked if n >= needed][:CANDIDATES]
        if len(chosen) < CANDIDATES:
            chosen += self._short([other for n, other in ranked if n < needed][:SHORT_PROBES])
        return self._rows(chosen[:CANDIDATES])

    def _short(self, ids: list[int]) -> list[int]:
        """Of `ids`, those whose own body has at most two looked-up words."""
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = self.conn.execute(f"SELECT id, body FROM memories WHERE id IN ({marks})", ids)
        short = {int(i) for i, body in rows if len(_fts_terms(str(body), FTS_TERMS)) <= 2}
        return [other for other in ids if other in short]

    def _rows(self, ids: list[int]) -> list[Memory]:
        if not ids:
            return []
        where, scoped = memories.visible(self.scope.projects)
        marks = ", ".join("?" for _ in ids)
        params: list[object] = [*ids, *scoped]
        found = {
            int(row[0]): Memory(*row)
            for row in self.conn.execute(
                f"SELECT {COLUMNS} FROM memories WHERE id IN ({marks}) AND state = 'live'"
                f" AND {where}",
                params,
            )
        }
        return [found[other] for other in ids if other in found]
