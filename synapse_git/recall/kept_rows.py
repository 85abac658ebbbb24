"""What recall keeps of the memories it read, from one call to the next of a
long-lived service (the MCP server), while the store is unchanged: each
memory's text as ranking reads it, the project that decides who sees it, and
the facts an answer is built from. A question's hits and candidates come back
in the next question's; reading them again costs more than ranking them.

Everything here is a function of a memory's row, so it is kept only while no
change is committed to the store (store/reader.py), and within a bound.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from synapse_git.store.reader import KeptWhileUnchanged

if TYPE_CHECKING:
    from synapse_git.recall.coverage import Words
    from synapse_git.recall.response import Meta
    from synapse_git.recall.term_counts import Answer

KEPT_CHARS = 8_000_000  # characters of text kept, at most (about 8 MB)
KEPT_ROWS = 50_000  # memories whose project or facts are kept, at most


class KeptRows(KeptWhileUnchanged):
    """Rows read by id, kept between recalls through the kept read connection."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[int, tuple[str, bool]] = {}  # text, and whether it goes on past it
        self.projects: dict[int, str | None] = {}
        self.metas: dict[int, Meta] = {}
        self.bodies: dict[int, str] = {}  # whole bodies short enough to answer with
        self.words: dict[int, Words] = {}  # the words of whole texts (coverage.Words)
        # How many memories hold a string, per index (term_counts.TermCounts).
        self.counts: dict[tuple[str, str], Answer] = {}
        self.chars = 0

    def forget(self) -> None:
        self.texts, self.projects, self.metas, self.bodies = {}, {}, {}, {}
        self.words, self.counts, self.chars = {}, {}, 0

    def follow(self, conn: sqlite3.Connection) -> None:
        super().follow(conn)
        # A long session over many memories: start again, bounded.
        rows = max(len(self.projects), len(self.metas), len(self.counts))
        if self.chars > KEPT_CHARS or rows > KEPT_ROWS:
            self.forget()

    def keep_texts(self, texts: dict[int, str], cut: set[int]) -> None:
        for memory_id, text in texts.items():
            self.texts[memory_id] = (text, memory_id in cut)
            self.chars += len(text)

    def keep_words(self, found: dict[int, Words]) -> None:
        for memory_id, words in found.items():
            if memory_id not in self.words:
                self.words[memory_id] = words
                # Its text lower-cased and folded, and its words once cut.
                self.chars += 2 * len(words.text)

    def keep_body(self, memory_id: int, body: str) -> None:
        self.bodies[memory_id] = body
        self.chars += len(body)
