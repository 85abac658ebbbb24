"""Alike candidates (docs/recall.md, "Alike candidates are no answer"): several
notes near the best one in score, each holding only words other candidates hold
too, are neighbours of the question, not its answer.

A question nothing answers draws notes holding parts of it: "what is the memory
limit for the api pods" draws the rate `limit` of the public `API` and three
notes on `api` `pods`, each a pair of the question's words, each pair held by
another note as well. No word singles one of them out, and the best of them is
best by a few hundredths of a score. An answer holds a word of the question no
other candidate holds, or stands clear of the others.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from synapse_git.recall import word_forms
from synapse_git.recall.records import changed

if TYPE_CHECKING:
    from synapse_git.recall.ranking import Candidate

# A candidate scoring at least this share of the best kept one's score is its
# rival: near enough that the score alone does not tell them apart.
NEAR = 0.8
# A candidate holding this share of the question (or the rewordings agreeing on it
# this much) holds the question, not a part of it: in a large store every word
# is held by many notes, and the one holding them all is still the answer.
WHOLE = 0.7


def single_out(candidates: Sequence[Candidate], spared: Collection[int] = ()) -> list[Candidate]:
    """`candidates` (ranked, best first) with each answer marked alike (weak) when
    a kept candidate near it in score holds two or more words of the question,
    one of which it does not while it holds one the rival does not, and it holds
    no word that no other candidate holds (as written or another form of it; two
    forms of one word counting as one). `spared` are the ids of answers never
    marked."""
    out = list(candidates)
    kept = [n for n, c in enumerate(out) if c.verdict == "kept"]
    # A vouched best candidate holds the rarest word any candidate holds (ranking.vouch).
    # An answer holding WHOLE of the question, by its words or the rewordings', is
    # not judged. That is asked first, in place, of each kept candidate: most
    # candidates of a common word hold it, and what makes one weak is not worked out.
    judged = []
    for n in kept:
        c = out[n]
        whole = (c.share if c.evidence is None else c.evidence) >= WHOLE
        if not (whole or c.vouched or c.id in spared or c.weak):
            judged.append(n)
    if len(kept) < 2 or not judged:
        return out
    # Only the kept candidates within reach of an answer's score are read again.
    low = NEAR * min(out[n].score for n in judged)
    high = max(out[n].score for n in judged) / NEAR
    near = [n for n in kept if low <= out[n].score <= high]
    families = {n: {word_forms.family(word) for word in out[n].held} for n in near}
    # Each of the two holds a part of the question the other lacks: a rival holding
    # the same words, or fewer, is the same answer again; one holding them all and
    # more covers more of the question (or, weak, misses its point: a decoy), and
    # one holding one word of it holds a word, no part.
    rivalled = []
    for n in judged:
        rivals = [
            m
            for m in near
            if m != n
            and NEAR * max(out[n].score, out[m].score) <= min(out[n].score, out[m].score)
            and len(families[m]) >= 2
            and not families[m] <= families[n]
            and not families[n] <= families[m]
        ]
        # The only one of them naming a word of the question first is about it.
        if rivals and not (out[n].about > 0 and all(out[m].about <= 0 for m in rivals)):
            rivalled.append(n)
    if not rivalled:
        return out
    # How many candidates hold each word as written or as another form of it (the
    # floor's cuts too, as ranking.vouch counts them): a word several notes hold
    # singles none out, nor does a word of the same meaning, which many share.
    holders: dict[str, int] = {}
    for c in out:
        for key in {word_forms.family(word) for word in c.literal}:
            holders[key] = holders.get(key, 0) + 1
    for n in rivalled:
        if all(holders[word_forms.family(word)] > 1 for word in out[n].literal):
            out[n] = changed(out[n], alike=True)
    return out
