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
