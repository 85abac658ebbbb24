"""The words conflict detection reads: stop words, negators, antonym pairs, slot
markers, units, schedules and tools with their jobs. Kept apart from the rules so
the lists can grow on their own; `stem` is here so every list is read alike."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A crude, stable stem: enough to match `timeouts`/`timeout`, `runs`/`run`."""
    word = word.lower().removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif (len(word) > 4 and word.endswith("ed") and not word.endswith("eed")) or (
        len(word) > 3 and word.endswith("es") and word[-3] in "sxz"
    ):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    # `manage`, `managed`, `manages`, `managing`: one stem.
    if len(word) > 4 and word.endswith("e") and not word.endswith("ee"):
        word = word[:-1]
    return word


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _stems(text: str) -> frozenset[str]:
    """A list matched against stems, not words."""
    return frozenset(stem(word) for word in text.split())


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
FILLER_WITH_NEGATION = _words("longer anymore more")

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
    ("includes", "excludes"),
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
    # as notes about a project's tests, builds and rules say them
    ("enabled", "off"),
    ("flaky", "stable"),
    ("flaky", "reliable"),
    ("flaky", "deterministic"),
    ("stable", "unstable"),
    ("fast", "slow"),
    ("faster", "slower"),
    ("quick", "slow"),
    ("strict", "lenient"),
    ("strict", "loose"),
    ("pinned", "unpinned"),
    ("pinned", "floating"),
    ("allow", "disallow"),
    ("allowed", "disallowed"),
    ("allowed", "prohibited"),
    ("permitted", "forbidden"),
    ("permitted", "prohibited"),
    ("mandatory", "forbidden"),
    ("required", "forbidden"),
    ("compatible", "incompatible"),
    ("deterministic", "nondeterministic"),
    ("secure", "insecure"),
    ("encouraged", "discouraged"),
    ("recommended", "discouraged"),
    ("internal", "external"),
    ("inclusive", "exclusive"),
    ("open", "closed"),
    ("pass", "fail"),
    ("passing", "failing"),
    ("serial", "parallel"),
    ("sequential", "parallel"),
    ("serially", "parallel"),
    ("sequentially", "parallel"),
    ("ascending", "descending"),
    ("lazy", "eager"),
    ("lazily", "eagerly"),
    ("tracked", "untracked"),
    ("tracked", "ignored"),
    ("committed", "ignored"),
    ("signed", "unsigned"),
    ("visible", "hidden"),
    ("verbose", "quiet"),
)
ANTONYM_OF: dict[str, frozenset[str]] = {
    word: frozenset({other for pair in ANTONYMS if word in pair for other in pair if other != word})
    for pair in ANTONYMS
    for word in pair
}

# A token right after one of these fills a slot: `from main`, `port 8080`, `is 30`.
SLOT_MARKERS = _words(
    """
    from to on in into at with via over every using use uses used is are was be = : by as under
    named called branch port version prefer prefers target targets against
    python node go java ruby rust postgres mysql redis
    follow follows built written hosted served stored managed handled
    """
)

# Words that end a clause's subject: what comes before the first of them names the
# thing the clause is about (`Type hints in src/a.py are checked`, `Flask 3.1
# dropped Python 3.8`). Auxiliaries, negators and verbs common in project notes.
VERBS = _words(
    """
    is are was were be been has have had does do did can could will would should must
    may might isn't aren't wasn't doesn't don't didn't can't won't shouldn't never
    live lives run runs use uses hold holds need needs require requires read reads
    listen listens call calls fail fails pass passes break breaks take takes cover covers
    drop drops dropped add adds added remove removes removed include includes exclude
    excludes install installs build builds support supports landed ended started fixed
    broke introduced deprecated moved renamed replaced stay stays stayed defaults defaulted
    """
)

# Subjects naming the people keeping the notes or reading them, not a thing (`We
# stay on Kotlin 1.9.24`, `You can mount Sidekiq::Web without …`): what the clause
# is about comes after its verb.
FIRST_PERSON = _words("we i you")

# Words telling of a change to what is held (`dropped Python 3.8`, `Node 18 is
# deprecated`): no statement of the one value a thing has now.
CHANGES = _stems(
    """
    drop drops dropped add adds added remove removes removed deprecate deprecates
    deprecated exclude excludes excluded introduce introduces introduced replace replaces
    replaced rename renames renamed move moves moved
    """
)

# Nouns whose number names one of many (`issue 5123`, `step 3`), not a setting.
LABELS = _stems(
    """
    issue pr ticket bug release section step chapter item rfc pep commit page line
    figure table case test example
    """
)

# Counts written as words, read as numbers (`two reviewers` / `three reviewers`);
# `one` is left out, it is too often a pronoun.
_COUNTED = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
NUMBER_WORDS = {word: str(n) for n, word in enumerate(_COUNTED, start=2)}

# How often something happens, as its period in seconds: `weekly` / `nightly`, and
# `every 2 weeks`; a trigger (`on every push`) is a schedule of its own kind.
DAY = 86400.0
SCHEDULES: dict[str, float] = {
    "hourly": 3600,
    "daily": DAY,
    "nightly": DAY,
    "weekly": 7 * DAY,
    "biweekly": 14 * DAY,
    "fortnightly": 14 * DAY,
    "monthly": 30 * DAY,
    "quarterly": 91 * DAY,
    "yearly": 365 * DAY,
    "annually": 365 * DAY,
}
PERIODS: dict[str, float] = {
    "minute": 60,
    "hour": 3600,
    "day": DAY,
    "night": DAY,
    "weekday": DAY,
    # `every Monday`: once a week
    **dict.fromkeys(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"), 7 * DAY
    ),
    "week": 7 * DAY,
    "fortnight": 14 * DAY,
    "month": 30 * DAY,
    "quarter": 91 * DAY,
    "year": 365 * DAY,
}
# Words after a schedule that say when, not what: `nightly at 02:00 UTC`, `weekly on
# Mondays` (as stems).
WHEN = _stems(
    """
    monday tuesday wednesday thursday friday saturday sunday weekend weekday utc gmt
    am pm midnight noon morning evening night
    """
)
TRIGGERS = _words("push commit merge pr tag release build deploy change")

# Tools and the jobs they do: two tools for one job in the same slot are a choice
# between them (`black` / `ruff` for formatting). Multi-job tools name each.
TOOL_ROLES: dict[str, frozenset[str]] = {
    tool: frozenset(roles.split())
    for tool, roles in {
        "black": "format",
        "yapf": "format",
        "autopep8": "format",
        "ruff": "format lint imports",
        "isort": "imports",
        "flake8": "lint",
        "pylint": "lint",
        "pyflakes": "lint",
        "pycodestyle": "lint",
        "mypy": "types",
        "pyright": "types",
        "basedpyright": "types",
        "pyre": "types",
        "pytype": "types",
        "pytest": "tests",
        "unittest": "tests",
        "nose": "tests",
        "nose2": "tests",
        "jest": "tests",
        "mocha": "tests",
        "vitest": "tests",
        "jasmine": "tests",
        "testify": "tests",
        "ginkgo": "tests",
        "golangci-lint": "lint",
        "staticcheck": "lint",
        "golint": "lint",
        "tox": "envs",
        "nox": "envs",
        "poetry": "deps",
        "pdm": "deps",
        "uv": "deps",
        "pipenv": "deps",
        "pip-tools": "deps",
        "conda": "deps",
        "rye": "deps",
        "hatch": "deps build",
        "setuptools": "build",
        "flit": "build",
        "hatchling": "build",
        "maturin": "build",
        "sphinx": "docs",
        "mkdocs": "docs",
        "pdoc": "docs",
        "travis": "ci",
        "circleci": "ci",
        "jenkins": "ci",
        "appveyor": "ci",
        "buildkite": "ci",
        "postgres": "database",
        "postgresql": "database",
        "mysql": "database",
        "mariadb": "database",
        "sqlite": "database",
        "gunicorn": "server",
        "uvicorn": "server",
        "hypercorn": "server",
        "waitress": "server",
        "celery": "tasks",
        "rq": "tasks",
        "dramatiq": "tasks",
        "huey": "tasks",
        "npm": "js",
        "yarn": "js",
        "pnpm": "js",
    }.items()
}
# Words that name a job in a clause (as stems): `format`, `linting`, `type checks`.
ROLE_WORDS: dict[str, frozenset[str]] = {
    role: frozenset(stem(word) for word in words.split())
    for role, words in {
        "format": "format formats formatted formatting formatter formatters",
        "lint": "lint lints linted linting linter linters",
        "imports": "import imports sorting sorted isort",
        "types": "type types typing typed type-check type-checks type-checking checker",
        "tests": "test tests testing runner",
        "envs": "environment environments envs matrix sessions",
        "deps": "dependency dependencies deps lock locking lockfile install installs "
        "installing environment venv virtualenv packaging manager",
        "build": "build builds building wheel wheels sdist backend packaging",
        "docs": "docs documentation site",
        "ci": "ci pipeline pipelines workflow workflows",
        "database": "database databases db",
        "server": "server wsgi asgi",
        "tasks": "task tasks queue queues worker workers jobs",
        "js": "frontend javascript packages",
    }.items()
}
# Words that end a noun phrase after `only` or around `and`, besides stop words and verbs.
PHRASE_ENDS = _words("both too also only just either except but")

UNITS: dict[str, tuple[str, float]] = {
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
    "month": ("duration", 2592000),
    "months": ("duration", 2592000),
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
