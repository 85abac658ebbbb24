"""What one note says of a thing itself, against what another says it does
(docs/drift.md, conflicts): that it is not used (`-race is not used` / `runs go
test with -race`) or taken out (`insta was removed` / `Snapshot tests use
insta`), that it is gone (`The lint session is gone` / `The lint session
runs pre-commit`), or that it is the one thing in a role (`chardet is the default
detector` / `charset_normalizer is the default detector`). Part of
drift/conflicts.py's comparison of two clauses; each rule gives (reason, what the
first clause says, what the second says) or None."""

from __future__ import annotations

from synapse_git.drift import dropped
from synapse_git.drift.clauses import Clause, subject_of
from synapse_git.drift.conflict_words import CHANGES, NEGATORS, STOP, stem

Found = tuple[str, str, str]

_USE = stem("use")
_THROUGH = stem("through")
# What a clause says of a thing that no longer exists: `The lint session is gone`.
_GONE = frozenset(stem(word) for word in ("gone", "removed", "deleted"))
# What a clause says of a thing taken out of the project: `insta was removed`, `the
# builtin copy has been dropped`, `alpine was tried and dropped`; `tried` alone is
# no more than a trial.
_TAKEN_OUT = frozenset(stem(word) for word in ("dropped", "removed", "deleted", "gone"))
_TRIED = stem("tried")
# A negator that is the doer: `_typos.toml is a leftover nobody reads`.
_NOBODY = frozenset({"nobody", "nothing"})
_FILLER = frozenset({"any", "more", "anymore", "longer", "now", "today"})
_WHOLE = frozenset(stem(word) for word in ("project", "repo", "repository", "codebase"))
# Words right before a thing's whole name that use it: `use cross for aarch64`,
# `is built on alpine`.
_USING = frozenset({"use", "uses", "using", "used"})
_BUILT_ON = frozenset({"built", "builds", "based"})
# One thing alone holds these roles: `chardet is the default detector` and
# `charset_normalizer is the default detector` cannot both hold.
_ONE_OF_A_KIND = frozenset({"default", "primary", "only"})
_BE = frozenset({"is", "are"})
# A clause saying where a thing is not used: `… is not used there`.
_HERE = frozenset({"there", "here"})
# Verbs saying a thing is at work for the project, as a clause saying it is not used
# denies: `Celery beat runs the nightly export`.
_AT_WORK = frozenset(
    stem(word)
    for word in (
        *("runs", "schedules", "serves", "handles", "builds"),
        *("sends", "deploys", "checks", "processes"),
    )
)
# Verbs telling what a thing was or did (its history), not what it is now.
_PAST = frozenset({"was", "were", "had", "used", "did"})
# A word right before a name that says the clause uses the thing: `runs go test
# with -race`, `formatted by google-java-format`.
_MEANS = frozenset({"with", "by", "via", "through", "using", "use", "uses", "used"})


def unused(a: Clause, b: Clause, other_subjects: bool = False) -> Found | None:
    """`the Homebrew oniguruma is never used` against `Use the system oniguruma from
    Homebrew`: a clause saying only that a named thing is not used, every word of
    the name (and its version, if it has one) in a clause that uses it. Known tools
    have their own rule (dropped). The using clause says `use`; or the name is one
    no plain phrase shares (`-race`, `google-java-format`, `JUnit 4`) and the
    clause uses it as a means (`runs go test with -race`, `formatted by
    google-java-format`), or both name it as a flag (`stops at the first failure
    (--bail)`), or the clause goes through it by its whole name (`every connection
    goes through the redis gem`): then the two clauses may have other subjects, as
    the unused one's subject is the thing itself. `is no longer a dependency` says
    it is not used (dropped.UNUSED), and so does a clause saying the thing was
    taken out (`insta was removed`, said_unused); under any subjects a clause
    naming it whole right after `use` or `built on` uses it (`Release builds use
    cross for aarch64`)."""
    if b.negated:
        return None
    name = said_unused(a)
    if name is None or not name <= b.content:
        return None
    held = {(value.kind, value.amount) for _, value in b.values}
    if any((value.kind, value.amount) not in held for _, value in a.values):
        return None  # `JUnit 4 is not used` / `Tests use JUnit 5`: another version
    if _USE in b.content and not other_subjects:
        return "negation", a.text, b.text
    if any(word in CHANGES for word in b.stems):
        return None  # `setup.py was replaced by pyproject.toml` tells of the change
    at_a = [i for i, word in enumerate(a.stems) if word in name]
    at_b = [i for i, word in enumerate(b.stems) if word in name]
    means = _USE in b.content or any(i > 0 and b.tokens[i - 1] in _MEANS for i in at_b)
    if (_distinct(a, at_a) and means) or (_flag(a, at_a) and _flag(b, at_b)) or _through(b, name):
        return "negation", a.text, b.text
    if _used_whole(b, name):
        return "negation", a.text, b.text
    return None


def nobody(a: Clause, b: Clause) -> Found | None:
    """`_typos.toml is a leftover nobody reads` against `typos reads _typos.toml`: a
    clause denying that anyone does a thing to X (`nobody reads X`, `X … nothing
    checks`) against one where something does it to X, the verb and X's whole
    name right after it. X is what follows the verb, or the clause's subject when
    the clause ends with the verb; a pronoun (`nothing checks it`) names nothing."""
    if not a.negated or b.negated:
        return None
    at = next((i for i, token in enumerate(a.tokens) if token in _NOBODY), None)
    if at is None or at + 1 >= len(a.tokens) or sum(map(_negator, a.tokens)) != 1:
        return None
    verb = a.stems[at + 1]
    after = list(a.tokens[at + 2 :])
    while after and after[-1] in _FILLER:
        after.pop()  # `nothing reads it any more`: when, not what
    thing = tuple(after) or a.tokens[: a.subject]
    if not verb or not thing or not any(_content_stem(t) for t in thing):
        return None
    for i, word in enumerate(b.stems):
        end = i + 1 + len(thing)
        # The whole name, ending there: not `the benchmarks folder`.
        whole = end >= len(b.stems) or not b.stems[end]
        if word == verb and b.tokens[i + 1 : end] == thing and whole:
            return "negation", a.text, b.text
    return None


def _negator(token: str) -> bool:
    return token in NEGATORS or token.endswith("n't")


def _content_stem(token: str) -> str:
    return "" if token in STOP else stem(token)


def said_unused(clause: Clause) -> frozenset[str] | None:
    """The name of the thing a clause says only that it is not used (`mocha is not
    used any more`) or that it was taken out (`insta was removed`, `alpine was tried
    and dropped`); None for any other clause. Taken out, the name is the whole
    subject, and nothing but that it went follows (`… was removed from the API`
    says from where)."""
    if clause.negated:
        if not _HERE.isdisjoint(clause.tokens):
            return None  # `WhiteNoise is not used there` says where, as `… in dev` would
        if "default" in clause.tokens:
            return None  # `not installed by default` says what an install leaves out
        name = clause.content - dropped.UNUSED
        return name if name and name != clause.content else None
    if not clause.subject:
        return None
    words, _ = subject_of(clause)
    said = _said(clause, words)
    if not words or not said or not said <= _TAKEN_OUT | {_TRIED} or said == {_TRIED}:
        return None
    return words


def _said(clause: Clause, words: frozenset[str]) -> frozenset[str]:
    """What the clause says of its subject `words`. Taken out of the whole project
    (`removed from the project`, `… from the repo`) is taken out, no place named."""
    said = clause.content - words
    return said - _WHOLE if "from" in clause.tokens else said


def _used_whole(clause: Clause, name: frozenset[str]) -> bool:
    """Whether the clause uses the thing by its whole name, right after `use` or
    `built on` and ending there: `Release builds use cross for aarch64`, `The image
    is built on alpine with musl`; not `use the cross-compile script` or `use the
    cache fixture`, where the name is only the start of another thing's."""
    stems, tokens = clause.stems, clause.tokens
    for start in range(1, len(stems) - len(name) + 1):
        end = start + len(name)
        if set(stems[start:end]) != name or (end < len(stems) and stems[end]):
            continue
        before = tokens[start - 1]
        if before in _USING or (before == "on" and start > 1 and tokens[start - 2] in _BUILT_ON):
            return True
    return False


def _through(clause: Clause, name: frozenset[str]) -> bool:
    """Whether the clause goes through the thing `name` names, the name whole right
    after `through` and nothing more of it (`talks to Redis through the redis-client
    gem` is not through the `redis gem`)."""
    stems = clause.stems
    for index, word in enumerate(stems):
        if word == _THROUGH:
            run = stems[index + 1 : index + 1 + len(name)]
            if len(run) == len(name) and set(run) == name:
                return True
    return False


def gone(a: Clause, b: Clause) -> Found | None:
    """`The lint session is gone` against `The lint session runs pre-commit`: a clause
    saying only that its subject is gone, against one saying what that subject
    does. Not against a clause telling of the change (`… was replaced by …`).
    `Celery beat is no longer used` says as much against a clause saying the thing
    is at work (`Celery beat runs the nightly export`); not against one saying only
    what it is or holds (`The v1 API returns XML`: unused, it may still do that)."""
    if b.negated or not a.subject:
        return None
    words, _ = subject_of(a)
    said = _said(a, words)
    if a.negated:
        # Said of the subject itself (`… is not used`), not of what it uses (`CI
        # does not use it any more`), nor of where (`… not used there`).
        if a.tokens[a.subject] not in _BE or not _HERE.isdisjoint(a.tokens):
            return None
        at = a.subject  # the other clause's verb, right after the same opening
        if not said <= dropped.UNUSED or len(b.stems) <= at or b.stems[at] not in _AT_WORK:
            return None
    elif not said <= _GONE:
        return None
    if not words or len(said) != 1:
        return None
    # The other clause opens with the same thing (its verb may be one no list knows:
    # `The staging cluster serves …`) and says more of it.
    if _opening(b, a.subject) != _opening(a, a.subject) or not b.content - words - _GONE:
        return None
    told = b.tokens[a.subject] if len(b.tokens) > a.subject else ""
    if told in _PAST or told.endswith("ed"):
        return None  # `The old deploy script deployed to Heroku`: what it did, not does
    if any(word in CHANGES or word in _GONE for word in b.stems):
        return None
    return "negation", a.text, b.text


def _opening(clause: Clause, length: int) -> tuple[str, ...]:
    """The clause's first words, each as its stem, or as written when it has none:
    `the old worker` and `the new worker` open with two things."""
    return tuple(
        word or token
        for word, token in zip(clause.stems[:length], clause.tokens[:length], strict=True)
    )


def role(a: Clause, b: Clause) -> Found | None:
    """`chardet is the default detector` against `charset_normalizer is the default
    detector`: two things, each said to be the one that holds a role only one holds,
    the clauses the same after their subjects."""
    if a.negated or b.negated or not a.subject or not b.subject:
        return None
    rest_a, rest_b = a.tokens[a.subject :], b.tokens[b.subject :]
    if rest_a != rest_b or len(rest_a) < 3 or rest_a[0] not in _BE:
        return None
    if rest_a[1] not in _ONE_OF_A_KIND:
        return None
    if subject_of(a) == subject_of(b):
        return None
    return "value", " ".join(a.written[: a.subject]), " ".join(b.written[: b.subject])


def _distinct(clause: Clause, positions: list[int]) -> bool:
    """Whether a word at `positions` is written as no plain word is: with a digit, a
    dash, dot or underscore inside, or a capital after its first letter."""
    for i in positions:
        word = clause.written[i]
        inner = word.strip("-_.")
        if (
            any(char.isdigit() for char in word)
            or any(char in "-_." for char in inner)
            or any(char.isupper() for char in inner[1:])
        ):
            return True
    return any(position + 1 in dict(clause.values) for position in positions)


def _flag(clause: Clause, positions: list[int]) -> bool:
    """Whether the clause writes a word at `positions` as a command-line flag (`-race`,
    `--bail`): the tokens keep no dash, the clause's text does."""
    words = {clause.written[i].casefold() for i in positions}
    found = (part.casefold() for part in clause.text.split())
    return any(
        part.lstrip("(`'\"").rstrip(")`'\".,;:").lstrip("-") in words
        and part.lstrip("(`'\"").startswith("-")
        for part in found
    )
