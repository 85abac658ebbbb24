"""Alternatives in one slot (docs/drift.md, conflicts): two tools for one job
(`we format with black` / `ruff formats the code`), and "only X" against "X and Y"
(`only mypy` / `mypy and pyright`).

Pure functions over token and stem sequences that `conflicts` has already made, so
the two modules agree on what a word is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from synapse_git.drift.conflict_words import (
    NEGATORS,
    PHRASE_ENDS,
    ROLE_WORDS,
    STOP,
    TOOL_ROLES,
    VERBS,
    stem,
)

_JOINS = frozenset({"and", "plus", "&"})
# Words before a noun phrase that are not part of what it names: `the build`,
# `every pull request` (`on every push and every pull request` joins two triggers).
_ARTICLES = frozenset({"a", "an", "the", "every", "each"})
# A preposition between `only` and what it restricts: `only on pull requests`.
_PLACES = frozenset({"on", "to", "in", "for", "from", "at", "with", "via", "by", "into", "under"})


# eq=False, repr=False: nothing compares or prints these, and each generated method
# is compiled when the module loads, which every recall pays for.
@dataclass(frozen=True, eq=False, repr=False)
class Only:
    """`only X` in a sentence: the phrase X and the sentence's other content stems."""

    phrase: tuple[str, ...]
    rest: frozenset[str]
    text: str
    # The verb `only` follows when a preposition stands between it and the phrase
    # (`signed only for macOS`): the other sentence must say it too.
    verb: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class Together:
    """`X and Y` in a sentence: both phrases and the sentence's other content stems."""

    left: tuple[str, ...]
    right: tuple[str, ...]
    rest: frozenset[str]
    text: str


def _ends_phrase(token: str) -> bool:
    return (
        token in STOP
        or token in VERBS
        or token in NEGATORS
        or token in PHRASE_ENDS
        or token in _JOINS
        or not token[0].isalnum()
    )


def _phrase(tokens: Sequence[str], start: int, step: int, most: int = 3) -> tuple[int, int]:
    """The span of at most `most` words from `start` in direction `step`, past leading
    articles, up to a word that ends a noun phrase; as (low, high) indexes."""
    cursor = start
    while 0 <= cursor < len(tokens) and tokens[cursor] in _ARTICLES:
        cursor += step
    first = cursor
    while 0 <= cursor < len(tokens) and abs(cursor - first) < most:
        if _ends_phrase(tokens[cursor]):
            break
        cursor += step
    low, high = (first, cursor) if step > 0 else (cursor + 1, first + 1)
    return (low, high) if high > low else (0, 0)


def _rest(stems: Sequence[str], *spans: tuple[int, int]) -> frozenset[str]:
    taken = {i for low, high in spans for i in range(low, high)}
    return frozenset(s for i, s in enumerate(stems) if s and i not in taken)


def sentence_claims(
    tokens: Sequence[str], stems: Sequence[str], text: str
) -> tuple[list[Only], list[Together]]:
    """The `only X` and `X and Y` claims of one sentence."""
    only: list[Only] = []
    together: list[Together] = []
    for index, token in enumerate(tokens):
        if token == "only":
            start = index + 1
            verb = ""
            if start < len(tokens) - 1 and tokens[start] in _PLACES:
                start += 1
                verb = stems[index - 1] if index > 0 else ""
            after = _phrase(tokens, start, 1)
            # `pyright only.`, `on src/ only`: the phrase stands before it.
            span = after if after != (0, 0) else _phrase(tokens, index - 1, -1)
            if span != (0, 0):
                phrase = tuple(stems[i] or tokens[i] for i in range(*span))
                only.append(Only(phrase, _rest(stems, span), text, verb))
        elif token in _JOINS and 0 < index < len(tokens) - 1:
            left = _phrase(tokens, index - 1, -1)
            right = _phrase(tokens, index + 1, 1)
            if left != (0, 0) and right != (0, 0):
                together.append(
                    Together(
                        tuple(stems[i] or tokens[i] for i in range(*left)),
                        tuple(stems[i] or tokens[i] for i in range(*right)),
                        _rest(stems, left, right),
                        text,
                    )
                )
    return only, together


def _same_context(a: frozenset[str], b: frozenset[str]) -> bool:
    """The sentences say it of the same thing: their other words agree (one side's
    are among the other's) or they share two at least."""
    shared = a & b
    return bool(shared) and (not (a - b) or not (b - a) or len(shared) >= 2)


def _starts(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    return len(shorter) <= len(longer) and longer[: len(shorter)] == shorter


def only_against_more(
    only: Sequence[Only], together: Sequence[Together]
) -> tuple[Only, Together] | None:
    """`only X` in one note where the other says `X and Y` of the same thing.

    A phrase runs on past its head when no verb is known to end it (`only mypy
    type-checks the code`): the words past the part both name count as context."""
    for claim in only:
        for pair in together:
            if claim.verb and claim.verb not in pair.rest:
                continue  # `signed only for macOS` / `built for macOS and Linux`
            for named, other in ((pair.left, pair.right), (pair.right, pair.left)):
                if named == other:
                    continue
                if _starts(claim.phrase, named):
                    mine, theirs = set(claim.phrase[len(named) :]), set[str]()
                elif _starts(named, claim.phrase):
                    mine, theirs = set(), set(named[len(claim.phrase) :])
                else:
                    continue
                head = other[: max(1, len(named))]
                theirs |= set(other[len(head) :])
                context_a = (claim.rest | mine) - set(head)
                context_b = pair.rest | theirs
                if _same_context(context_a, context_b):
                    return claim, pair
    return None


def tools_in(tokens: Sequence[str]) -> frozenset[str]:
    """The known tools a text names."""
    return frozenset(token for token in tokens if token in TOOL_ROLES)


def other_tools(tools: frozenset[str], most: int) -> list[str]:
    """Tools that do a job one of `tools` does, and that `tools` does not name: where
    a note correcting this one would differ (`black` for a note naming `ruff`)."""
    jobs = {role for tool in tools for role in TOOL_ROLES[tool]}
    found = [other for other, roles in TOOL_ROLES.items() if roles & jobs and other not in tools]
    return found[:most]


def tool_against_tool(
    tools_a: frozenset[str],
    content_a: frozenset[str],
    tools_b: frozenset[str],
    content_b: frozenset[str],
    body_tools_a: frozenset[str],
    body_tools_b: frozenset[str],
) -> tuple[str, str] | None:
    """Two tools for one job in two clauses about that job: (tool of a, tool of b).

    A note naming both tools anywhere (`we moved from flake8 to ruff`, `mypy, and
    pyright in the editor`) is not a choice between them."""
    for x in sorted(tools_a):
        for y in sorted(tools_b):
            if x == y or y in body_tools_a or x in body_tools_b:
                continue
            for role in TOOL_ROLES[x] & TOOL_ROLES[y]:
                words = ROLE_WORDS[role]
                about_a = TOOL_ROLES[x] == {role} or bool(content_a & words)
                about_b = TOOL_ROLES[y] == {role} or bool(content_b & words)
                if not (about_a and about_b):
                    continue
                rest_a = content_a - words - {stem(x)}
                rest_b = content_b - words - {stem(y)}
                if not (rest_a - rest_b) or not (rest_b - rest_a):
                    return x, y
    return None
