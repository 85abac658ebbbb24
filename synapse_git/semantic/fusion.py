"""The dense ranking as a third reciprocal-rank list, and the semantic floor
(docs/semantic.md).

The lexical floor cuts a candidate holding fewer than half the best one's
terms; with vectors, a candidate is cut only when it is also far from the
question in meaning (cosine below LEAST) and holds fewer than half of the
question's own terms. A paraphrase that shares no word is kept by its
cosine; a memory that merely shares a common word with an unanswerable
question is cut by both tests.

The weak hits, the few best guesses given last, are ranked by meaning as much as
by words: where no candidate answers by its words, the question's nearest memories
down to FAINT join them, and each weak candidate is scored as covering its cosine
to the question when that exceeds the share its words cover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from synapse_git.recall import fusion as rrf
from synapse_git.recall.query_terms import Query
from synapse_git.recall.ranking import Candidate, K, Search
from synapse_git.recall.records import changed, widened
from synapse_git.recall.rewordings import WEIGHT

LEAST = 0.30
DENSE_DEPTH = 10
# Where every candidate is weak by its words, the question's DENSE_DEPTH nearest
# down to this cosine join as weak guesses: on the dev sets the answers of such
# paraphrases sat at cosine 0.16 to 0.29, often among the model's first few.
FAINT = 0.20
# A memory found by meaning alone is an answer, not a guess, only this near the
# question: on the dev sets, the questions nothing answers drew such memories
# at cosine 0.31 to 0.36, the paraphrases their answers at 0.37 to 0.54.
SURE = 0.40
# A memory the rewordings agree on by their words, where the question's own words
# cover too little of it, is an answer only this near the question or a rewording:
# the rewordings are the caller's guess at a note's words, and a guess at the
# words of a note that is not there agrees on a neighbour sharing some of them. On
# the dev sets such answers of paraphrases sat at 0.49 or more, the neighbours of
# questions nothing answers drew at 0.30 to 0.44.
AGREED = 0.45

# (memory id, cosine) best first: the dense ranking of one wording.
Dense = Sequence[tuple[int, float]]


@dataclass(frozen=True)
class Blended(Candidate):
    """A candidate with its place in the question's dense ranking, its cosine to the
    question and its best cosine to the question or any rewording (None: no vector)."""

    dense: int | None = None
    cosine: float | None = None
    near: float | None = None
    reworded: bool = False  # rewordings were embedded with the question
    # Its words settle it, whatever the cosine: it holds every term of the question,
    # or one the question misspelled (a model reads "elasticsaerch" as noise).
    worded: bool = False

    @property
    def weak(self) -> bool:
        return self.why is not None

    @property
    def why(self) -> str | None:
        """Why the hit is weak (None: it is not). Besides covering little of the
        question: found by meaning alone below SURE, or found by its words but far
        in meaning (below LEAST) from the question and from every rewording, as a
        memory sharing a word with an unanswerable question is; or an answer by the
        rewordings' agreement alone, below AGREED from every wording."""
        if self.near is None:
            return self._covers_little()
        if self.porter is None and self.trigram is None:
            # Sharing no word, it answers only near the question itself: a rewording
            # may drift from it (on the dev sets, unanswerable questions' rewordings
            # drew such memories at 0.41 to 0.43, at 0.12 to 0.36 to the question).
            asked = -1.0 if self.cosine is None else self.cosine
            if asked < SURE:
                return f"found by meaning alone, cosine {asked:.2f} < {SURE:.2f}"
            return None
        if self.near < LEAST and not self.worded:
            to = "the question and every rewording" if self.reworded else "the question"
            return f"far in meaning: cosine {self.near:.2f} < {LEAST:.2f} to {to}"
        if self.reworded_only and self.near < AGREED and not self.worded:
            return (
                f"the rewordings' words agree on it, but cosine {self.near:.2f} < {AGREED:.2f}"
                " to the question and every rewording"
            )
        return self._covers_little()

    @property
    def why_weak(self) -> str:
        return super().why_weak if self.why is None else self.why

    def _covers_little(self) -> str | None:
        """The lexical reason (coverage.WEAK_SHARE), worded for `--explain`."""
        return super().why_weak if super().weak else None

    def as_json(self) -> dict[str, object]:
        rounded = {
            "cosine": None if self.cosine is None else round(self.cosine, 4),
            "near": None if self.near is None else round(self.near, 4),
        }
        return {**super().as_json(), "dense": self.dense, **rounded, "why": self.why}


def fuse(
    lexical: Search,
    dense: Sequence[Dense],
    cosines: Sequence[dict[int, float]],
    question: Query | None = None,
) -> Search:
    """`lexical` (ranked without its floor) with the dense rankings fused in (one per
    wording, the question first and weighing most, as in recall/rewordings.py),
    floored by meaning and terms together. `cosines[n]` holds wording n's cosine
    with each candidate (lexical or dense) that has a vector. `question` is the
    question alone (default: `lexical.query`, which with rewordings holds theirs).
    The dense lists may reach down to FAINT; below LEAST only the question's count,
    and only as weak guesses where no candidate answers by its words."""
    faint = [(i, value) for i, value in dense[0][:DENSE_DEPTH] if value < LEAST] if dense else []
    dense = [[(i, value) for i, value in found if value >= LEAST][:DENSE_DEPTH] for found in dense]
    ranks = {memory_id: rank for rank, (memory_id, _) in enumerate(dense[0], start=1)}
    # The lexical scores are already fused; the dense lists add their own share.
    extra: dict[int, float] = {}
    for n, found in enumerate(dense):
        weight = 1.0 if n == 0 else WEIGHT
        for memory_id, score in rrf.fuse([[i for i, _ in found]], K).items():
            extra[memory_id] = extra.get(memory_id, 0.0) + weight * score
    asked = dict(cosines[0])
    asked.update(dense[0])
    near: dict[int, float] = {}
    for found, known in zip(dense, cosines, strict=True):
        for memory_id, value in (*known.items(), *found):
            near[memory_id] = max(near.get(memory_id, -1.0), value)
    reworded = len(dense) > 1
    words = {term.word for term in lexical.query.terms}
    own = {term.word for term in (question or lexical.query).terms}
    misspelled = _misspelled(lexical.notes)
    out: list[Candidate] = []
    for c in lexical.candidates:
        cosine = asked.get(c.id)
        # Sure in meaning, it is scored as covering that much of the question when
        # its words cover less, as a memory found by meaning alone is; so is a weak
        # one at any cosine, so that the best guesses are the nearest in meaning.
        lift = max(cosine - c.share, 0.0) if cosine is not None else 0.0
        sure = cosine is not None and cosine >= SURE
        score = c.score + extra.get(c.id, 0.0) + (lift if sure else 0.0)
        worded = (bool(own) and own <= set(c.held)) or bool(misspelled & set(c.held))
        blended = _blend(c, score, ranks.get(c.id), cosine, near.get(c.id), reworded, worded)
        if blended.weak and not sure:
            blended = changed(blended, score=score + lift)
        out.append(blended)
    known_ids = {c.id for c in lexical.candidates}
    for memory_id in extra:
        if memory_id in known_ids:
            continue
        # Found by meaning alone: its best cosine stands for its coverage of the
        # question, so a faint match is answered only as weak evidence.
        # Its cosine to the question stands for the share in its score too, so that
        # it is ranked on the scale of the lexical candidates' (share plus ranks).
        best, cosine = near[memory_id], asked.get(memory_id)
        start = Candidate(memory_id, None, None, 0.0, (), share=best)
        score = (cosine if cosine is not None else 0.0) + extra[memory_id]
        out.append(_blend(start, score, ranks.get(memory_id), cosine, best, reworded))
    guesses = _faint(out, faint, near, reworded)
    out += guesses
    out.sort(key=lambda c: (-c.score, -c.id))
    # Kept past the floor as weak guesses: the faint neighbours, and the first of the
    # porter ranking when it is weak (the lexical floor never cuts it either).
    spared = {c.id for c in guesses}
    first = min((c for c in out if c.porter is not None), key=lambda c: c.porter or 0, default=None)
    if first is not None and first.weak:
        spared.add(first.id)
    floored = [c if c.id in spared else _floor(c, len(words)) for c in out]
    if floored and all(c.verdict != "kept" for c in floored):
        # As the lexical floor (relative to the best) never cuts the best: a question
        # still gets its best guess, weak by its cosine, where every candidate is far.
        floored[0] = out[0]
    return replace(lexical, candidates=tuple(floored))


def _faint(
    out: Sequence[Candidate], faint: Dense, near: dict[int, float], reworded: bool
) -> list[Candidate]:
    """The question's neighbours below LEAST, as weak guesses, where every candidate is
    weak: a paraphrase whose answer the model puts at 0.2 to 0.3 then still gets it,
    given last. Where a candidate answers by its words, they add nothing but noise."""
    if any(not c.weak for c in out):
        return []
    have = {c.id for c in out}
    guesses: list[Candidate] = []
    for memory_id, cosine in faint:
        if memory_id in have:
            continue
        start = Candidate(memory_id, None, None, cosine, (), share=cosine)
        best = max(near.get(memory_id, cosine), cosine)
        guesses.append(_blend(start, cosine, None, cosine, best, reworded))
    return guesses


RESCUE_NOTE = "trigram rescue for "


def _misspelled(notes: Sequence[str]) -> set[str]:
    """The question's terms ranked as misspellings (recall/ranking.py notes them;
    a rewording's notes are prefixed, so only the question's count)."""
    return {
        word
        for note in notes
        if note.startswith(RESCUE_NOTE)
        for word in note[len(RESCUE_NOTE) :].split(", ")
    }


def _blend(
    c: Candidate,
    score: float,
    rank: int | None,
    cosine: float | None,
    near: float | None,
    reworded: bool,
    worded: bool = False,
) -> Blended:
    fields = {"dense": rank, "cosine": cosine, "near": near, "reworded": reworded, "worded": worded}
    return widened(c, Blended, score=score, **fields)


def _floor(c: Candidate, words: int) -> Candidate:
    near = c.near if isinstance(c, Blended) else None
    if (near is not None and near >= LEAST) or len(c.held) * 2 >= words or c.agreed:
        return c
    shown = "none" if near is None else f"{near:.2f}"
    return changed(
        c, verdict=f"floor: holds {len(c.held)} of {words} terms, cosine {shown} < {LEAST}"
    )
