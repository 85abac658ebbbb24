"""Recall (docs/recall.md, steps 1-4): two rankings of the query, fused, then the relevance floor.

Both FTS5 indexes hold only live memories; each ranking joins `memories` on
rowid for the folder's scope. Each index is asked within bounded work
(recall/index_ranking.py); this module fuses the two rankings, weighs each
candidate's coverage of the question and cuts below the floor.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace

from synapse_git.recall import (
    coverage,
    index_ranking,
    prefixes,
    proximity,
    query_terms,
    question_point,
    read_texts,
    relevance_floor,
    stems,
    subject,
    vocabulary,
    word_forms,
)
from synapse_git.recall.fusion import fuse
from synapse_git.recall.query_terms import Query, Term
from synapse_git.recall.records import filled
from synapse_git.recall.term_counts import COMMON_AT, TermCounts
from synapse_git.store.memories import COLUMNS, Memory

# Reciprocal rank fusion's k for the rankings of one question (the usual 60): a
# candidate's place in one ranking moves it only a little against the other's.
K = 60
DEPTH = 50


# Frozen for fusion.Blended, a frozen subclass; neither compared nor printed (see Search).
@dataclass(frozen=True, eq=False, repr=False)
class Candidate:
    """One memory either ranking found, with why it was kept or cut."""

    id: int
    porter: int | None
    trigram: int | None
    score: float
    held: tuple[str, ...]
    verdict: str = "kept"
    share: float = 1.0  # coverage of the question (recall/coverage.py)
    about: float = 0.0  # the question held in its opening words (recall/subject.py)
    vouched: bool = False  # the best candidate, an answer below WEAK_SHARE (vouch)
    # What weakness is judged on, when not `share`: with rewordings, the question's
    # own share or the rewordings' agreement (recall/rewordings.py).
    evidence: float | None = None
    agreed: bool = False  # the rewordings agree on it (recall/rewordings.py)
    # An answer by that agreement alone: the question's own share of it is weak.
    reworded_only: bool = False
    # Holds the question's words but no answer of the shape it asks for
    # (recall/question_point.py): "how long ..." answered by no duration.
    offpoint: bool = False
    # Near the best in score and holding no word another candidate does not
    # (recall/alike.py): a neighbour of the question, not its answer.
    alike: bool = False
    # The terms of `held` it holds as written, another form or a misspelling: not
    # only by a word of the same meaning, which many notes share (recall/alike.py).
    literal: tuple[str, ...] = ()

    @property
    def weak(self) -> bool:
        """Holds too small a share of the question to count as an answer, or misses
        its point."""
        judged = self.share if self.evidence is None else self.evidence
        return (judged < coverage.WEAK_SHARE and not self.vouched) or self.offpoint or self.alike

    @property
    def why_weak(self) -> str:
        """Why `--explain` calls it weak evidence, in its words."""
        judged = self.share if self.evidence is None else self.evidence
        if self.alike and (judged >= coverage.WEAK_SHARE or self.vouched):
            return "alike: near the best in score, holding no word other candidates lack"
        if judged >= coverage.WEAK_SHARE:
            return "weak by its words"
        return f"covers {judged:.2f} of the question < {coverage.WEAK_SHARE:.2f}"

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "porter": self.porter,
            "trigram": self.trigram,
            "score": round(self.score, 6),
            "held": list(self.held),
            "coverage": round(self.share, 4),
            "weak": self.weak,
            "verdict": self.verdict,
            **({"offpoint": True} if self.offpoint else {}),
            **({"alike": True} if self.alike else {}),
            **(
                {}
                if self.evidence is None
                else {"evidence": round(self.evidence, 4), "agreed": self.agreed}
            ),
        }


# eq=False, repr=False, not frozen: nothing compares, prints or changes these, and each
# generated method (a frozen class has two more) is compiled when the module loads,
# which every recall pays for.
@dataclass(eq=False, repr=False)
class Search:
    """The fused, floored candidates of one query (before limit and budget)."""

    query: Query
    searched: int
    candidates: tuple[Candidate, ...]
    porter_expr: str | None
    trigram_expr: str | None
    notes: tuple[str, ...]
    beyond: int = 0  # matches never ranked (older memories of an empty query)
    weights: tuple[tuple[str, float], ...] = ()  # each term's rarity (coverage.rarity)


def _groups(projects: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """One indexed condition per visible group (global, then each project): an OR
    of them would keep SQLite from walking the (project, state, id) index."""
    return [("project IS NULL", ()), *(("project = ?", (p,)) for p in projects)]


def searched(conn: sqlite3.Connection, projects: Sequence[str]) -> int:
    """How many live memories the scope can see (kept in `tallies` by triggers)."""
    keys = ["", *projects]
    marks = ",".join("?" for _ in keys)
    row = conn.execute(
        f"SELECT coalesce(sum(live), 0) FROM tallies WHERE project IN ({marks})", keys
    ).fetchone()
    return int(row[0])


def newest(conn: sqlite3.Connection, projects: Sequence[str], limit: int) -> list[int]:
    """Ids of the most recently stored visible live memories (an empty query)."""
    found: list[int] = []
    for cond, params in _groups(projects):
        rows = conn.execute(
            f"SELECT id FROM memories WHERE {cond} AND state = 'live' ORDER BY id DESC LIMIT ?",
            (*params, limit),
        )
        found += [int(row[0]) for row in rows]
    return sorted(found, reverse=True)[:limit]


def recent(conn: sqlite3.Connection, query: Query, projects: Sequence[str], count: int) -> Search:
    """An empty query: the newest visible memories, newest first."""
    total = searched(conn, projects)
    ids = newest(conn, projects, count)
    candidates = [Candidate(i, None, None, 1 / (K + n), ()) for n, i in enumerate(ids, start=1)]
    older = max(0, total - len(ids))
    return Search(query, total, tuple(candidates), None, None, (), beyond=older)


def _forms(query: Query, counts: TermCounts | None = None) -> dict[str, list[str]]:
    """Each term's other family members (word_forms.variants), searched in the porter
    index; none for a word in COMMON_AT or more memories, whose family is as common
    and would only cost the reading that shows it, and none the porter stemmer takes
    for the word or for another of them (recall/stems.py)."""
    return {
        term.word: []
        if counts is not None and counts("memory", term.word) >= COMMON_AT
        else stems.apart(term.word, word_forms.variants(term.word))
        for term in query.terms
    }


def _with_equivalents(counts: TermCounts, query: Query) -> Query:
    """`query` with each term's synonyms (none for a word in COMMON_AT or more
    memories, as _forms). Words of one group in the question ("documented in the
    wiki") get none: one word of a note would count for both."""
    asked = frozenset(query.dropped)
    found = {term.word: vocabulary.equivalents(term.word, asked) for term in query.terms}
    families = {word_forms.family(term.word) for term in query.terms}
    terms = tuple(
        replace(term, alike=alike)
        if (alike := found[term.word])
        and not families & {word_forms.family(word) for word in alike}
        and counts("memory", term.word) < COMMON_AT
        else term
        for term in query.terms
    )
    return replace(query, terms=terms)


def search(
    conn: sqlite3.Connection,
    query: Query,
    projects: Sequence[str],
    *,
    depth: int = DEPTH,
    floor: bool = True,
    shared: read_texts.Shared | None = None,
    asked: Query | None = None,
) -> Search:
    """Rank `query` in both indexes, fuse by RRF (K = 60), weigh each candidate's
    coverage of the question above the fused rank, and cut those covering less
    than half the best's share. `asked` is the question `query` rewords, whose
    point (recall/question_point.py) each candidate is checked for."""
    notes: list[str] = []
    if query.dropped:
        notes.append(f"ignored as too common to mean anything: {', '.join(query.dropped)}")
    shared = shared if shared is not None else read_texts.Shared()
    counts = TermCounts(conn, shared.read, shared.kept.counts if shared.kept else None)
    total = searched(conn, projects)
    words = [term.word for term in query.terms]
    forms = _forms(query, counts)
    # Words of the same meaning are searched beside the word's own forms, and stand
    # in for it in its rarity and the misspelling test (recall/vocabulary.py).
    query = _with_equivalents(counts, query)
    alike = {term.word: [*forms[term.word], *term.alike] for term in query.terms}
    substrings = [term.raw for term in query.terms if term.substring]
    family = [form for word in words for form in alike[word]]
    # A word and its forms are asked before its synonyms (index_ranking._within_budget).
    own = [*words, *(form for word in words for form in forms[word]), *query.joined]
    porter = index_ranking.plan_for(
        counts,
        "memory",
        stems.distinct([*words, *family, *query.joined]),
        notes,
        first=own,
        terms=[[word, *forms[word]] for word in words],
    )
    for term in query.terms:
        # A word in a large share of the store is at least as common as a
        # substring: spare the trigram index the phrase matching that shows it.
        if term.raw == term.word and counts("memory", term.word) >= COMMON_AT:
            counts.common("memorygram", term.raw)
    gram = index_ranking.plan_for(counts, "memorygram", [*substrings, *query.compounds], notes)
    porter_ids = index_ranking.rank(conn, "memory", porter, projects, depth, shared.projects)
    gram_ids = index_ranking.rank(conn, "memorygram", gram, projects, depth, shared.projects)

    rescued = _misspelled(counts, query.terms, alike)
    if rescued:
        grams = [g for term in rescued for g in query_terms.trigrams(term.raw)]
        notes.append("trigram rescue for " + ", ".join(term.word for term in rescued))
        rescue = index_ranking.rescue_plan(counts, grams, notes)
        near = index_ranking.rank(conn, "memorygram", rescue, projects, depth, shared.projects)
        gram_ids += [i for i in near if i not in gram_ids]
        # The rescue's best matches are where the misspellings are: their words are
        # compared first, within the bound on comparisons (coverage.NEAR_WORDS).
        for memory_id, text in shared.texts_of(conn, near).items():
            cut = shared.words.setdefault(memory_id, coverage.Words(text))
            for term in rescued:
                shared.near.any_in(term.word, cut.words)

    ranks_p = {memory_id: rank for rank, memory_id in enumerate(porter_ids, start=1)}
    ranks_t = {memory_id: rank for rank, memory_id in enumerate(gram_ids, start=1)}
    fused = fuse((porter_ids, gram_ids), K)
    ids = list(dict.fromkeys([*porter_ids, *gram_ids]))
    weights = _weights(counts, query.terms, alike, total)
    shared.texts_of(conn, ids)
    texts = shared.widened(conn, ids, query.terms) if ids else {}
    # A label many memories open with ("Alice: ...") says little (recall/prefixes.py).
    labelled = prefixes.shared(texts, lambda phrase: counts("memory", phrase))
    held = coverage.assess(
        texts,
        query.terms,
        weights,
        [term.word for term in rescued],
        (*query.compounds, *query.joined),
        shared.words,
        shared.near,
        labelled,
    )
    shared.keep_words()
    opened = {i: text[labelled[i][1] :] if i in labelled else text for i, text in texts.items()}
    about = subject.held(opened, query.terms, weights, held)
    together = proximity.shares(texts, query.terms, weights, held)
    question = asked if asked is not None else query
    wanted = question_point.point(question.text)
    # The question's own content words are no answer to it; its `when` or `who` is
    # no content, and an answer's `when` ("when an order is paid") is a time.
    said = frozenset(term.word for q in (query, question) for term in q.terms)
    typo = coverage.TYPO
    # The terms held literally follow from the levels, which most candidates share.
    literals: dict[tuple[float, ...], tuple[str, ...]] = {}
    candidates = []
    for memory_id in ids:
        found = held[memory_id]
        if not found.terms:
            # A trigram match that holds no term at all shares only a few
            # letters with the question (a misspelling rescue's near miss).
            continue
        score = together[memory_id] + about[memory_id] + fused[memory_id]
        offpoint = wanted is not None and not question_point.holds(
            wanted, shared.words[memory_id], said
        )
        literal = literals.get(found.levels)
        if literal is None:
            literal = literals[found.levels] = tuple(
                w for w, level in zip(words, found.levels, strict=True) if level >= typo
            )
        candidate = filled(
            Candidate,
            id=memory_id,
            porter=ranks_p.get(memory_id),
            trigram=ranks_t.get(memory_id),
            score=score,
            held=found.terms,
            share=found.share,
            literal=literal,
            about=about[memory_id],
            offpoint=offpoint,
        )
        candidates.append(candidate)
    candidates.sort(key=lambda c: (-c.score, -c.id))
    if floor:
        candidates = relevance_floor.cut_floor(candidates)
    candidates = relevance_floor.vouch(candidates, weights)
    return Search(
        query,
        total,
        tuple(candidates),
        porter.expr,
        gram.expr,
        tuple(notes),
        weights=tuple(weights.items()),
    )


def _weights(
    counts: TermCounts, terms: Sequence[Term], forms: dict[str, list[str]], total: int
) -> dict[str, float]:
    """Each term's rarity: how many memories hold it, as a word, another form of
    it or (for an identifier) a substring; a term nothing holds weighs most."""
    out: dict[str, float] = {}
    for term in terms:
        found_in = counts("memory", term.word)
        if not found_in:
            found_in = max((counts("memory", form) for form in forms[term.word]), default=0)
        if not found_in and term.substring:
            found_in = counts("memorygram", term.raw)
        out[term.word] = coverage.rarity(total, found_in)
    return out


def _misspelled(
    counts: TermCounts, wanted: Sequence[Term], forms: dict[str, list[str]] | None = None
) -> list[Term]:
    """Terms that match nothing as written, in either index, and have trigrams to try."""
    return [
        term
        for term in wanted
        if len(query_terms.trigrams(term.raw)) >= 2
        and not counts("memory", term.word)
        and not any(counts("memory", form) for form in (forms or {}).get(term.word, ()))
        and not (term.substring and counts("memorygram", term.raw))
    ]


def matches(conn: sqlite3.Connection, query: Query, projects: Sequence[str]) -> list[int]:
    """Every visible memory matching any term, stemmed or as a substring (or, for a
    misspelled term, by trigram similarity): no floor, limit or budget."""
    found: set[int] = set()
    family = [form for forms in _forms(query).values() for form in forms]
    found.update(
        index_ranking.every(conn, "memory", [*(t.word for t in query.terms), *family], projects)
    )
    found.update(
        index_ranking.every(
            conn, "memorygram", [t.raw for t in query.terms if t.substring], projects
        )
    )
    rescued = _misspelled(TermCounts(conn), query.terms, _forms(query))
    if rescued:
        grams = [g for term in rescued for g in query_terms.trigrams(term.raw)]
        near = index_ranking.every(conn, "memorygram", grams, projects)
        found.update(read_texts.near_misses(conn, rescued, sorted(near)))
    return sorted(found)


def rows(conn: sqlite3.Connection, ids: Sequence[int]) -> list[Memory]:
    """The memories `ids`, newest first."""
    if not ids:
        return []
    marks = ",".join(str(int(i)) for i in ids)
    found = conn.execute(
        f"SELECT {COLUMNS} FROM memories WHERE id IN ({marks}) ORDER BY created_at DESC, id DESC"
    )
    return [Memory(*row) for row in found]
