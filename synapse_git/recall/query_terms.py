"""Query terms (docs/recall.md, step 1): the user's words as data, never as FTS5 syntax.

Terms are cut the way the `unicode61` tokenizer cuts text (letters, numbers
and private-use characters make tokens; everything else separates them), case
folded and with Latin diacritics removed. Every term reaches MATCH as a quoted
FTS5 string, so quotes, `*`, `^`, `:`, parentheses, `NEAR`, `AND`/`OR`/`NOT` and
column names are only ever searched for as words.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from synapse_git.recall import word_forms

MAX_TERMS = 32
# What recall takes of a question, and of each rewording (docs/recall.md, "How long a
# question may be"): only its first MAX_TERMS distinct words are searched, which a
# question holds within a few hundred bytes, while cutting a megabyte into words took
# seconds. Past this a question is refused (the prompt hook searches this much of a
# prompt): a pasted stack trace fits, a pasted file does not.
MAX_QUERY_BYTES = 16 * 1024
# Words that carry no topic. They are dropped from a query that has other
# terms, so "how do we deploy" is a question about deploying, not about "we";
# nor is "... unless told otherwise" about "unless" (the last line: function
# words a rare enough word in a small store would otherwise weigh as a topic).
_STOP_TEXT = """a an and are as at be been but by can could did do does for from had has have
how i if in into is it its me my of on or our should so than that the their them then there these
they this to us was we were what when where which who whom why will with would you your
unless otherwise also just very same such any own until while once again"""
STOPWORDS = frozenset(_STOP_TEXT.split())
# Characters that may join the parts of an identifier (`PAY-7731`, `CACHE_TTL`,
# `src/app/db.py`); such a compound is also searched whole in the trigram index.
_JOINERS = frozenset("-_./:@#+~=")
SUBSTRING_SHAPED = 3


# eq=False, repr=False, not frozen: nothing compares, prints or changes these, and each
# generated method (a frozen class has two more) is compiled when the module loads,
# which every recall pays for.
@dataclass(eq=False, repr=False)
class Term:
    """One query term: `word` folded as unicode61 folds it, `raw` only lower-cased
    (the trigram index folds case but not diacritics)."""

    word: str
    raw: str
    shaped: bool = False  # digits, camelCase or CJK: a piece of an identifier or a text run
    # Words of the same meaning (recall/vocabulary.py), filled in by ranking.search.
    alike: tuple[str, ...] = ()

    @property
    def substring(self) -> bool:
        """Worth matching inside longer tokens in the trigram index: a fragment of
        an identifier (digits, camelCase) or CJK text. A plain word's other forms
        are found through its family (word_forms); inside other tokens it finds
        mostly unrelated words, the way `one` sits in `zone` and `done`."""
        return self.shaped and len(self.raw) >= SUBSTRING_SHAPED


@dataclass(eq=False, repr=False)
class Query:
    text: str
    terms: tuple[Term, ...]
    compounds: tuple[str, ...]
    dropped: tuple[str, ...]
    # Neighbouring words written as one (`roll back` -> `rollback`), as notes often do.
    joined: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.terms


def _token_char(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LN" or category == "Co"


# Letters and digits of any script (what unicode61 keeps), as one fast pattern;
# combining marks stay inside the token they follow.
_TOKEN = re.compile(r"(?:[^\W_]|(?<=\w)[\u0300-\u036f])+")


def fold(text: str) -> str:
    """Lower-case and strip diacritics from Latin letters, as unicode61 does."""
    if text.isascii():
        return text.lower()
    out: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFD", text.lower()):
        if unicodedata.category(char) == "Mn":
            if base and ord(base) < 0x2B0:
                continue
        else:
            base = char
        out.append(char)
    return unicodedata.normalize("NFC", "".join(out))


def tokens(text: str) -> list[str]:
    """`text` split into unicode61 tokens, unfolded."""
    return _TOKEN.findall(text)


def _compounds(text: str) -> list[str]:
    found: list[str] = []
    for chunk in text.split():
        chunk = chunk.strip("\"'`()[]{}<>,;!?")
        chunk = chunk.rstrip(".:")
        if len(chunk) < 3 or not any(char in _JOINERS for char in chunk):
            continue
        if all(_token_char(char) or char in _JOINERS for char in chunk) and len(tokens(chunk)) > 1:
            found.append(chunk.lower())
    return found


# A possessive or a contraction's tail (`app's`, `it's`, `we'll`, `doesn't`): the
# tokenizer would make a word of its letters, `s` or `t`, held by most notes as the
# tail of theirs. A negation keeps its verb (`doesn't` -> `does`, a stopword).
_CONTRACTED = re.compile(r"(?<=[^\W_])['\u2019](?:s|d|ll|re|ve|m)\b", re.IGNORECASE)
_NEGATED = re.compile(r"\b([^\W\d_]+?)n['\u2019]t\b", re.IGNORECASE)
_NEGATED_ODD = {"ca": "can", "wo": "will", "sha": "shall"}


def _uncontracted(text: str) -> str:
    """`text` without the tails of its possessives and contractions."""
    if "'" not in text and "\u2019" not in text:
        return text
    text = _CONTRACTED.sub("", text)
    return _NEGATED.sub(lambda m: _NEGATED_ODD.get(m[1].lower(), m[1]), text)


def _distinct(text: str) -> tuple[list[Term], list[str]]:
    """Every distinct term of `text` in order, and the stopwords dropped from them."""
    seen: dict[str, Term] = {}
    for token in tokens(_uncontracted(text)):
        word = fold(token)
        if word and word not in seen:
            seen[word] = Term(word, token.lower(), word_forms.shaped(token))
    terms = list(seen.values())
    dropped: list[str] = []
    if any(term.word not in STOPWORDS for term in terms):
        dropped = [term.word for term in terms if term.word in STOPWORDS]
        terms = [term for term in terms if term.word not in STOPWORDS]
    return terms, dropped


def term_count(text: str) -> int:
    """How many terms `text` has before the cut at MAX_TERMS."""
    return len(_distinct(text)[0])


def parse(text: str) -> Query:
    """The distinct terms of `text` in order, at most MAX_TERMS of them."""
    terms, dropped = _distinct(text)
    compounds = list(dict.fromkeys(_compounds(text)))[:8]
    terms = terms[:MAX_TERMS]
    joined = [
        *_phrasal(terms),
        *(
            a.word + b.word
            for a, b in itertools.pairwise(terms)
            if a.word.isalpha() and b.word.isalpha() and min(len(a.word), len(b.word)) >= 2
        ),
    ]
    joined = list(dict.fromkeys(joined))
    return Query(text, tuple(terms), tuple(compounds), tuple(dropped), tuple(joined[:8]))


# Particles a verb takes into the noun written as one: warm up / warmup, back off /
# backoff, shut down / shutdown, roll out / rollout, fail over / failover.
PARTICLES = frozenset(("up", "down", "out", "off", "over", "back"))


def _phrasal(terms: list[Term]) -> list[str]:
    """An inflected verb and its particle written as the noun (`warming up` ->
    `warmup`, `backing off` -> `backoff`, `shutting down` -> `shutdown`)."""
    found = []
    for a, b in itertools.pairwise(terms):
        if b.word in PARTICLES and a.word.isalpha():
            base = word_forms.family(a.word)
            if base != a.word and len(base) >= 3:
                found.append(base + b.word)
    return found


def trigrams(word: str) -> list[str]:
    """The distinct three-character pieces of `word`, in order."""
    return list(dict.fromkeys(word[i : i + 3] for i in range(len(word) - 2)))
