"""Do two memories say opposite things about the same thing? (§7 conflict)

Each body is cut into clauses. Two clauses conflict when they are about the
same thing — decided from the words around the differing token, not from the
overall overlap — and one of these holds:

- one negates what the other asserts (not, never, no longer, don't, avoid…);
- they hold an antonym pair in the same place (enabled/disabled, sync/async…);
- they carry different values of one kind in the same slot (30 s / 60 s,
  port 8080 / 8081, Python 3.11 / 3.12);
- they read the same except one short identifier after a slot word
  (`deploy from main` / `deploy from release`).

Pure text: no store, no git. `parse` once per memory, `compare` per candidate
pair, `terms` for the candidate map.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry no subject: a differing one never makes two clauses different things.
STOP = _words(
    """
    a an the is are was were be been being am to of for in on at by with from into onto as
    and or but so it its this that these those there here we you i our your they them their
    he she his her us my me do does did has have had having will would shall should must
    can could may might now currently still also just then than when which who what where
    how all any each every some via per please make sure set default value new old
    instead only really very always usually generally here's it's that's we're too
    """
)
# Negators flip a clause's polarity; "no longer" counts once through "no".
NEGATORS = _words(
    """
    not no never none nobody nothing nowhere neither nor cannot without
    don't dont doesn't doesnt isn't isnt aren't arent wasn't wasnt weren't won't wont
    can't cant shouldn't shouldnt mustn't mustnt didn't didnt hasn't haven't hadn't
    avoid avoids avoided stop stopped
    """
)
_FILLER_WITH_NEGATION = _words("longer anymore more")

# Antonym pairs: the same place holding one side in each clause is a contradiction.
ANTONYMS: tuple[tuple[str, str], ...] = (
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("enables", "disables"),
    ("allow", "forbid"),
    ("allow", "deny"),
    ("allowed", "forbidden"),
    ("allowed", "denied"),
    ("true", "false"),
    ("on", "off"),
    ("sync", "async"),
    ("synchronous", "asynchronous"),
    ("synchronously", "asynchronously"),
    ("always", "never"),
    ("include", "exclude"),
    ("included", "excluded"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("public", "private"),
    ("increase", "decrease"),
    ("accept", "reject"),
    ("accepted", "rejected"),
    ("before", "after"),
    ("with", "without"),
    ("mutable", "immutable"),
    ("blocking", "nonblocking"),
    ("blocking", "non-blocking"),
    ("supported", "unsupported"),
    ("valid", "invalid"),
    ("safe", "unsafe"),
    ("lowercase", "uppercase"),
    ("tabs", "spaces"),
    ("local", "remote"),
    ("static", "dynamic"),
    ("manual", "automatic"),
    ("manually", "automatically"),
    ("works", "fails"),
    ("passes", "fails"),
    ("succeeds", "fails"),
    ("online", "offline"),
    ("up", "down"),
    ("yes", "no"),
)
_ANTONYM_OF: dict[str, set[str]] = {}
for _a, _b in ANTONYMS:
    _ANTONYM_OF.setdefault(_a, set()).add(_b)
    _ANTONYM_OF.setdefault(_b, set()).add(_a)

# A token right after one of these fills a slot: `from main`, `port 8080`, `is 30`.
SLOT_MARKERS = _words(
    """
    from to on in into at with via over every using use uses used is are was be = : by as under
    named called branch port version runs run prefer prefers target targets against
    python node go java ruby rust postgres mysql redis
    """
)

_UNITS: dict[str, tuple[str, float]] = {
    "ms": ("duration", 0.001),
    "millisecond": ("duration", 0.001),
    "milliseconds": ("duration", 0.001),
    "s": ("duration", 1),
    "sec": ("duration", 1),
    "secs": ("duration", 1),
    "second": ("duration", 1),
    "seconds": ("duration", 1),
    "m": ("duration", 60),
    "min": ("duration", 60),
    "mins": ("duration", 60),
    "minute": ("duration", 60),
    "minutes": ("duration", 60),
    "h": ("duration", 3600),
    "hr": ("duration", 3600),
    "hrs": ("duration", 3600),
    "hour": ("duration", 3600),
    "hours": ("duration", 3600),
    "d": ("duration", 86400),
    "day": ("duration", 86400),
    "days": ("duration", 86400),
    "week": ("duration", 604800),
    "weeks": ("duration", 604800),
    "b": ("size", 1),
    "byte": ("size", 1),
    "bytes": ("size", 1),
    "kb": ("size", 1e3),
    "kib": ("size", 1024),
    "mb": ("size", 1e6),
    "mib": ("size", 1024**2),
    "gb": ("size", 1e9),
    "gib": ("size", 1024**3),
    "%": ("percent", 1),
    "percent": ("percent", 1),
    "x": ("factor", 1),
}

_TOKEN = re.compile(r"[A-Za-z0-9_%][A-Za-z0-9_.'%/:+-]*[A-Za-z0-9_%]|[A-Za-z0-9_%]|[=:]")
_CLAUSE = re.compile(r"[.;!?](?=\s|$)|\n|,\s|\s(?:but|however|whereas|while|and|though)\s", re.I)
_NUMBER = re.compile(r"^(v?)(\d+(?:\.\d+)*)([a-z%]*)$")


@dataclass(frozen=True)
class Value:
    kind: str  # duration, size, percent, factor, version, number
    amount: str  # normalized for comparison
    text: str  # as written


@dataclass(frozen=True)
class Clause:
    tokens: tuple[str, ...]  # lowercased, articles dropped, number+unit merged
    stems: tuple[str, ...]  # per token: its stem, or "" for values, stop words, negators
    content: frozenset[str]  # stems of subject-bearing words (no values, no negators)
    negated: bool
    values: tuple[tuple[int, Value], ...]  # position in tokens, value
    text: str


@dataclass(frozen=True)
class Parsed:
    clauses: tuple[Clause, ...]
    terms: frozenset[str]  # content stems of the whole body, for the candidate map


@dataclass(frozen=True)
class Contradiction:
    reason: str  # negation, antonym, value, identifier
    first: str  # what the first body says there
    second: str  # what the second body says there


def stem(word: str) -> str:
    """A crude, stable stem: enough to match `timeouts`/`timeout`, `runs`/`run`."""
    word = word.lower().removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _value(token: str, following: str | None) -> tuple[Value | None, bool]:
    """The value `token` holds (merging a unit word that follows) and whether the
    unit word was consumed."""
    match = _NUMBER.match(token)
    if match is None:
        return None, False
    prefix, digits, unit = match.groups()
    consumed = False
    if not unit and following is not None and following in _UNITS:
        unit, consumed = following, True
    if unit in _UNITS:
        kind, scale = _UNITS[unit]
        try:
            amount = float(digits) * scale
        except ValueError:
            return Value("version", digits, token), consumed
        return Value(kind, f"{amount:g}", f"{token} {following}" if consumed else token), consumed
    if prefix or "." in digits:
        return Value("version", digits.rstrip("0").rstrip(".") or "0", token), False
    if unit:
        return Value("number", digits + unit, token), False
    return Value("number", digits, token), False


def _clause(text: str) -> Clause | None:
    raw = [token.lower().replace("\u2019", "'") for token in _TOKEN.findall(text)]
    tokens: list[str] = []
    values: list[tuple[int, Value]] = []
    index = 0
    while index < len(raw):
        token = raw[index]
        following = raw[index + 1] if index + 1 < len(raw) else None
        value, consumed = _value(token, following)
        if value is not None and following == ":" and not consumed:
            value = None  # a label (`Step 3:`, `Issue 42:`), not a value
        if value is not None:
            values.append((len(tokens), value))
            tokens.append(value.text)
            index += 2 if consumed else 1
            continue
        if token not in ("a", "an", "the"):
            tokens.append(token)
        index += 1
    if not tokens:
        return None
    negations = sum(token in NEGATORS or token.endswith("n't") for token in tokens)
    held = {position for position, _ in values}
    stems = tuple(
        ""
        if position in held
        or token in STOP
        or token in NEGATORS
        or token in _FILLER_WITH_NEGATION
        or token.endswith("n't")
        or token in ("=", ":")
        else stem(token)
        for position, token in enumerate(tokens)
    )
    content = frozenset(word for word in stems if word)
    return Clause(tuple(tokens), stems, content, negations % 2 == 1, tuple(values), text.strip())


def parse(body: str) -> Parsed:
    clauses = [
        found for part in _CLAUSE.split(body) if part and (found := _clause(part)) is not None
    ]
    terms = frozenset().union(*(clause.content for clause in clauses)) if clauses else frozenset()
    return Parsed(tuple(clauses), terms)


def _close(a: frozenset[str], b: frozenset[str]) -> bool:
    """Same subject: they share words and, where both have words of their own, the
    shared part dominates (one extra word each at most)."""
    shared = a & b
    if not shared:
        return False
    only_a, only_b = a - b, b - a
    if not only_a or not only_b:
        return True
    return len(only_a) <= 1 and len(only_b) <= 1 and len(shared) >= 3


def _window(clause: Clause, position: int, left: int = 3, right: int = 2) -> frozenset[str]:
    """Content stems near `position`: the words around a value name its slot."""
    words: list[str] = []
    stems = clause.stems
    for step, limit in ((-1, left), (1, right)):
        found = 0
        cursor = position + step
        while 0 <= cursor < len(stems) and found < limit:
            if stems[cursor]:
                words.append(stems[cursor])
                found += 1
            cursor += step
    return frozenset(words)


def _values_conflict(a: Clause, b: Clause) -> Contradiction | None:
    b_amounts = {(value.kind, value.amount) for _, value in b.values}
    a_amounts = {(value.kind, value.amount) for _, value in a.values}
    for pos_a, value_a in a.values:
        if (value_a.kind, value_a.amount) in b_amounts:
            continue  # b says the same value somewhere: an elaboration, or another role
        window_a = _window(a, pos_a)
        for pos_b, value_b in b.values:
            if value_b.kind != value_a.kind or (value_b.kind, value_b.amount) in a_amounts:
                continue
            window_b = _window(b, pos_b)
            if window_a and window_b and _strict_slot(window_a, window_b):
                return Contradiction("value", value_a.text, value_b.text)
    return None


def _strict_slot(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two values share a slot when the words around them agree; differing words on
    both sides (`api port` / `metrics port`) mean different things."""
    shared = a & b
    if not shared:
        return False
    return not (a - b) or not (b - a)


def _polarity_conflict(a: Clause, b: Clause) -> Contradiction | None:
    if a.negated == b.negated or not a.content or not b.content:
        return None
    # A word of its own on each side (`audit job` / `cache job`) means two things:
    # only a statement and its negation, or an elaboration of one, contradict.
    if _strict_slot(a.content, b.content) and _near(a, b):
        return Contradiction("negation", a.text, b.text)
    return None


def _near(a: Clause, b: Clause) -> bool:
    """Beyond sharing words, the clauses are nearly the same statement."""
    shared = a.content & b.content
    union = a.content | b.content
    return len(shared) * 3 >= len(union) * 2 or (len(shared) >= 2 and len(union) <= 4)


def _antonym_conflict(a: Clause, b: Clause) -> Contradiction | None:
    for word in a.tokens:
        opposites = _ANTONYM_OF.get(word)
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
            if neg_a == neg_b and rest_a and rest_b and _strict_slot(rest_a, rest_b):
                return Contradiction("antonym", word, other)
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
    before = a.tokens[i1 - 1]
    span_a, span_b = a.tokens[i1:i2], b.tokens[j1:j2]
    if before not in SLOT_MARKERS and not before.endswith(":"):
        return None
    if any(t in NEGATORS or t in STOP for t in (*span_a, *span_b)):
        return None
    held_a = {position for position, _ in a.values}
    held_b = {position for position, _ in b.values}
    if held_a & set(range(i1, i2)) or held_b & set(range(j1, j2)):
        return None  # values are compared by their amounts, in the value rule
    if len(a.content & b.content) < 1:
        return None
    return Contradiction("identifier", " ".join(span_a), " ".join(span_b))


def compare(first: Parsed, second: Parsed) -> Contradiction | None:
    """The first contradiction between the two bodies, or None."""
    for a in first.clauses:
        for b in second.clauses:
            if not (a.content & b.content):
                continue
            found = (
                _values_conflict(a, b)
                or _antonym_conflict(a, b)
                or _polarity_conflict(a, b)
                or _identifier_conflict(a, b)
            )
            if found is not None:
                return found
    return None


def contradicts(first: str, second: str) -> Contradiction | None:
    """Whether two bodies contradict each other (parsing both)."""
    return compare(parse(first), parse(second))
