"""A memory's body cut into clauses (docs/drift.md, conflicts): tokens lowercased with
articles dropped, values of a kind (durations, sizes, versions, schedules) with the
number and unit joined, negation, the subject before the first verb, and the tools
named. Pure text: `parse` once per memory; drift/conflicts.py compares what it gives."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from synapse_git.drift import alternatives, dropped
from synapse_git.drift.conflict_words import (
    FILLER_WITH_NEGATION,
    LABELS,
    NEGATORS,
    NUMBER_WORDS,
    PERIODS,
    SCHEDULES,
    STOP,
    TOOL_ROLES,
    TRIGGERS,
    UNITS,
    VERBS,
    stem,
)
from synapse_git.drift.note_text import claims

# A leading dot is kept: `.github/CODEOWNERS` and `.env` are quoted as written.
_TOKEN = re.compile(r"\.?[A-Za-z0-9_%][A-Za-z0-9_.'%/:+-]*[A-Za-z0-9_%]|[A-Za-z0-9_%]|[=:]")
CLOCK = re.compile(r"^\d{1,2}(?::\d\d)?(?:am|pm)?$")
_ONLY = re.compile(r"\bonly\b", re.I)
SENTENCE = re.compile(r"[.;!?](?=\s|$)|\n")
_CLAUSE = re.compile(r"[.;!?](?=\s|$)|\n|,\s|\s(?:but|however|whereas|while|and|though)\s", re.I)
_AND = re.compile(r"\sand\s", re.I)
_WORD = re.compile(r"[A-Za-z']+")
# Participles that end a verb chain joined by `and`: `was tried and dropped`.
_ENDING = frozenset({"dropped", "removed", "deleted", "abandoned", "reverted"})
# A trailing `.x` or `.*` (`Go 1.20.x`, `Node 18.x`) is a release line: a version.
_ZERO_PARTS = re.compile(r"(?<=\d)(?:\.0+)+$")
_NUMBER = re.compile(r"^(v?)(\d+(?:\.\d+)*)(\.[x*])?([a-z%]*)$")
SLOT_WORDS = 3  # words before a value that name its slot in the candidate map
# A host and its port written as one (`127.0.0.1:3000`, `localhost:8080`): what a
# server binds, a value like `port 8080`; without the port an IPv4 address stays
# what it reads as (a dotted number).
_ADDRESS = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3}){3}|localhost):\d{1,5}$")
# A C or C++ language standard (`C99`, `gnu11`, `C++17`): one token naming a
# version of the language, a value like `Python 3.12`.
_STANDARD = re.compile(
    r"^(?:c|gnu)(?:89|90|99|11|17|18|23)$|^(?:c|gnu)\+\+(?:98|03|11|14|17|20|23|26)$"
)


# eq=False, repr=False: nothing compares or prints these, and each generated method
# is compiled when the module loads, which every recall pays for.
@dataclass(frozen=True, eq=False, repr=False)
class Value:
    kind: str  # duration, size, percent, factor, version, number, schedule, address, standard
    amount: str  # normalized for comparison
    text: str  # as written


Subject = tuple[frozenset[str], frozenset[tuple[str, str]]]  # words, (kind, amount) values


@dataclass(frozen=True, eq=False, repr=False)
class Clause:
    tokens: tuple[str, ...]  # lowercased, articles dropped, number+unit merged
    stems: tuple[str, ...]  # per token: its stem, or "" for values, stop words, negators
    content: frozenset[str]  # stems of subject-bearing words (no values, no negators)
    negated: bool
    values: tuple[tuple[int, Value], ...]  # position in tokens, value
    text: str
    written: tuple[str, ...]  # per token: as written (case kept), for quoting
    subject: int  # tokens before the first verb name what the clause is about; 0 if none
    tools: frozenset[str] = frozenset()  # known tools the clause names
    listed: frozenset[str] = frozenset()  # kinds of value its sentence holds more than one of
    # Cut at `and` with no subject of its own (`X is ci.yml and runs on every push`):
    # the subject of the clause before, which the `and` goes on talking about.
    carried: Subject | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Parsed:
    clauses: tuple[Clause, ...]
    terms: frozenset[str]  # content stems of the whole body, for the candidate map
    text: str = ""  # the claims of the body, markup and front matter left out
    says_only: bool = False  # whether `text` has the word `only`
    tools: frozenset[str] = frozenset()  # known tools the body names
    names: dropped.Names = dropped.NONE  # tools and options used, and said not to be


def _period(word: str) -> float | None:
    return PERIODS.get(word) or PERIODS.get(word.removesuffix("s"))


def _schedule(raw: list[str], index: int) -> tuple[Value, int] | None:
    """How often, at `raw[index]`: `weekly`, `every 2 weeks`, `once a month`, `on
    every push`; with the number of tokens it takes."""
    token = raw[index]
    if token in SCHEDULES:
        return Value("schedule", f"{SCHEDULES[token]:g}", token), 1
    ahead = raw[index + 1 : index + 4]
    if token in ("every", "each") and ahead:
        count, taken = 1.0, 1
        if ahead[0].isdigit() or ahead[0] in NUMBER_WORDS:
            count = float(NUMBER_WORDS.get(ahead[0], ahead[0]))
            taken = 2
        elif ahead[0] == "other":
            count, taken = 2.0, 2
        word = raw[index + taken] if index + taken < len(raw) else ""
        period = _period(word)
        if period is not None:
            return Value(
                "schedule", f"{count * period:g}", " ".join(raw[index : index + taken + 1])
            ), taken + 1
        if taken == 1 and word in TRIGGERS:
            return Value("schedule", word, f"{token} {word}"), 2
    if token in ("once", "twice") and len(ahead) >= 2 and ahead[0] in ("a", "per"):
        period = _period(ahead[1])
        if period is not None:
            amount = period / (1 if token == "once" else 2)
            return Value("schedule", f"{amount:g}", " ".join(raw[index : index + 3])), 3
    return None


def _value(token: str, following: str | None) -> tuple[Value | None, bool]:
    """The value `token` holds (merging a unit word that follows) and whether the
    unit word was consumed."""
    if token in NUMBER_WORDS:
        # `six months`, `two weeks`: a count of a unit is an amount of it, compared
        # with `30 days` by what it comes to. A one-letter unit (`s`, `m`) after a
        # word is no unit.
        if following is not None and len(following) > 1 and following in UNITS:
            kind, scale = UNITS[following]
            amount = float(NUMBER_WORDS[token]) * scale
            return Value(kind, f"{amount:g}", f"{token} {following}"), True
        return Value("number", NUMBER_WORDS[token], token), False
    if ":" in token and _ADDRESS.match(token):
        return Value("address", token, token), False
    if token[0] in "cg" and token[-1].isdigit() and _STANDARD.match(token):
        return Value("standard", token, token), False
    if not (token[0].isdigit() or (token[0] == "v" and token[1:2].isdigit())):
        return None, False  # most tokens: not a number, no regex needed
    match = _NUMBER.match(token)
    if match is None:
        return None, False
    prefix, digits, line, unit = match.groups()
    consumed = False
    if not unit and following is not None and following in UNITS:
        unit, consumed = following, True
    if unit in UNITS:
        kind, scale = UNITS[unit]
        try:
            amount = float(digits) * scale
        except ValueError:
            return Value("version", digits, token), consumed
        return Value(kind, f"{amount:g}", f"{token} {following}" if consumed else token), consumed
    if prefix or line or "." in digits:
        # Zero parts at the end say nothing (`3.0` is `3`); other zeros do (`1.20`, `v10`).
        return Value("version", _ZERO_PARTS.sub("", digits), token), False
    if unit:
        return Value("number", digits + unit, token), False
    return Value("number", digits, token), False


def _labels(before: list[str]) -> bool:
    """Whether a number followed by a colon, after the clause's `before` tokens, is a
    label: at the start of the clause or after a labelling noun (`Step 3:`, `see issue
    42:`). Further on it is a value the colon goes on to explain (`Build with JDK 17:
    the toolchain asks for it`)."""
    return len(before) <= 1 or stem(before[-1]) in LABELS


@lru_cache(maxsize=1 << 16)
def _negator(token: str) -> bool:
    return token in NEGATORS or token.endswith("n't")


@lru_cache(maxsize=1 << 16)
def _content_stem(token: str) -> str:
    """The stem of a subject-bearing word; "" for stop words, negators, signs."""
    if token in STOP or _negator(token) or token in FILLER_WITH_NEGATION or token in "=:":
        return ""
    return stem(token)


def read_clause(text: str) -> Clause | None:
    found = _TOKEN.findall(text.replace("\u2019", "'"))
    raw = [token.lower() for token in found]
    tokens: list[str] = []
    written: list[str] = []
    values: list[tuple[int, Value]] = []
    index = 0
    while index < len(raw):
        token = raw[index]
        schedule = _schedule(raw, index)
        if schedule is not None:
            how_often, taken = schedule
            values.append((len(tokens), how_often))
            tokens.append(how_often.text)
            written.append(" ".join(found[index : index + taken]))
            index += taken
            continue
        following = raw[index + 1] if index + 1 < len(raw) else None
        value, consumed = _value(token, following)
        if value is not None and following == ":" and not consumed and _labels(tokens):
            value = None  # a label (`Step 3:`, `Issue 42:`), not a value
        if value is not None:
            values.append((len(tokens), value))
            tokens.append(value.text)
            written.append(" ".join(found[index : index + (2 if consumed else 1)]))
            index += 2 if consumed else 1
            continue
        if token not in ("a", "an", "the"):
            tokens.append(token)
            written.append(found[index])
        index += 1
    if not tokens:
        return None
    negations = sum(_negator(token) for token in tokens)
    held = {position for position, _ in values}
    stems = tuple(
        "" if position in held else _content_stem(token) for position, token in enumerate(tokens)
    )
    content = frozenset(word for word in stems if word)
    return Clause(
        tuple(tokens),
        stems,
        content,
        negations % 2 == 1,
        tuple(values),
        text.strip(),
        tuple(written),
        next((end for end, token in enumerate(tokens) if token in VERBS), 0),
        alternatives.tools_in(tokens),
    )


def subject_of(clause: Clause) -> Subject:
    """The words and the values before the clause's first verb: the thing it is
    about (`Type hints in src/a.py are checked`). Empty when no verb is found or the
    clause starts with one (`Deploy from main`)."""
    held = dict(clause.values)
    words = {clause.stems[p] for p in range(clause.subject) if p not in held}
    values = {(held[p].kind, held[p].amount) for p in range(clause.subject) if p in held}
    return frozenset(word for word in words if word), frozenset(values)


def parse(body: str) -> Parsed:
    """The clauses of `body`; short bodies are remembered, as the same memories are
    compared again and again (recall after recall in a long-lived server)."""
    return _parse_cached(body) if len(body) <= 4096 else _parse(body)


@lru_cache(maxsize=4096)
def _parse_cached(body: str) -> Parsed:
    return _parse(body)


def _contrast(clause: Clause) -> bool:
    """A negator and no verb after a comma (`…, not the test helper`)."""
    return (
        bool(clause.tokens)
        and _negator(clause.tokens[0])
        and not any(token in VERBS for token in clause.tokens)
    )


def _contrasted(clause: Clause, before: Clause) -> Clause:
    """`X is in utils.js, not the test helper` denies the test helper of the
    sentence's subject: the clause carries the subject's words, else it would deny
    whatever another note says of test helpers."""
    words, _ = subject_of(before)
    return replace(clause, content=clause.content | words) if words else clause


def _slot_terms(clause: Clause) -> set[str]:
    """`word#kind` for the content words before each value (three at most): what
    the value is of, as the candidate map pairs it; `#` is in no word."""
    found: set[str] = set()
    for position, value in clause.values:
        words = [word for word in clause.stems[:position] if word][-SLOT_WORDS:]
        found |= {f"{word}#{value.kind}" for word in words}
    return found


def _parts(sentence: str) -> list[tuple[str, bool]]:
    """The sentence cut into clauses, each with whether the cut before it is `and`.
    A lone participle after `and` ends the clause before it (`alpine was tried and
    dropped`): one verb chain, which cut in two says nothing of alpine's end."""
    found: list[tuple[str, bool]] = []
    # A colon followed by a list (`Routes are blocks: the dashboard is get "/", the
    # graphs get "/stats"`) gives examples, not a statement of their own.
    listing = ", " in sentence.partition(": ")[2]
    start, after_and = 0, False
    for cut in _CLAUSE.finditer(sentence):
        _add_part(found, sentence[start : cut.start()], after_and, listing)
        start, after_and = cut.end(), _AND.fullmatch(cut.group()) is not None
    _add_part(found, sentence[start:], after_and, listing)
    return found


def _add_part(found: list[tuple[str, bool]], part: str, after_and: bool, listing: bool) -> None:
    if after_and and found and part.strip().casefold() in _ENDING:
        found[-1] = (f"{found[-1][0]} and {part.strip()}", found[-1][1])
        return
    first, colon, rest = part.partition(": ")
    if colon and not listing and _has_verb(first) and _has_verb(rest):
        # Two statements, the second saying why or how (`Celery tasks run eagerly
        # in tests: CELERY_TASK_ALWAYS_EAGER is True`); a label before a colon (`Spell
        # check: typos reads …`, `Step 3: run …`) has no verb and stays.
        found.append((first, after_and))
        _add_part(found, rest, False, listing)
        return
    found.append((part, after_and))


def _has_verb(text: str) -> bool:
    return any(word.casefold() in VERBS for word in _WORD.findall(text))


def _carried(clause: Clause, before: Clause) -> Clause:
    """A clause cut at `and` that opens with its verb or has none (`… and runs on
    every push`, `… and every pull request`) goes on about the subject of the clause
    before it; it is not a statement about anything at all."""
    if clause.subject:
        return clause
    subject = before.carried if not before.subject else subject_of(before)
    return replace(clause, carried=subject) if subject and subject[0] else clause


def _parse(body: str) -> Parsed:
    text = claims(body)
    clauses: list[Clause] = []
    for sentence in SENTENCE.split(text):
        before: Clause | None = None  # the clause before, in this sentence
        start = len(clauses)
        for part, after_and in _parts(sentence) if sentence else ():
            found = read_clause(part) if part else None
            if found is None:
                continue
            if _contrast(found):
                found = _contrasted(found, before) if before is not None else found
            else:
                if after_and and before is not None:
                    found = _carried(found, before)
                before = found
            clauses.append(found)
        kinds = [value.kind for clause in clauses[start:] for _, value in clause.values]
        listed = frozenset(kind for kind in kinds if kinds.count(kind) > 1)
        if listed:
            clauses[start:] = [replace(clause, listed=listed) for clause in clauses[start:]]
    terms = frozenset().union(*(clause.content for clause in clauses)) if clauses else frozenset()
    tools = frozenset().union(*(clause.tools for clause in clauses))
    # A job its tools do is a term too: `format with black` and `ruff formats` share
    # only `format` otherwise, too little to be paired in the candidate map.
    terms |= {f"{role}()" for tool in tools for role in TOOL_ROLES[tool]}
    # A value's slot is a term too (`msrv#version`): a correction of a value often
    # shares only the slot's word with what it corrects (`Our MSRV is 1.66; do not…`
    # / `The MSRV was bumped to 1.75 so…`), one term, too few to be paired.
    terms |= {term for clause in clauses for term in _slot_terms(clause)}
    names = dropped.names((c.text, c.negated, c.content, c.tools) for c in clauses)
    return Parsed(tuple(clauses), terms, text, _ONLY.search(text) is not None, tools, names)
