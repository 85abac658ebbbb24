"""The words conflict detection reads: stop words, negators, antonym pairs, slot
markers and units. Kept apart from the rules so the lists can grow on their own."""

from __future__ import annotations


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
    named called branch port version runs run prefer prefers target targets against
    python node go java ruby rust postgres mysql redis
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
    broke introduced deprecated moved renamed replaced
    """
)

# Nouns whose number names one of many (`issue 5123`, `step 3`), not a setting.
LABELS = _words(
    """
    issue pr ticket bug release section step chapter item rfc pep commit page line
    figure table case test example
    """
)

# Counts written as words, read as numbers (`two reviewers` / `three reviewers`);
# `one` is left out, it is too often a pronoun.
_COUNTED = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
NUMBER_WORDS = {word: str(n) for n, word in enumerate(_COUNTED, start=2)}

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
