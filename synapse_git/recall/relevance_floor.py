"""The relevance floor (docs/recall.md, step 4): a candidate covering less than
half the best one's share of the question is cut, and the best one kept may be
vouched for as an answer below the weak share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from synapse_git.recall import word_forms
from synapse_git.recall.records import changed

if TYPE_CHECKING:
    from synapse_git.recall.ranking import Candidate


def floor_verdict(share: float, best: float) -> str | None:
    """Why a candidate covering `share` of the question is cut when the best covers
    `best`, or None when it is kept."""
    if share * 2 < best:
        return f"floor: covers {share:.2f} of the question, the best {best:.2f}"
    return None


def cut_floor(candidates: list[Candidate]) -> list[Candidate]:
    """Cut (mark) the candidates covering less than half the best one's share."""
    best = max((c.share for c in candidates), default=0.0)
    out = []
    for c in candidates:
        if (verdict := floor_verdict(c.share, best)) is not None:
            c = changed(c, verdict=verdict)
        out.append(c)
    return out


def vouch(candidates: Sequence[Candidate], weights: Mapping[str, float]) -> list[Candidate]:
    """`candidates` (ranked) with the best one kept vouched for as an answer when,
    below WEAK_SHARE, it still holds two or more of the question's words (two
    families: a word and its plural are one), one of
    them in its opening words (recall/subject.py), and the rarest word any
    candidate holds (floored or not).

    A question nothing answers draws, at best, memories sharing one of its words
    by chance, or two words of which a rarer one is held elsewhere: on the dev
    sets (tests/recall/sets) no such best guess meets all three, while a
    paraphrase's answer holding two of its words and naming its subject does."""
    out = [changed(c, vouched=False) if c.vouched else c for c in candidates]
    at = next((n for n, c in enumerate(out) if c.verdict == "kept"), None)
    if at is None:
        return out
    best = out[at]
    # Two forms of one word (`translations` asked, `translation` reworded) are one.
    words = {word_forms.family(word) for word in best.held}
    if not best.weak or len(words) < 2 or best.about <= 0:
        return out
    # Every candidate, the floor's cuts too: one the floor cut still holds the word,
    # and recall decides the same with or without the floor.
    rarest = max(weights.get(word, 0.0) for c in out for word in c.held)
    if max(weights.get(word, 0.0) for word in best.held) >= rarest:
        out[at] = changed(best, vouched=True)
    return out
