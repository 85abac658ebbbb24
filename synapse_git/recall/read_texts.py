"""What the searches of one question and its rewordings read of the candidates
(docs/recall.md): each one's opening text, the windows of a longer body that hold a
term past it, their words cut once, and the misspellings found in them. A
long-lived service keeps some of it between recalls (recall/kept_rows.py)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from synapse_git.recall import coverage, query_terms, term_counts, word_forms
from synapse_git.recall.query_terms import Term
from synapse_git.store import body_windows

if TYPE_CHECKING:
    from synapse_git.recall.kept_rows import KeptRows

# The opening of a body (with its source) read for the checks on a candidate's words;
# a longer body is searched past it a window at a time (Shared.widened).
TEXT_BYTES = 16384


@dataclass(eq=False, repr=False)
class Shared:
    """What the searches of one question and its rewordings read once for all: the
    index's term lists, the candidates' texts and words, and their misspellings."""

    read: dict[tuple[str, str], term_counts.Answer] = field(default_factory=dict)
    texts: dict[int, str] = field(default_factory=dict)
    words: dict[int, coverage.Words] = field(default_factory=dict)
    near: coverage.Near = field(default_factory=coverage.Near)
    cut: set[int] = field(default_factory=set)  # texts that are only an opening
    looked: dict[int, set[str]] = field(default_factory=dict)  # terms looked for past it
    # What earlier recalls of a long-lived service read (recall/kept_rows.py).
    kept: KeptRows | None = None

    def texts_of(self, conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, str]:
        unread = [i for i in ids if i not in self.texts]
        if unread and self.kept is not None:
            known, words = self.kept.texts, self.kept.words
            for memory_id in unread:
                if (found := known.get(memory_id)) is not None:
                    self.texts[memory_id] = found[0]
                    if found[1]:
                        self.cut.add(memory_id)
                    elif memory_id in words:
                        # A whole text's words are cut the same for any question.
                        self.words.setdefault(memory_id, words[memory_id])
            unread = [i for i in unread if i not in self.texts]
        if unread:
            read, cut = texts(conn, unread)
            self.texts.update(read)
            self.cut |= cut
            if self.kept is not None:
                self.kept.keep_texts(read, cut)
        return {i: self.texts[i] for i in ids if i in self.texts}

    def keep_words(self) -> None:
        """Leave the words of whole texts cut for this question for the next one."""
        if self.kept is not None:
            self.kept.keep_words({i: w for i, w in self.words.items() if i not in self.cut})

    @property
    def projects(self) -> dict[int, str | None] | None:
        """The projects of memories read by id, kept between recalls, if any are."""
        return self.kept.projects if self.kept is not None else None

    def widened(
        self, conn: sqlite3.Connection, ids: Sequence[int], terms: Sequence[Term]
    ) -> dict[int, str]:
        """The texts of `ids`, each longer body's opening followed by the text
        around the first place past it that holds a term the opening does not: the
        whole body is searched, a window at a time (store/body_windows.py)."""
        for memory_id in ids:
            if memory_id not in self.cut:
                continue
            looked = self.looked.setdefault(memory_id, set())
            for term in terms:
                if term.word in looked:
                    continue
                looked.add(term.word)
                pattern = term_pattern(term)
                text = self.texts[memory_id]
                if pattern.search(text[:TEXT_BYTES].lower()) is not None:
                    continue
                at = body_windows.first_match(conn, memory_id, pattern)
                if at is None:
                    continue
                _, around = body_windows.window(conn, memory_id, at, AROUND, AROUND)
                self.texts[memory_id] = f"{text}\n…\n{around}"
                self.words.pop(memory_id, None)  # its words are cut again
        return {i: self.texts[i] for i in ids if i in self.texts}


AROUND = 400  # bytes read on each side of a match past a body's opening


def term_pattern(term: Term) -> re.Pattern[str]:
    """`term` as coverage holds it: the word or its raw form whole, a word of its
    family (every member starts with the family key less its last letter), a word
    of the same meaning, or (for an identifier) the raw form anywhere."""
    key = word_forms.family(term.word)
    words = [term.word, term.raw.lower(), *term.alike]
    starts = [key[:-1]] if len(key) > 3 else []
    return body_windows.words_pattern(words, starts, [term.raw.lower()] if term.substring else [])


def texts(conn: sqlite3.Connection, ids: Sequence[int]) -> tuple[dict[int, str], set[int]]:
    """The opening TEXT_BYTES of each memory's body and source, for checks that
    would cost more through the index than by reading (common terms, misspellings);
    and the ids whose text goes on past it."""
    marks = ",".join(str(int(i)) for i in ids)
    rows = conn.execute(
        "SELECT id, substr(CAST(body || ' ' || source AS BLOB), 1, ?),"
        " length(CAST(body AS BLOB)) + 1 + length(CAST(source AS BLOB)) > ? FROM memories"
        f" WHERE id IN ({marks})",
        (TEXT_BYTES, TEXT_BYTES),
    )
    texts: dict[int, str] = {}
    cut: set[int] = set()
    for i, chunk, longer in rows:
        texts[int(i)] = bytes(chunk).decode("utf-8", "ignore")
        if longer:
            cut.add(int(i))
    return texts, cut


def near_misses(
    conn: sqlite3.Connection, rescued: Sequence[Term], ids: Sequence[int]
) -> dict[int, set[str]]:
    """Which rescued (misspelled) terms each memory holds within a small edit distance."""
    held: dict[int, set[str]] = {}
    if not rescued or not ids:
        return held
    for memory_id, text in texts(conn, ids)[0].items():
        words = {query_terms.fold(t) for t in query_terms.tokens(text)}
        for term in rescued:
            if any(word_forms.close(term.word, word) for word in words):
                held.setdefault(memory_id, set()).add(term.word)
    return held
