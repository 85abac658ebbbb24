"""Two clauses giving different values of one kind in the same slot (docs/drift.md,
conflicts): `30 s` / `60 s`, `port 8080` / `port 8081`, `Python 3.11` / `3.12`. A
value is of the name written right before it, or of the clause's subject; the words
around it name its slot. Part of drift/conflicts.py's comparison of two clauses."""

from __future__ import annotations

from synapse_git.drift.clauses import CLOCK, Clause, Value, subject_of
from synapse_git.drift.conflict_words import CHANGES, WHEN, stem

_TESTED = stem("tests")  # `CI tests Node 18`, `tested on Go 1.20`
_PLACED = frozenset({"on", "against", "with", "under"})
# Words of a clause about what is to come (`edition 2024 waits for MSRV 1.85`): its
# values are not the ones a thing has now.
_AWAITED = frozenset({"wait", "waits", "waiting", "planned", "eventually"})


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


def _named_by(clause: Clause, position: int, value: Value) -> str:
    """The thing a value is of, when a name stands right before it (`Werkzeug 3.0`,
    `port 8080`); "" otherwise (`is 30 s`, and any schedule: `checks weekly`)."""
    if position == 0 or value.kind == "schedule":
        return ""
    return clause.stems[position - 1]


def _counts(clause: Clause, position: int, value: Value, name: str) -> bool:
    """Whether a plain number counts what `name` names, written right after it (`two
    nodes`, `3 Postgres replicas`): a release is written after its name (`Node 22`),
    a count before what it counts."""
    if not name or value.kind != "number" or position + 1 >= len(clause.stems):
        return False
    if clause.stems[position + 1] != name:
        return False
    # Written together: `is 21 (jdk in the catalog)` is no count of JDKs.
    return f"{clause.written[position]} {clause.written[position + 1]}" in clause.text


def _value_window(clause: Clause, position: int, kind: str) -> frozenset[str]:
    """The words naming a value's slot. What a schedule applies to stands before it;
    after it come its details (`nightly at 02:00`, `weekly on Mondays`)."""
    window = _window(clause, position)
    if kind == "schedule":
        return frozenset(w for w in window if w not in WHEN and not CLOCK.match(w))
    return window


def _one_of_a_matrix(clause: Clause, position: int, value: Value) -> bool:
    """A value tested, alone of its kind in its sentence (`CI tests Node 18`): one
    entry of a matrix that may hold others, not the one value of a slot. A list
    (`tests Go 1.19 and 1.20`) reads as the whole matrix and is compared."""
    if value.kind in clause.listed:
        return False
    if clause.negated or position < 2 or "only" in clause.tokens:
        return False
    # The testing verb stands before the value's name (`tests Node 18`), or before a
    # word placing it there (`tested on Go 1.20`); `Tests require Python 3.11`
    # names what the tests need, one value.
    verb = position - 2
    if clause.tokens[verb] in _PLACED and verb > 0:
        verb -= 1
    return verb > 0 and clause.stems[verb] == _TESTED


def tested_on(clause: Clause, position: int) -> bool:
    """Whether the word at `position` is what tests run on (`runs the tests on
    stable`, `tested against beta`): one entry of a matrix, as `tested on Go 1.20`
    is, not the one toolchain of a slot; unless the clause says `only` or denies."""
    if clause.negated or position < 2 or "only" in clause.tokens:
        return False
    return clause.tokens[position - 1] in _PLACED and clause.stems[position - 2] == _TESTED


def _names_the_thing(clause: Clause, position: int, value: Value) -> bool:
    """A schedule in the clause's subject names which thing it is (`The nightly
    workflow runs the full suite`), as `nightly build` and `weekly build` are two
    builds: no schedule that thing keeps."""
    return value.kind == "schedule" and position < clause.subject


def values_conflict(a: Clause, b: Clause) -> tuple[str, str] | None:
    """Two values of one kind in one slot that differ (`30 s` / `60 s`, `port 8080` /
    `port 8081`): what each clause says there, or None."""
    if not _AWAITED.isdisjoint(a.tokens) or not _AWAITED.isdisjoint(b.tokens):
        return None
    # Keyed by what each value is of: `Flask 3.0 requires Werkzeug 3.0` holds two
    # different 3.0s, and `Werkzeug 2.3` contradicts only the second.
    b_amounts = {(_named_by(b, p, v), v.kind, v.amount) for p, v in b.values}
    a_amounts = {(_named_by(a, p, v), v.kind, v.amount) for p, v in a.values}
    for pos_a, value_a in a.values:
        name_a = _named_by(a, pos_a, value_a)
        if (name_a, value_a.kind, value_a.amount) in b_amounts:
            continue  # b says the same value somewhere: an elaboration, or another role
        if _one_of_a_matrix(a, pos_a, value_a) or _names_the_thing(a, pos_a, value_a):
            continue
        window_a = _value_window(a, pos_a, value_a.kind)
        for pos_b, value_b in b.values:
            name_b = _named_by(b, pos_b, value_b)
            if (name_b, value_b.kind, value_b.amount) in a_amounts:
                continue
            if _one_of_a_matrix(b, pos_b, value_b) or _names_the_thing(b, pos_b, value_b):
                continue
            if value_b.kind != value_a.kind and not _release_of(name_a, name_b, value_a, value_b):
                continue
            if value_b.amount == value_a.amount:
                continue  # the same value, whatever it is said to be of
            if name_a and name_b and name_a != name_b:
                continue  # versions of two different things
            if _counts(a, pos_a, value_a, name_b) or _counts(b, pos_b, value_b, name_a):
                continue  # `two Postgres replicas` / `Postgres 16`: a count, not a release
            if _of_the_subject(a, pos_a, value_a, name_b, b) or _of_the_subject(
                b, pos_b, value_b, name_a, a
            ):
                return a.written[pos_a], b.written[pos_b]
            window_b = _value_window(b, pos_b, value_b.kind)
            if window_a and window_b and strict_slot(window_a, window_b):
                return a.written[pos_a], b.written[pos_b]
    return None


def _of_the_subject(clause: Clause, position: int, value: Value, name: str, other: Clause) -> bool:
    """Whether a value with no name of its own, after the verb, is of the thing the
    clause's subject names and the other clause names right before its value: `The
    toolchain JDK is 21` / `Build with JDK 17`, `The Kotlin version is pinned to
    2.0.0` / `use Kotlin 1.9.24`. Not when either clause tells of a change (`We
    dropped Python 3.8` / `The Python version is 3.12`) or denies something."""
    if not name or not clause.subject or position < clause.subject:
        return False
    if _named_by(clause, position, value):
        return False
    if clause.negated or other.negated:
        return False
    if any(word in CHANGES for word in (*clause.stems, *other.stems)):
        return False
    return name in subject_of(clause)[0]


def _release_of(name_a: str, name_b: str, a: Value, b: Value) -> bool:
    """A dotted version and a plain number right after the same name are two releases
    of one thing (`Node.js 0.10` / `Node.js 18`), unless one is the start of the other
    (`Python 3` / `Python 3.12`)."""
    if not name_a or name_a != name_b or {a.kind, b.kind} != {"version", "number"}:
        return False
    dotted, plain = (a, b) if a.kind == "version" else (b, a)
    return plain.amount.isdigit() and not dotted.amount.startswith(plain.amount + ".")


def strict_slot(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two values share a slot when the words around them agree; differing words on
    both sides (`api port` / `metrics port`) mean different things."""
    shared = a & b
    if not shared:
        return False
    return not (a - b) or not (b - a)
