"""A requirement one note states and another denies (docs/drift.md, conflicts):
`Extractor impls must be annotated with #[async_trait]` against `Extractor impls
no longer need #[async_trait]`, `Integration tests require Docker` against
`Integration tests run without Docker`. Part of drift/conflicts.py's comparison
of two clauses about one thing; gives (reason, what the first clause says, what
the second says) or None."""

from __future__ import annotations

from synapse_git.drift.clauses import Clause, subject_of

Found = tuple[str, str, str]

# Words stating a requirement (`must` is a stop word, so these are read as tokens).
_NEEDS = frozenset({"need", "needs", "needed", "require", "requires", "required", "must"})
# Words after which what follows is denied as a requirement: `does not need X`, `no
# longer needs X`, `runs without X`.
_DENYING = frozenset({"need", "needs", "needed", "require", "requires", "required"})
_WITHOUT = "without"


def denied(a: Clause, b: Clause) -> Found | None:
    """`a` states a requirement of a thing that `b` says is not needed: every content
    word `b` names after its denial (`without Docker`, `no longer need
    #[async_trait]`) stands in `a` after its requirement word, in order and ending
    a phrase (`require Docker`, `must be annotated with #[async_trait]`). A word
    more after the denial (`without Docker on CI`) says where or when, and a
    requirement of a longer name (`without Docker` / `requires Docker Desktop`)
    is of another thing. The thing needing it is named in both."""
    if a.negated or not b.negated:
        return None
    # What needs it is named on both sides: `Run the worker without Redis` is not
    # about `The API server requires Redis`.
    needing, denying = subject_of(a)[0], subject_of(b)[0]
    if not needing or not needing <= b.content or not denying <= a.content:
        return None
    start = next((i for i, token in enumerate(a.tokens) if token in _NEEDS), None)
    if start is None:
        return None
    wanted = _denied_words(b)
    if not wanted:
        return None
    held = {(value.kind, value.amount) for _, value in a.values}
    if any((value.kind, value.amount) not in held for _, value in b.values):
        return None  # `needs Node 20` / `works without Node 18`: another release
    if not _phrase_after(a, start, wanted):
        return None
    return "negation", a.text, b.text


def _denied_words(clause: Clause) -> tuple[str, ...]:
    """The content words after the clause's denial of a requirement (`does not
    need`, `no longer needs`, `without`), or () when it denies none."""
    tokens, stems = clause.tokens, clause.stems
    for index, token in enumerate(tokens):
        if token == _WITHOUT or (
            token in _DENYING and any(_denies(word) for word in tokens[:index])
        ):
            return tuple(word for word in stems[index + 1 :] if word)
    return ()


def _denies(token: str) -> bool:
    return token in {"not", "no", "never"} or token.endswith("n't")


def _phrase_after(clause: Clause, start: int, wanted: tuple[str, ...]) -> bool:
    """Whether the content words `wanted` follow one another after `start` (only stop
    words between them), the last of them ending a phrase: `Rack session` in
    `needs a Rack session in front of it`, not in `needs a Rack session cookie`."""
    content = [(i, word) for i, word in enumerate(clause.stems) if word and i > start]
    words = tuple(word for _, word in content)
    for at in range(len(words) - len(wanted) + 1):
        if words[at : at + len(wanted)] != wanted:
            continue
        last = content[at + len(wanted) - 1][0]
        if last + 1 == len(clause.stems) or not clause.stems[last + 1]:
            return True
    return False
