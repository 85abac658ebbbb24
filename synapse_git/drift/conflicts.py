"""Do two memories say opposite things about the same thing? (docs/drift.md, conflicts)

Each body is cut into clauses. Two clauses conflict when they are about the
same thing — decided from the words around the differing token, not from the
overall overlap — and one of these holds:

- one negates what the other asserts (not, never, no longer, don't, avoid…);
- they hold an antonym pair in the same place (enabled/disabled, sync/async…);
- they carry different values of one kind in the same slot (30 s / 60 s,
  port 8080 / 8081, Python 3.11 / 3.12);
- they read the same except one short identifier after a slot word
  (`deploy from main` / `deploy from release`).

Clauses whose subjects (the words before the first verb) differ are about two
things and never conflict: another file, release or issue (`Type hints in
src/a.py are checked` / `… in src/b.py …`). A value is of the name written right
before it (`Werkzeug 3.0`), so values of two named things never conflict.

Pure text: no store, no git. `parse` (drift/clauses.py) once per memory,
`compare` per candidate pair, `terms` for the candidate map.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from synapse_git.drift import alternatives, dropped, need_conflicts, thing_conflicts
from synapse_git.drift.clauses import (
    SENTENCE,
    Clause,
    Parsed,
    Subject,
    parse,
    read_clause,
    subject_of,
)
from synapse_git.drift.conflict_words import (
    ANTONYM_OF,
    FIRST_PERSON,
    LABELS,
    NEGATORS,
    SLOT_MARKERS,
    STOP,
    VERBS,
    stem,
)
from synapse_git.drift.value_conflicts import strict_slot, tested_on, values_conflict

__all__ = ["Contradiction", "Parsed", "compare", "contradicts", "parse", "stem"]

# A long flag as written (`--no-frozen-lockfile`), lowercased as the tokens are.
_LONG_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]")
QUOTE_CHARS = 160  # of a sentence an `only` finding quotes
CLAIMS_MOST = 64  # `only X` and `X and Y` claims read from one body, at most


# eq=False, repr=False: nothing compares or prints these, and each generated method
# is compiled when the module loads, which every recall pays for.
@dataclass(frozen=True, eq=False, repr=False)
class Contradiction:
    reason: str  # negation, antonym, value, identifier, alternative, only
    first: str  # what the first body says there
    second: str  # what the second body says there


def _other_subjects(a: Clause, b: Clause) -> bool:
    """Whether the clauses are about two different things: another file, named
    thing or issue before the verb, or another release saying another thing."""
    subject_a, subject_b = _subject(a), _subject(b)
    if subject_a is None or subject_b is None:
        return False
    (words_a, values_a), (words_b, values_b) = subject_a, subject_b
    if words_a != words_b:
        return True
    if values_a == values_b:
        return False
    # Only a value differs before the verb: `Issue 5123 is about…` names another
    # issue, `Node 18 is required` / `Node 20 is required` is a correction, unless
    # more values differ too (`Flask 3.1 dropped 3.8` / `Flask 3.0 dropped 3.7`).
    if words_a & LABELS:
        return True
    if any(kind == "schedule" for kind, _ in values_a ^ values_b):
        return True  # `the nightly build` and `the weekly build` are two builds
    amounts_a = {(v.kind, v.amount) for _, v in a.values}
    amounts_b = {(v.kind, v.amount) for _, v in b.values}
    return len(amounts_a - amounts_b) >= 2 and len(amounts_b - amounts_a) >= 2


def _subject(clause: Clause) -> Subject | None:
    """What the clause is about: the words before its verb, or those it carries from
    the clause before it; None for none, or for the people keeping the notes (`We
    stay on Kotlin 1.9.24`: the team, not a thing)."""
    if not clause.subject:
        return clause.carried
    if FIRST_PERSON.issuperset(clause.tokens[: clause.subject]):
        return None
    return subject_of(clause)


def _quoted(sentence: str) -> str:
    """A sentence as a finding quotes it: whole, or its first QUOTE_CHARS cut at a word."""
    if len(sentence) <= QUOTE_CHARS:
        return sentence
    return sentence[:QUOTE_CHARS].rsplit(" ", 1)[0] + " …"


@lru_cache(maxsize=1024)
def _sentence_claims(
    text: str,
) -> tuple[tuple[alternatives.Only, ...], tuple[alternatives.Together, ...]]:
    """The `only X` and `X and Y` claims of a body's claim text. They span the clause
    cuts at `and`, so whole sentences are read; only when some body says `only`."""
    only: list[alternatives.Only] = []
    together: list[alternatives.Together] = []
    for part in SENTENCE.split(text):
        sentence = read_clause(part) if part else None
        if sentence is not None:
            found_only, found_together = alternatives.sentence_claims(
                sentence.tokens, sentence.stems, _quoted(sentence.text)
            )
            only += found_only
            together += found_together
        if len(only) >= CLAIMS_MOST or len(together) >= CLAIMS_MOST:
            break  # a huge body: compared by its first claims, not pair by pair
    return tuple(only[:CLAIMS_MOST]), tuple(together[:CLAIMS_MOST])


def _value_conflict(a: Clause, b: Clause) -> Contradiction | None:
    found = values_conflict(a, b)
    return None if found is None else Contradiction("value", *found)


def _polarity_conflict(a: Clause, b: Clause) -> Contradiction | None:
    if a.negated == b.negated or not a.content or not b.content:
        return None
    if len(a.content | b.content) < 2 and not (_has_verb(a) or _has_verb(b)):
        # One word and `no` that word, with no verb on either side (`axum-* and
        # examples/*` / `…, no examples`): a list's item and another list's
        # exclusion, neither a statement (`X is None` / `X is 43200` is one).
        return None
    # A word of its own on each side (`audit job` / `cache job`) means two things:
    # only a statement and its negation, or an elaboration of one, contradict.
    if strict_slot(a.content, b.content) and _near(a, b):
        return Contradiction("negation", a.text, b.text)
    return None


def _has_verb(clause: Clause) -> bool:
    return any(token in VERBS for token in clause.tokens)


def _near(a: Clause, b: Clause) -> bool:
    """Beyond sharing words, the clauses are nearly the same statement."""
    shared = a.content & b.content
    union = a.content | b.content
    if len(shared) >= 3 and (a.content <= b.content or b.content <= a.content):
        return True  # one holds every word of the other: `… with hide_input=True`
    return len(shared) * 3 >= len(union) * 2 or (len(shared) >= 2 and len(union) <= 4)


def _antonym_conflict(a: Clause, b: Clause) -> Contradiction | None:
    for word in a.tokens:
        opposites = ANTONYM_OF.get(word)
        if not opposites:
            continue
        for other in b.tokens:
            if other not in opposites or word in b.tokens or other in a.tokens:
                continue
            rest_a = a.content - {stem(word)}
            rest_b = b.content - {stem(other)}
            # "don't disable it" agrees with "enable it": polarity must match.
            neg_a = a.negated != (word in NEGATORS)
            neg_b = b.negated != (other in NEGATORS)
            if neg_a == neg_b and rest_a and rest_b and strict_slot(rest_a, rest_b):
                return Contradiction(
                    "antonym", a.written[a.tokens.index(word)], b.written[b.tokens.index(other)]
                )
    return None


def _identifier_conflict(a: Clause, b: Clause) -> Contradiction | None:
    """The same clause but for one short span in a slot (`deploy from main`)."""
    left, right = a.tokens, b.tokens
    if abs(len(left) - len(right)) > 1:
        return None
    # One replaced span: a common head, a common tail, a short middle on each side.
    head = 0
    while head < min(len(left), len(right)) and left[head] == right[head]:
        head += 1
    tail = 0
    while (
        tail < min(len(left), len(right)) - head
        and left[len(left) - 1 - tail] == right[len(right) - 1 - tail]
    ):
        tail += 1
    i1, i2, j1, j2 = head, len(left) - tail, head, len(right) - tail
    if not (0 < i2 - i1 <= 2 and 0 < j2 - j1 <= 2) or i1 == 0:
        return None
    if _denied_before(a, i1) and _denied_before(b, j1):
        return None  # `does not use the alias` / `does not use feature flags`: both hold
    before = a.tokens[i1 - 1]
    span_a, span_b = a.tokens[i1:i2], b.tokens[j1:j2]
    if _a_path(span_a) != _a_path(span_b):
        return None  # `is .github/workflows/release.yml` / `is hand-written`: two kinds
    if before not in SLOT_MARKERS and not before.endswith(":"):
        return None
    if tested_on(a, i1) and tested_on(b, j1):
        return None  # `runs the tests on stable` / `… on beta`: two entries of a matrix
    if any(t in NEGATORS or t in STOP for t in (*span_a, *span_b)):
        return None
    held_a = {position for position, _ in a.values}
    held_b = {position for position, _ in b.values}
    if held_a & set(range(i1, i2)) and held_b & set(range(j1, j2)):
        return None  # values are compared by their amounts, in the value rule
    if i2 in held_a or j2 in held_b:
        return None  # the span names what a version is of: `SQLite 3` / `Jinja 3`
    if not (a.content & b.content) - {stem(before)}:
        return None  # only the slot's own verb is shared: `use .env locally` / `use X`
    return Contradiction("identifier", " ".join(a.written[i1:i2]), " ".join(b.written[j1:j2]))


def _a_path(span: tuple[str, ...]) -> bool:
    return any("/" in token for token in span)


def _denied_before(clause: Clause, position: int) -> bool:
    """Whether a negator stands before `position`: what follows it is denied (`does
    not use X`), where one after it belongs to what the clause adds (`… REFLECT when
    the property is not given`)."""
    return clause.negated and any(token in NEGATORS for token in clause.tokens[:position])


def _flag_conflict(a: Clause, b: Clause) -> Contradiction | None:
    """One command's flag and its `--no-` form (`pnpm install --frozen-lockfile` /
    `pnpm install --no-frozen-lockfile`): the same word right before each, neither
    clause denying what it says."""
    if a.negated or b.negated:
        return None
    flags_b = _flags(b)
    for (before, name), written in _flags(a).items():
        other = name.removeprefix("no-") if name.startswith("no-") else f"no-{name}"
        if (before, other) in flags_b:
            return Contradiction("antonym", written, flags_b[before, other])
    return None


def _flags(clause: Clause) -> dict[tuple[str, str], str]:
    """The long flags a clause writes (`--no-frozen-lockfile`), by the word right
    before each and the flag's name, to the flag as written; the tokens keep no
    dashes, the clause's text does."""
    written = set(_LONG_FLAG.findall(clause.text.lower()))
    return {
        (clause.tokens[i - 1], token): f"--{clause.written[i]}"
        for i, token in enumerate(clause.tokens)
        if i > 0 and f"--{token}" in written
    }


def _tool_conflict(a: Clause, b: Clause, first: Parsed, second: Parsed) -> Contradiction | None:
    if not (a.tools and b.tools) or a.tools == b.tools:
        return None
    found = alternatives.tool_against_tool(
        a.tools, a.content, b.tools, b.content, first.tools, second.tools
    )
    if found is None:
        return None
    x, y = found
    return Contradiction("alternative", a.written[a.tokens.index(x)], b.written[b.tokens.index(y)])


def _said(found: thing_conflicts.Found | None) -> Contradiction | None:
    return None if found is None else Contradiction(*found)


def _only_conflict(first: Parsed, second: Parsed) -> Contradiction | None:
    """`only X` in one body where the other says `X and Y` of the same thing."""
    if first.says_only:
        found = alternatives.only_against_more(
            _sentence_claims(first.text)[0], _sentence_claims(second.text)[1]
        )
        if found is not None:
            return Contradiction("only", found[0].text, found[1].text)
    if second.says_only:
        found = alternatives.only_against_more(
            _sentence_claims(second.text)[0], _sentence_claims(first.text)[1]
        )
        if found is not None:
            return Contradiction("only", found[1].text, found[0].text)
    return None


def _same_words(found: Contradiction) -> bool:
    """A "contradiction" quoting the same thing on both sides says nothing new."""
    return found.reason != "negation" and found.first.casefold() == found.second.casefold()


def compare(first: Parsed, second: Parsed) -> Contradiction | None:
    """The first contradiction between the two bodies, or None."""
    for a in first.clauses:
        for b in second.clauses:
            if not (a.content & b.content):
                continue
            if _other_subjects(a, b):
                # About two different things (another file, release, issue), but for
                # a thing said unused, which is that clause's subject, and two things
                # each said to hold a role that one holds.
                found = (
                    _said(thing_conflicts.unused(a, b, True))
                    or _said(thing_conflicts.unused(b, a, True))
                    or _said(thing_conflicts.role(a, b))
                    or _said(thing_conflicts.nobody(a, b))
                    or _said(thing_conflicts.nobody(b, a))
                )
                if found is not None:
                    return found
                continue
            found = (
                _value_conflict(a, b)
                or _antonym_conflict(a, b)
                or _polarity_conflict(a, b)
                or _identifier_conflict(a, b)
                or _flag_conflict(a, b)
                or _tool_conflict(a, b, first, second)
                or _said(thing_conflicts.unused(a, b))
                or _said(thing_conflicts.unused(b, a))
                or _said(thing_conflicts.gone(a, b))
                or _said(thing_conflicts.gone(b, a))
                or _said(thing_conflicts.nobody(a, b))
                or _said(thing_conflicts.nobody(b, a))
                or _said(need_conflicts.denied(a, b))
                or _said(need_conflicts.denied(b, a))
            )
            if found is not None and not _same_words(found):
                return found
    return _only_conflict(first, second) or _dropped_conflict(first, second)


def _dropped_conflict(first: Parsed, second: Parsed) -> Contradiction | None:
    """A tool one note says is not used where the other uses it."""
    found = dropped.against(first.names, second.names)
    if found is not None:
        return Contradiction("dropped", found[0], found[1])
    found = dropped.against(second.names, first.names)
    if found is not None:
        return Contradiction("dropped", found[1], found[0])
    return None


def contradicts(first: str, second: str) -> Contradiction | None:
    """Whether two bodies contradict each other (parsing both)."""
    return compare(parse(first), parse(second))
