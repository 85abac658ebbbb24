"""The dense ranking as a third reciprocal-rank list, and the semantic floor
(docs/semantic.md).

The lexical floor cuts a candidate holding fewer than half the best one's
terms; with vectors, a candidate is cut only when it is also far from the
question in meaning (cosine below LEAST) and holds fewer than half of the
question's own terms. A paraphrase that shares no word is kept by its
cosine; a memory that merely shares a common word with an unanswerable
question is cut by both tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace

from synapse_git.recall import fusion as rrf
from synapse_git.recall.ranking import Candidate, K, Search

LEAST = 0.30
DENSE_DEPTH = 10
# A memory found by meaning alone is an answer, not a guess, only this near the
# question: on the dev sets, the questions nothing answers drew such memories
# at cosine 0.31 to 0.36, the paraphrases their answers at 0.37 to 0.54.
SURE = 0.40


@dataclass(frozen=True)
class Blended(Candidate):
    """A candidate with its place in the dense ranking and its cosine (None: no vector)."""

    dense: int | None = None
    cosine: float | None = None

    @property
    def weak(self) -> bool:
        """Besides covering little of the question: found by meaning alone below
        SURE, or found by its words but far from the question in meaning (below
        LEAST), as a memory sharing a word with an unanswerable question is."""
        if self.cosine is None:
            return super().weak
        if self.porter is None and self.trigram is None:
            return self.cosine < SURE
        # The cosine is the question's: a note the caller's rewordings agree on is
        # worded unlike the question, which is why the caller reworded it.
        return super().weak or (self.cosine < LEAST and not self.agreed)

    def as_json(self) -> dict[str, object]:
        cosine = None if self.cosine is None else round(self.cosine, 4)
        return {**super().as_json(), "dense": self.dense, "cosine": cosine}


def fuse(lexical: Search, dense: Sequence[tuple[int, float]], cosines: dict[int, float]) -> Search:
    """`lexical` (ranked without its floor) with `dense` (id, cosine; best first) fused
    in, floored by meaning and terms together."""
    ranks = {memory_id: rank for rank, (memory_id, _) in enumerate(dense, start=1)}
    # The lexical scores are already fused; the dense list adds its own share.
    extra = rrf.fuse([list(ranks)], K)
    near = dict(cosines)
    near.update(dense)
    words = {term.word for term in lexical.query.terms}
    out: list[Candidate] = []
    for c in lexical.candidates:
        out.append(_blend(c, c.score + extra.get(c.id, 0.0), ranks.get(c.id), near.get(c.id)))
    known = {c.id for c in lexical.candidates}
    for memory_id, cosine in dense:
        if memory_id not in known:
            # Found by meaning alone: its cosine stands for its coverage of the question,
            # so a faint match is answered only as weak evidence.
            start = Candidate(memory_id, None, None, 0.0, (), share=cosine)
            out.append(_blend(start, extra[memory_id], ranks[memory_id], cosine))
    out.sort(key=lambda c: (-c.score, -c.id))
    floored = [_floor(c, len(words)) for c in out]
    if floored and all(c.verdict != "kept" for c in floored):
        # As the lexical floor (relative to the best) never cuts the best: a question
        # still gets its best guess, weak by its cosine, where every candidate is far.
        floored[0] = out[0]
    return replace(lexical, candidates=tuple(floored))


def _blend(c: Candidate, score: float, rank: int | None, cosine: float | None) -> Blended:
    kept = {f.name: getattr(c, f.name) for f in fields(Candidate)}
    return Blended(**{**kept, "score": score}, dense=rank, cosine=cosine)


def _floor(c: Candidate, words: int) -> Candidate:
    cosine = c.cosine if isinstance(c, Blended) else None
    if (cosine is not None and cosine >= LEAST) or len(c.held) * 2 >= words or c.agreed:
        return c
    shown = "none" if cosine is None else f"{cosine:.2f}"
    return replace(
        c, verdict=f"floor: holds {len(c.held)} of {words} terms, cosine {shown} < {LEAST}"
    )
