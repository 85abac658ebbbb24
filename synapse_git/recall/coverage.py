"""Coverage (docs/recall.md, "Coverage and weak evidence"): how much of the question
a memory holds.

Each query term weighs by its rarity (a word few memories hold says more about
what is asked), and a memory holds it at one of four levels: the word itself,
another form of it (same family, see word_forms), a misspelling of it within a
small edit distance, or only as a substring of a longer token. A memory's
coverage is the weighted share of the question it holds: 1.0 holds every
word as written.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from synapse_git.recall import prefixes, query_terms, vocabulary, word_forms
from synapse_git.recall.query_terms import Term

EXACT = 1.0
STEM = 0.85
TYPO = 0.8
SYNONYM = 0.6  # a word of the same meaning (recall/vocabulary.py), below any form of the word
SUBSTRING = 0.5
# Below this share the evidence is weak: the memory holds only a small,
# common part of what was asked (tuned on the dev sets in tests/recall/sets).
WEAK_SHARE = 0.35


# eq=False, repr=False, not frozen: nothing compares, prints or changes these, and each
# generated method (a frozen class has two more) is compiled when the module loads,
# which every recall pays for.
@dataclass(eq=False, repr=False)
class Held:
    """What one memory holds of the question: its coverage and the terms held."""

    share: float
    terms: tuple[str, ...]
    levels: tuple[float, ...]


def rarity(total: int, found_in: int) -> float:
    """A term's weight: high for a word few of `total` memories hold."""
    return math.log(1 + (total + 1) / (found_in + 1))


# In ASCII text unicode61's tokens are the runs of letters and digits, folded only
# in case: a word is held when it stands in the lowered text between two
# characters that are neither. Most memories are ASCII, and a search for the
# question's few words costs far less than cutting the whole text into words.
# Each pattern starts with the word itself and looks behind it afterwards: `re`
# then jumps from one occurrence of the word to the next instead of testing the
# look-behind at every position (15 times faster through a 16 KiB text).
@functools.lru_cache(maxsize=4096)
def _standing(word: str) -> re.Pattern[str]:
    return re.compile(_after_no_letter(word) + r"(?![a-z0-9])")


@functools.lru_cache(maxsize=4096)
def _starting(prefix: str) -> re.Pattern[str]:
    """The words of a lowered ASCII text that start with `prefix`."""
    return re.compile(_after_no_letter(prefix) + r"[a-z0-9]*")


# unicode61's tokens of a lowered ASCII text, found a third faster than by the
# general pattern (query_terms.tokens), which also keeps combining marks.
_ASCII_WORD = re.compile(r"[a-z0-9]+")


def _after_no_letter(word: str) -> str:
    """`word` where no letter or digit comes just before it."""
    if not word:
        return r"(?<![a-z0-9])"
    return re.escape(word) + r"(?<![a-z0-9]" + re.escape(word) + ")"


# The distinct words one misspelled term is compared with, at most, for one question
# and its rewordings: the rankings are bounded (ranking.DEPTH), but the words of their
# candidates grow with the store's vocabulary, each a comparison in Python.
NEAR_WORDS = 1500
HAS_WORDS = 64  # words a text remembers holding or not (Words.has), at most


class Near:
    """The misspellings (word_forms.close) of each misspelled term among the words of
    one question's candidates. Candidates share most of their words, so each distinct
    word is compared with a term once, not once for every text that holds it; past
    NEAR_WORDS words a term is only looked for among the misspellings found so far
    (ranking.search judges the misspelling rescue's best matches first)."""

    def __init__(self) -> None:
        self._judged: dict[str, set[str]] = {}
        self._close: dict[str, set[str]] = {}

    def any_in(self, term: str, words: set[str]) -> bool:
        """Whether one of `words` is a misspelling of `term`."""
        judged = self._judged.setdefault(term, set())
        close = self._close.setdefault(term, set())
        room = NEAR_WORDS - len(judged)
        if room > 0:
            fresh = words - judged
            if len(fresh) > room:
                fresh = set(sorted(fresh)[:room])
            close.update(word_forms.close_among(term, fresh))
            judged |= fresh
        return not close.isdisjoint(words)


class Words:
    """The words of one memory's text, folded, with their families; cut into
    words only when a check needs every word (another form, a misspelling)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lower = text.lower()
        self.plain = text.isascii()
        self.folded = self.lower if self.plain else query_terms.fold(text)
        self._words: set[str] | None = None
        self._families: set[str] | None = None
        # Whether it holds a word, by word: a kept text (recall/kept_rows.py) is asked
        # about the same words question after question.
        self._has: dict[str, bool] = {}

    @property
    def words(self) -> set[str]:
        if self._words is None:
            if self.plain:
                self._words = set(_ASCII_WORD.findall(self.lower))
            else:
                self._words = {query_terms.fold(token) for token in query_terms.tokens(self.text)}
        return self._words

    @property
    def families(self) -> set[str]:
        # Worked out only when a term is not held word for word.
        if self._families is None:
            self._families = {word_forms.family(word) for word in self.words}
        return self._families

    def has(self, word: str) -> bool:
        """Whether `word` (folded) is one of the text's words."""
        if (known := self._has.get(word)) is not None:
            return known
        if len(self._has) >= HAS_WORDS:
            self._has.clear()
        if self.plain:
            found = word in self.lower and _standing(word).search(self.lower) is not None
        else:
            found = word in self.words
        self._has[word] = found
        return found

    def has_family(self, word: str) -> bool:
        """Whether one of the text's words is of `word`'s family."""
        key = word_forms.family(word)
        if self.plain and self._families is None:
            # Every member of a family starts with its key less the last letter
            # (carried -> carry): only the text's words that do are looked at.
            if key[:-1] not in self.lower:
                return False
            found = _starting(key[:-1]).findall(self.lower)
            return any(word_forms.family(other) == key for other in found)
        return key in self.families

    def level(self, term: Term, misspelled: bool, near: Near | None = None) -> float:
        """How this text holds `term`: EXACT, STEM, TYPO, SYNONYM, SUBSTRING or 0;
        `near` keeps the misspellings judged for the other texts of the question."""
        if self.has(term.word):
            return EXACT
        if self.has_family(term.word):
            return STEM
        if misspelled and (near or Near()).any_in(term.word, self.words):
            return TYPO
        if term.alike and vocabulary.held(term.alike, self):
            return SYNONYM
        if term.substring and (term.raw in self.lower or term.word in self.folded):
            return SUBSTRING
        return 0.0

    def holds(self, text: str) -> bool:
        return text in self.lower


def assess(
    texts: Mapping[int, str],
    terms: Sequence[Term],
    weights: Mapping[str, float],
    misspelled: Iterable[str] = (),
    compounds: Sequence[str] = (),
    known: dict[int, Words] | None = None,
    near: Near | None = None,
    labelled: Mapping[int, tuple[str, int]] | None = None,
) -> dict[int, Held]:
    """The coverage of each memory in `texts` for the question made of `terms`;
    an identifier the question names whole (`src/app/db.py`) counts its parts
    as held word for word. `known` keeps the texts' words, and `near` the
    misspellings judged, for another wording of the question. A term a memory of
    `labelled` holds only in its shared label (recall/prefixes.py: the label and
    where the rest starts) counts at prefixes.LEVEL at most."""
    wrong = set(misspelled)
    total = sum(weights.get(term.word, 1.0) for term in terms) or 1.0
    out: dict[int, Held] = {}
    known = known if known is not None else {}
    near = near if near is not None else Near()
    # Per term, once a question: its weight, and whether it is misspelled.
    asked = [(term, term.word in wrong, weights.get(term.word, 1.0)) for term in terms]
    labelled = labelled or {}
    alike: dict[tuple[float, ...], Held] = {}
    for memory_id, text in texts.items():
        # A text's words are cut once for the question and all its rewordings.
        words = known.get(memory_id)
        if words is None:
            words = known[memory_id] = Words(text)
        whole = [c for c in compounds if words.holds(c)] if compounds else []
        label = labelled.get(memory_id)
        levels = []
        for term, typo, _ in asked:
            level = words.level(term, typo, near)
            if level < EXACT and whole and any(_within(term, c) for c in whole):
                level = EXACT
            if level and label is not None:
                level = _beyond_label(text, label, term, level, near)
            levels.append(level)
        if len(text) > LONG and sum(1 for level in levels if level) > 1:
            levels = _best_window(text, terms, weights, levels, wrong, near)
        # Most candidates hold the question at the same levels as another (every
        # word as written): their share and terms are worked out once.
        key = tuple(levels)
        found = alike.get(key)
        if found is None:
            share = 0.0
            held = []
            for (term, _, weight), level in zip(asked, levels, strict=True):
                share += weight * level
                if level > 0:
                    held.append(term.word)
            found = alike[key] = Held(share / total, tuple(held), key)
        out[memory_id] = found
    return out


def _within(term: Term, compound: str) -> bool:
    """Whether `term` is part of `compound`, as written or as the base of a verb
    written as one with its particle (`warming` in `warmup`)."""
    return term.raw in compound or (
        term.word.isalpha()
        and len(family := word_forms.family(term.word)) >= 3
        and compound.startswith(family)
        and compound[len(family) :] in query_terms.PARTICLES
    )


# A memory longer than LONG characters is judged by its best window of WINDOW
# characters (windows overlap by half): a long document holds most words of most
# questions somewhere, and its length alone would otherwise outrank the short note
# that answers in one sentence. About a long paragraph, as the balanced budget's hit.
# A note of a few windows (a runbook of 1-2 KB) is judged so too: its steps name the
# question's common words apart from one another, by chance.
WINDOW = 1200
LONG = WINDOW


def _best_window(
    text: str,
    terms: Sequence[Term],
    weights: Mapping[str, float],
    whole: list[float],
    wrong: set[str],
    near: Near,
) -> list[float]:
    """The levels of the window of `text` that holds the most of the question (never
    above the levels of the whole text)."""
    held = [(term, level) for term, level in zip(terms, whole, strict=True) if level]
    best: list[float] = []
    best_share = -1.0
    step = WINDOW // 2
    for start in range(0, max(1, len(text) - step), step):
        window = Words(text[start : start + WINDOW])
        levels = {
            term.word: min(level, window.level(term, term.word in wrong, near))
            for term, level in held
        }
        share = sum(weights.get(word, 1.0) * level for word, level in levels.items())
        if share > best_share:
            best_share = share
            best = [levels.get(term.word, 0.0) for term in terms]
            if best == whole:
                break
    return best


def _beyond_label(text: str, found: tuple[str, int], term: Term, level: float, near: Near) -> float:
    """`level` for a term the text holds past its shared label; at most
    prefixes.LEVEL for one it holds only in the label."""
    name, end = found
    if not Words(name).level(term, False):
        return level
    # The label is a few words, the rest of a turn a sentence or two: cut on demand.
    rest = Words(text[end:]).level(term, level == TYPO, near)
    return max(rest, min(level, prefixes.LEVEL))


def rarest_first(terms: Sequence[Term], weights: Mapping[str, float]) -> list[Term]:
    """`terms` from the rarest to the most common (for excerpts)."""
    return sorted(terms, key=lambda term: -weights.get(term.word, 1.0))
