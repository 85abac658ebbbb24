"""One FTS5 index asked within bounded work: how common each string is (counted by
recall/term_counts.py), which strings to ask for, and the ranked ids that come back
(recall/ranking.py fuses them).

Work is bounded whatever the store's size: a term found in COMMON_AT or more
memories is dropped when rarer terms exist, and a query made only of such
terms is ranked within its newest WINDOW matches (FTS5 walks rowids newest
first without sorting, and `bm25()` is computed only for the rows it
returns), so a word in every memory costs the same at a thousand memories as
at a million.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from synapse_git.recall import trigram_tally
from synapse_git.recall.term_counts import COMMON_AT, TermCounts
from synapse_git.store import fts, substrings
from synapse_git.store.memories import in_scope_sql

# The matches bm25 may score for one plan of single trigrams, all of them together
# (the misspelling rescue tallies them, recall/trigram_tally.py, within the same budget, one of
# them alone too: `rescue_plan`): a misspelled word's rarest trigrams already single
# out the words near it, and scoring its commoner ones cost the most of a recall in
# a large store.
SCORED_AT_MOST = 2000
# The matches bm25 may score for one plan of words: the rarest are asked until
# together they hold this many (the rest still count in each candidate's coverage).
# Each word is under COMMON_AT alone, but six of them in a large store are tens of
# thousands of rows to score, where a store a tenth the size has a tenth of them.
WORDS_SCORED_AT_MOST = 2000
WINDOW = 500
GRAM_SCORED = 50


# eq=False, repr=False, not frozen: nothing compares, prints or changes these, and each
# generated method (a frozen class has two more) is compiled when the module loads,
# which every recall pays for.
@dataclass(eq=False, repr=False)
class Plan:
    """What one index is asked: an FTS5 expression, and how its matches are ranked."""

    expr: str | None
    windowed: bool
    items: tuple[str, ...] = ()
    # The matches of a trigram plan too many to score (GRAM_SCORED), newest first.
    newest: tuple[int, ...] | None = None
    # Every match of a trigram plan of rare substrings, and how many rows hold each
    # item: they are ranked on their text (store/substrings.py), as the index keeps
    # no positions to score a phrase with.
    matched: tuple[int, ...] | None = None
    hits: tuple[int, ...] = ()
    # A misspelling rescue's trigrams, ranked by the share of them a row holds
    # (recall/trigram_tally.py), not by bm25.
    tallied: bool = False


def _within_budget(
    counts: TermCounts,
    index: str,
    rare: list[str],
    notes: list[str],
    most: int,
    first: frozenset[str] = frozenset(),
    terms: Sequence[Sequence[str]] = (),
) -> list[str]:
    """The rare items whose matches together stay within `most` (at least one): those
    in `first` (the question's own words and their forms) before the others, rarest
    first. Each is under COMMON_AT alone, but bm25 over a dozen of them in a large
    store scores most of it: tens of milliseconds at 100,000. A word's rarer
    synonym (`asynchronous` for `background`) would otherwise take the budget, and
    the note holding the question's own words would never be ranked.

    `terms` holds each question word's items (the word, then its forms): a word is
    as rare as its items together, and its items are asked one after the other, so
    the budget goes to whole words, not to one word's rarest form before another
    word (`work` for `workers`, before `gunicorn`)."""
    found = set(rare)
    total_of: dict[str, tuple[int, int]] = {}
    for n, items in enumerate(terms):
        held = [item for item in items if item in found]
        together = sum(counts(index, item) for item in held)
        for item in held:
            total_of[item] = min(total_of.get(item, (together, n)), (together, n))

    def order(item: str) -> tuple[bool, tuple[int, int], int, str]:
        alone = (counts(index, item), len(terms))
        return (item not in first, total_of.get(item, alone), counts(index, item), item)

    kept: set[str] = set()
    total = 0
    for item in sorted(rare, key=order):
        total += counts(index, item)
        if kept and total > most:
            break
        kept.add(item)
    if len(kept) == len(rare):
        return rare
    left = [item for item in rare if item not in kept]
    notes.append(f"{index}: {', '.join(left)} left out ({most}+ matches to score)")
    return [item for item in rare if item in kept]


def plan_for(
    counts: TermCounts,
    index: str,
    items: Iterable[str],
    notes: list[str],
    *,
    first: Iterable[str] = (),
    terms: Sequence[Sequence[str]] = (),
) -> Plan:
    found = [item for item in dict.fromkeys(items) if counts(index, item)]
    if not found:
        return Plan(None, False)
    rare = [item for item in found if counts.rare(index, item)]
    common = [item for item in found if item not in rare]
    if rare and common:
        notes.append(f"{index}: {', '.join(common)} left out (in {COMMON_AT}+ memories)")
    elif common:
        notes.append(f"{index}: ranked within the newest {WINDOW} memories (common terms only)")
    if index != "memorygram":
        if rare:
            rare = _within_budget(
                counts,
                index,
                rare,
                notes,
                WORDS_SCORED_AT_MOST,
                frozenset(first),
                terms,
            )
        return Plan(fts.any_of(rare or found), not rare, tuple(rare or found))
    if rare and all(fts.exact(item) for item in rare):
        # Single trigrams (substrings of three letters; a misspelled word's are
        # planned by rescue_plan): bm25 scores every row holding any of them, so
        # only the rarest are asked, within a budget.
        rare = _within_budget(counts, index, rare, notes, SCORED_AT_MOST)
    expr = fts.holding_any(rare or found)
    if not rare or all(fts.exact(item) for item in rare):
        return Plan(expr, not rare, tuple(rare or found))
    # The counting pass has read every match of a rare substring already.
    ids = {i for item in rare for i in counts.matches(index, item)}
    if len(ids) > GRAM_SCORED:
        # Scoring them would cost per match. Past GRAM_SCORED they are ranked newest
        # first, as a common substring is, and the porter ranking carries the
        # relevance: the work is bounded whatever the store.
        return Plan(expr, False, tuple(rare), tuple(sorted(ids, reverse=True)))
    hits = tuple(counts(index, item) for item in rare)
    return Plan(expr, False, tuple(rare), matched=tuple(sorted(ids)), hits=hits)


def rescue_plan(counts: TermCounts, grams: Iterable[str], notes: list[str]) -> Plan:
    """The misspelling rescue's plan: a misspelled word's single trigrams, a row's
    share of them its similarity (recall/trigram_tally.py, weighed as bm25 weighs them). Every
    row holding any of them is tallied, so only the
    rarest are asked, together within SCORED_AT_MOST matches; a trigram past it
    alone is left out too, and when every one is, they are ranked within their
    newest matches as a common word is. Each is counted no further than the
    budget: past it, a count decides nothing."""
    found = {gram: counts.at_most(gram, SCORED_AT_MOST) for gram in dict.fromkeys(grams)}
    found = {gram: count for gram, count in found.items() if count}
    if not found:
        return Plan(None, False)
    kept: set[str] = set()
    total = 0
    for gram in sorted(found, key=lambda each: (found[each], each)):
        total += found[gram]
        if total > SCORED_AT_MOST:
            break
        kept.add(gram)
    left = [gram for gram in found if gram not in kept]
    if left:
        notes.append(f"memorygram: {', '.join(left)} left out ({SCORED_AT_MOST}+ matches to score)")
    if not kept:
        notes.append(f"memorygram: ranked within the newest {WINDOW} memories (common terms only)")
        return Plan(fts.holding_any(found), True, tuple(found))
    asked = tuple(gram for gram in found if gram in kept)
    return Plan(
        fts.holding_any(asked), False, asked, hits=tuple(found[g] for g in asked), tallied=True
    )


def rank(
    conn: sqlite3.Connection,
    index: str,
    plan: Plan,
    projects: Sequence[str],
    depth: int,
    known: dict[int, str | None] | None = None,
) -> list[int]:
    """Visible ids matching `plan.expr` in `index`, best bm25 first (source weighs 0.3).
    A windowed plan scores only matches among the newest WINDOW rowids (widened
    while it finds too few), read in ascending order so FTS5 seeks and stops.
    `known` holds memories' projects read before (`_visible`)."""
    if plan.expr is None:
        return []
    if plan.newest is not None:
        return _newest_visible(conn, plan.newest, projects, depth, known)
    if plan.tallied:
        return trigram_tally.ranked(conn, plan.items, plan.hits, projects, depth)
    if plan.matched is not None:
        ordered = substrings.ranked(conn, plan.matched, plan.items, plan.hits)
        seen = _visible(conn, ordered, projects, known)
        return [i for i in ordered if i in seen][:depth]
    where, params = in_scope_sql(projects, "m.")
    sql = (
        f"SELECT {index}.rowid, bm25({index}, 1.0, 0.3) FROM {index}"
        f" JOIN memories m ON m.id = {index}.rowid WHERE {index} MATCH ? AND {where}"
    )
    if not plan.windowed:
        found = _best_visible(conn, index, plan.expr, projects, depth, known)
        if found is not None:
            return found
        ranked = conn.execute(f"{sql} ORDER BY 2, 1 DESC LIMIT {depth}", (plan.expr, *params))
        return [int(row[0]) for row in ranked]
    top = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    span = WINDOW
    while True:
        low = max(0, top - span)
        if index == "memorygram":
            # A common substring is ranked by recency alone (bm25 over its matches
            # would cost per row); the porter ranking carries the relevance.
            held = substrings.holding(
                conn, plan.items, f"{where} AND memorygram.rowid > ?", (*params, low)
            )
            rows = [(i, -i) for i in itertools.islice(held, WINDOW * 4)]
        else:
            rows = conn.execute(
                f"{sql} AND {index}.rowid > ? LIMIT {WINDOW * 4}", (plan.expr, *params, low)
            ).fetchall()
        if len(rows) >= depth or low == 0 or span >= WINDOW * 64:
            break
        span *= 4
    # By score, the newest first among equals: sorted newest first, then (stably) by
    # score, with no Python function called a row (a common word brings thousands).
    rows.sort(key=itemgetter(0), reverse=True)
    rows.sort(key=itemgetter(1))
    return [int(row[0]) for row in rows[:depth]]


def _best_visible(
    conn: sqlite3.Connection,
    index: str,
    expr: str,
    projects: Sequence[str],
    depth: int,
    known: dict[int, str | None] | None = None,
) -> list[int] | None:
    """The best `depth` visible matches, ranked in the index alone and checked for
    visibility after: bm25 needs nothing from `memories`, and reading each match's
    row there cost more than scoring it. None when fewer than `depth` of the best
    2 * `depth` are visible (the caller then ranks the visible matches only)."""
    rows = conn.execute(
        f"SELECT rowid FROM {index} WHERE {index} MATCH ?"
        f" ORDER BY bm25({index}, 1.0, 0.3), rowid DESC LIMIT {depth * 2}",
        (expr,),
    )
    ids = [int(row[0]) for row in rows]
    seen = _visible(conn, ids, projects, known)
    found = [i for i in ids if i in seen]
    # Either every match was read, or the first `depth` visible ones are among them.
    return found[:depth] if len(found) >= depth or len(ids) < depth * 2 else None


def _visible(
    conn: sqlite3.Connection,
    ids: Sequence[int],
    projects: Sequence[str],
    known: dict[int, str | None] | None = None,
) -> set[int]:
    """Those of `ids` visible from `projects`, read by id; `known` holds the projects
    of memories read before, and takes those read now."""
    if not ids:
        return set()
    found: dict[int, str | None] = known if known is not None else {}
    unread = [i for i in ids if i not in found]
    if unread:
        marks = ",".join(str(int(i)) for i in unread)
        rows = conn.execute(f"SELECT id, project FROM memories WHERE id IN ({marks})")
        found.update((int(i), project) for i, project in rows)
    return {i for i in ids if i in found and ((project := found[i]) is None or project in projects)}


def _newest_visible(
    conn: sqlite3.Connection,
    ids: Sequence[int],
    projects: Sequence[str],
    depth: int,
    known: dict[int, str | None] | None = None,
) -> list[int]:
    """The first `depth` of `ids` (newest first) visible from `projects`, read by id a
    batch at a time. Visibility is checked here: a scope condition in the query
    could lead the planner to walk the scope's index instead of the ids."""
    found: list[int] = []
    batch = depth * 2
    for start in range(0, len(ids), batch):
        found += sorted(_visible(conn, ids[start : start + batch], projects, known), reverse=True)
        if len(found) >= depth:
            break
    return found[:depth]


def every(
    conn: sqlite3.Connection, index: str, items: Sequence[str], projects: Sequence[str]
) -> set[int]:
    """Every visible match of any of `items`."""
    if not items:
        return set()
    where, params = in_scope_sql(projects, "m.")
    if index == "memorygram":
        return set(substrings.holding(conn, items, where, params))
    rows = conn.execute(
        f"SELECT {index}.rowid FROM {index} JOIN memories m ON m.id = {index}.rowid"
        f" WHERE {index} MATCH ? AND {where}",
        (fts.any_of(list(items)), *params),
    )
    return {int(row[0]) for row in rows}
