"""The point of a question (docs/recall.md, "Decoys"): what kind of answer it asks for.

A note can hold every word of a question and still answer something else: "how
long are backups kept" is not answered by "Backups are kept encrypted; the key is
held by two people". Many questions say what shape their answer has: `how long`
a duration, `how many` a number, `when` a time, `how often` a frequency, `who` a
person or team, `where` a place or a path. A note holding none of that shape,
past the question's own words, shares the question's words but not its point:
recall marks it weak (ranking.search), whatever its coverage.

A question without such a shape ("how do we deploy", "stripe refund approval") has
no point to check, and none is asked of its notes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING

from synapse_git.recall import query_terms

if TYPE_CHECKING:
    from synapse_git.recall.coverage import Words


class Point(Enum):
    DURATION = "a duration"
    NUMBER = "a number"
    TIME = "a time"
    FREQUENCY = "a frequency"
    PERSON = "a person or team"
    PLACE = "a place"


# Words that mean something else as often are left out: `second` (a second
# approver), `min` (minimum), `may`, `one` (one at a time), `every` alone (every
# receipt), `first`, `user`.
_UNITS = (
    "ms millisecond milliseconds seconds secs minute minutes mins hour hours"
    " hr hrs day days week weeks month months year years"
)
_NUMBERS = (
    "two three four five six seven eight nine ten eleven twelve fifteen twenty thirty"
    " forty fifty sixty hundred thousand million half double twice dozen"
)
_WEEK = "monday tuesday wednesday thursday friday saturday sunday weekday weekend"
# A day says when in the plural too: "never on Fridays".
_DAYS = " ".join(f"{day} {day}s" for day in _WEEK.split())
_MONTHS = "january february march april june july august september october november december"
_OFTEN = "daily nightly hourly weekly monthly yearly annually quarterly once twice biweekly"
_WHEN = (
    "when whenever before after during until till since midnight noon morning evening night tonight"
    " today tomorrow yesterday ago later soon"
)
_WHO = (
    "team teams engineer engineers lead owner owners manager managers admin admins"
    " administrator approver approvers role roles staff on-call oncall commander agent agents"
    " reviewer reviewers maintainer maintainers everyone nobody anyone"
    " developer developers department squad ops sre author authors founder cto ceo"
)
_WHERE = (
    "folder directory dir repo repository bucket channel file files host server cluster"
    " region zone path url page table database schema namespace sidecar service"
)
_WORDS: dict[Point, frozenset[str]] = {
    Point.DURATION: frozenset(f"{_UNITS} ttl expire expires forever".split()),
    Point.NUMBER: frozenset(_NUMBERS.split()),
    Point.TIME: frozenset(f"{_UNITS} {_DAYS} {_MONTHS} {_OFTEN} {_WHEN} utc".split()),
    Point.FREQUENCY: frozenset(f"{_OFTEN} {_DAYS} {_UNITS} per".split()),
    Point.PERSON: frozenset(_WHO.split()),
    Point.PLACE: frozenset(_WHERE.split()),
}
# Units that make a number a duration ("how many minutes"), and nouns whose value
# is a number ("what port", "which version").
_DURATION_NOUNS = frozenset(_UNITS.split())
_NUMBER_NOUNS = frozenset(
    [
        "port",
        "target",
        "budget",
        "quota",
        "deadline",
        "version",
        "percentage",
        "percent",
        "size",
        "limit",
        "threshold",
        "rate",
        "number",
        "count",
        "amount",
        "cost",
        "price",
        "timeout",
        "ttl",
        "capacity",
        "maximum",
        "minimum",
        "max",
        "min",
    ]
)
# A number standing as one (`15 minutes`, `03:00`, `65%`, `v2`), not the digits of a
# name (`SHA256`, `PAY-7731` holds one: `7731` stands after the dash).
# `every` with what it counts: every 15 minutes, every night, every January.
_EVERY = (
    r"\bevery (?:other )?(?:\d|"
    + "|".join(f"{w}\\b" for w in f"{_UNITS} {_DAYS} {_MONTHS} night morning evening".split())
    + ")"
)
# A number written out before a unit ("within five working days"), which counts as a
# duration or a time even where the question's own `days` says nothing.
# So does `one` before a unit or a currency ("worth one cent each"), where alone it
# is mostly "one of", "one at a time".
_COUNTED = f"{_UNITS} cent cents euro euros eur dollar dollars usd pound pounds percent times"
_SPELT = (
    r"\b(?:one|"
    + "|".join(_NUMBERS.split())
    + r")\W+(?:\w+\W+)?(?:"
    + "|".join(_COUNTED.split())
    + r")\b"
)


@functools.cache
def _pattern(text: str) -> re.Pattern[str]:
    # Compiled when a question first asks for a count or a time: a recall of other
    # words never uses these two, the longest patterns of recall to compile.
    return re.compile(text, re.IGNORECASE)


_DIGIT = re.compile(r"(?<![^\W_])\d")
# A file name with an extension (`titles-32k.model`, `v2/config.yaml`) holding a
# digit: the digit names the file, it is no count, duration or time.
_FILE_NAME = re.compile(r"[\w./-]*\d[\w./-]*\.[a-z][a-z0-9]{1,4}\b", re.IGNORECASE)
# A path, a file name with an extension, a URL, an address or a channel.
_PLACE_SHAPE = re.compile(r"[\w.-]+/[\w./<>-]*|\b\w+\.[a-z]{2,5}\b|@[\w.-]+|#[\w-]+|https?://")
# A name written with a capital inside a sentence (`Vault`, `Alice`, `PagerDuty`).
_NAME = re.compile(r"(?<=[\w,;)] )[A-Z][\w-]+")


def point(text: str) -> Point | None:
    """The shape of answer the question `text` asks for, when it says so."""
    words = [query_terms.fold(token) for token in query_terms.tokens(text)]
    for n, word in enumerate(words):
        after = words[n + 1 : n + 3]
        if word == "how" and after:
            if after[0] == "long" or (after[0] in ("many", "much") and _unit(after[1:])):
                return Point.DURATION
            if after[0] in ("many", "much", "big", "large", "old", "fast"):
                return Point.NUMBER
            if after[0] == "often":
                return Point.FREQUENCY
        if word in ("what", "which") and after:
            if after[0] == "time" or after[0] in ("day", "date", "month", "year"):
                return Point.TIME
            nouns = [w for w in words[n + 1 : n + 7] if w not in _FILLER][:3]
            if any(_valued(noun) for noun in nouns):
                return Point.NUMBER
        if word == "when" and n == 0:
            return Point.TIME
        if word in ("who", "whom", "whose"):
            return Point.PERSON
        if word == "where" and n == 0:
            return Point.PLACE
    last = text.split()[-1] if text.split() else ""
    # Not an identifier's part: `CACHE_TTL` or `X-App-Version` asks for the name.
    if (
        len(words) >= 2
        and last.isalpha()
        and not _ASKING.intersection(words)
        and words[-1] in _NUMBER_NOUNS
    ):
        # A few words naming a thing and then one of its values ("postgres version",
        # "redis port") ask for that value, as "which version" does; in the plural
        # ("experimental prices") they name a topic.
        return Point.NUMBER
    return None


_ASKING = frozenset(["how", "what", "which", "when", "who", "whom", "whose", "where", "why"])


def _valued(noun: str) -> bool:
    return noun in _NUMBER_NOUNS or noun[:-1] in _NUMBER_NOUNS


_FILLER = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "the",
        "a",
        "an",
        "our",
        "its",
        "their",
        "this",
        "that",
        "default",
        "current",
    ]
)


def _unit(words: Iterable[str]) -> bool:
    return any(word in _DURATION_NOUNS for word in words)


def holds(wanted: Point, held: Words, asked: frozenset[str]) -> bool:
    """Whether a text (`held`: its words as coverage cuts them) holds an answer of
    the shape `wanted`, past the words of the question (`asked`, folded): a
    question's own `nightly` says nothing of when."""
    text = held.text
    counted = (Point.DURATION, Point.NUMBER, Point.TIME, Point.FREQUENCY)
    # The file names are taken out only for a text holding a digit at all.
    if (
        wanted in counted
        and _DIGIT.search(text) is not None
        and _DIGIT.search(_FILE_NAME.sub(" ", text)) is not None
    ):
        return True
    if wanted in (Point.TIME, Point.FREQUENCY) and _pattern(_EVERY).search(text) is not None:
        return True
    if wanted in counted and _pattern(_SPELT).search(text) is not None:
        return True
    if wanted is Point.PLACE and _PLACE_SHAPE.search(text) is not None:
        return True
    if wanted in (Point.PERSON, Point.PLACE) and any(
        query_terms.fold(name) not in asked for name in _NAME.findall(text)
    ):
        return True
    # The text's words are those coverage cut (unicode61's tokens, folded), which a
    # long-lived service keeps with the text for the next question.
    return any(word not in asked for word in _WORDS[wanted].intersection(held.words))
