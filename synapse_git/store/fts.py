"""FTS5 query text built from data: the one place user words become a MATCH expression.

Light on purpose (no imports): recall, the conflict candidates and the commit
hook all build their MATCH expressions here.
"""

from __future__ import annotations

from collections.abc import Iterable


def quote(text: str) -> str:
    """`text` as one FTS5 string: a phrase of its tokens, never an operator.
    Doubling the quote is the only escape a quoted FTS5 string needs."""
    return '"' + text.replace('"', '""') + '"'


def any_of(items: Iterable[str]) -> str:
    """An FTS5 expression matching any of `items` (each quoted)."""
    return " OR ".join(quote(item) for item in items)


def grams(text: str) -> list[str]:
    """The distinct three-character pieces of `text`, in order: the trigram
    tokenizer's tokens, before it folds their case."""
    return list(dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2)))


def exact(item: str) -> bool:
    """Whether the trigram index answers `item` exactly: at most one trigram, so
    there is no order of trigrams to confirm on the text."""
    return len(item) <= 3


def holding_any(items: Iterable[str]) -> str:
    """An FTS5 expression for the trigram index (`detail=none`, which has no
    positions and so no phrases) matching every row that may hold any of `items`
    as a substring: every trigram of the item, in any order. A superset, confirmed
    on the text by store/substrings.py; exact for an item of three characters. An
    item shorter than that stays one string, which matches nothing, as before."""
    parts = []
    for item in dict.fromkeys(items):
        if exact(item):
            parts.append(quote(item))
        else:
            # `aaaa` has one distinct trigram: still a piece, never the phrase.
            parts.append("(" + " AND ".join(quote(piece) for piece in grams(item)) + ")")
    return " OR ".join(parts)
