"""How many memories hold a string in one FTS5 index, read no further than a term
in a large share of the store needs (recall/index_ranking.py plans from these
counts): a question and its rewordings share what the index answered, and a
long-lived service keeps the counts that carry no list of rows.
"""

from __future__ import annotations

import itertools
import sqlite3

from synapse_git.store import fts, substrings

COMMON_AT = 5000


# What the index answers for one string: how many memories hold it (at most
# COMMON_AT), and for a rare substring which ones (None: counted, not yet read).
Answer = tuple[int, list[int] | None]


# The key of `TermCounts.kept` under which a single trigram's count read no further
# than a budget is kept: more than that many memories hold it.
OVER = "memorygram past a budget"


class TermCounts:
    """How many memories hold one FTS5 string, read no further than COMMON_AT
    (the cheap test for a term in a large share of the store), per index; a
    rare substring's matches are kept, as they tell which candidates hold it."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        read: dict[tuple[str, str], Answer] | None = None,
        kept: dict[tuple[str, str], Answer] | None = None,
    ) -> None:
        self.conn = conn
        self.found: dict[tuple[str, str], Answer] = {}
        # What the index answered, which a question and its rewordings share; `found`
        # also holds what this search only takes as common (`common`).
        self.read = read if read is not None else {}
        # Counts earlier recalls of a long-lived service read (recall/kept_rows.py),
        # this search's own besides: only those that carry no list of rows, which
        # are few bytes each, and single trigrams counted past a budget (OVER).
        self.kept = kept if kept is not None else {}

    def _read(self, index: str, item: str) -> Answer:
        key = (index, item)
        if key not in self.found:
            if key not in self.read:
                answer = self.kept.get(key)
                if answer is None:
                    answer = self._ask(index, item)
                    if not answer[1]:
                        self.kept[key] = (answer[0], None if answer[1] is None else [])
                self.read[key] = answer
            self.found[key] = self.read[key]
        return self.found[key]

    def _ask(self, index: str, item: str) -> Answer:
        # One pass serves both ends: COMMON_AT rows read means common.
        sql = f"SELECT rowid FROM {index} WHERE {index} MATCH ? LIMIT {COMMON_AT}"
        if index != "memorygram":
            # Only the trigram plan uses the ids (GRAM_SCORED): counted in SQLite, a
            # word's matches cost a third of what handing each row to Python does.
            row = self.conn.execute(f"SELECT count(*) FROM ({sql})", (fts.quote(item),))
            return int(row.fetchone()[0]), []
        if fts.exact(item):
            # One trigram: the index alone answers it, so it is counted in SQLite
            # too, and its rows are read only if a plan asks for them (`matches`):
            # most such strings are a misspelling's trigrams, only ever counted.
            row = self.conn.execute(f"SELECT count(*) FROM ({sql})", (fts.holding_any([item]),))
            return int(row.fetchone()[0]), None
        found = _substring_rows(self.conn, item, COMMON_AT)
        return len(found), found if len(found) < COMMON_AT else []

    def common(self, index: str, item: str) -> None:
        """Take `item` as common in `index` without testing it."""
        self.found[(index, item)] = (COMMON_AT, [])

    def matches(self, index: str, item: str) -> list[int]:
        """Every memory holding a rare substring `item` (nothing for a common one)."""
        count, found = self._read(index, item)
        if found is None:
            found = _substring_rows(self.conn, item, COMMON_AT) if count < COMMON_AT else []
            self.read[(index, item)] = self.found[(index, item)] = (count, found)
        return found

    def __call__(self, index: str, item: str) -> int:
        return self._read(index, item)[0]

    def at_most(self, item: str, most: int) -> int:
        """How many memories hold the single trigram `item`, read no further than
        `most` + 1 rows: more than `most` reads as `most` + 1. A budget decides the
        same for any count past it, and a misspelled word's trigrams are in more
        memories the larger the store (up to COMMON_AT rows each to count)."""
        key = ("memorygram", item)
        known = self.found.get(key) or self.read.get(key) or self.kept.get(key)
        if known is not None:
            return min(known[0], most + 1)
        # Counted past a budget by this search or, in a long-lived service, an earlier
        # recall: the trigrams of misspelled words recur from one question to the next.
        past = self.kept.get((OVER, item))
        if past is not None and past[0] > most:
            return most + 1
        sql = "SELECT count(*) FROM (SELECT rowid FROM memorygram WHERE memorygram MATCH ? LIMIT ?)"
        count = int(self.conn.execute(sql, (fts.holding_any([item]), most + 1)).fetchone()[0])
        if count > most:
            self.kept[(OVER, item)] = (count, None)
        else:
            # Fewer rows than the limit: the count is exact, for any plan to use.
            self.read[key] = self.found[key] = self.kept[key] = (count, None)
        return count

    def rare(self, index: str, item: str) -> bool:
        return 0 < self(index, item) < COMMON_AT


def _substring_rows(conn: sqlite3.Connection, item: str, limit: int) -> list[int]:
    """The first `limit` rows holding `item` as a substring, oldest first."""
    return list(itertools.islice(substrings.holding(conn, [item]), limit))
