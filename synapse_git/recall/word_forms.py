"""Word forms (docs/recall.md, "Stems that meet"): derivational families, identifier
shapes and edit distance.

SQLite's porter stems `deploy` to `deploi` but `deployment` to `deploy`, and
`experiment`/`experimental` to different stems too, so one form of a word does
not find the other through the index. A query word is therefore also searched
as the other members of its family (`variants`), and a memory's words are
compared with the query's by one normalisation of our own (`family`), which
strips inflectional and the common derivational suffixes alike.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

# Longest first: derivations are stripped (twice at most: experimental ->
# experiment -> experi), then one inflection.
_DERIVED = ("ments", "ment", "ions", "ion", "als", "al")
_INFLECTED = ("ings", "ing", "ers", "er", "ies", "es", "ed", "s", "e")
_PAST = ("ings", "ing", "ed")  # running -> runn -> run: a three-letter root is fine
# Latin derivations whose base changes its last letters: resume / resumption,
# consume / consumption, describe / description, subscribe / subscription.
_ALTERNATING = (("umpt", "um"), ("script", "scrib"))
MIN_FAMILY = 5
SWAPPED_AT = 6  # letters of a family whose swapped neighbours make a misspelling (close_among)
_ROOT = 4
_CAMEL = re.compile(r"[a-z][A-Z]")
# Compiled on first use, by text that is not ASCII: a class this wide is built
# into a 64k-entry table, which costs a process more than the rest of recall's
# patterns together.
_CJK_CLASS = r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]"


def _strip(root: str, suffixes: tuple[str, ...]) -> str:
    for suffix in suffixes:
        if root.endswith(suffix) and len(root) - len(suffix) >= (3 if suffix in _PAST else _ROOT):
            if suffix == "s" and root.endswith(("ss", "us", "is")):
                return root
            return root[: -len(suffix)]
    return root


@functools.lru_cache(maxsize=65536)
def family(word: str) -> str:
    """A key shared by a word's inflections and derivations: `deploys`,
    `deployment`, `deploying` -> `deploy`; `configure`, `configuration` -> `configur`."""
    if not word.isalpha():
        return word
    if len(word) < MIN_FAMILY:
        # runs, logs -> run, log; short words have no derivations worth stripping.
        plural = len(word) == 4 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
        if len(word) == 4 and word.endswith("ed"):
            return word[:-1]  # used, owed -> use, owe
        return word[:-1] if plural or (len(word) == 4 and word.endswith("e")) else word
    root = word
    for _ in range(2):
        shorter = _strip(root, _DERIVED)
        if shorter == root:
            break
        root = shorter
    if root != word and word.endswith(("ion", "ions")):
        for derived, base in _ALTERNATING:
            if root.endswith(derived):
                root = root[: -len(derived)] + base  # resumption -> resum, as resume
                break
    shorter = _strip(root, _INFLECTED)
    if shorter != root and len(shorter) >= 3 and shorter[-1] == shorter[-2] not in "lsz":
        shorter = shorter[:-1]  # running, stopped -> run, stop
    root = shorter
    if root.endswith("i") and word.endswith(("ies", "ied")):
        root = root[:-1] + "y"
    if root.endswith("at") and len(root) >= 7:
        # configuration, configurate and configure meet; migrat(e|ion) stays whole.
        root = root[:-2]
    return root


# Porter already gives a word's inflections (-s, -ed, -ing) one stem; what it
# splits is a derivation from its base (deploi / deploy, experi / experiment),
# so only the base and its derivations are searched.
_FORMS = ("", "e", "ment", "al", "ion", "ation", "ate", "mental")


def variants(word: str) -> list[str]:
    """Other members of `word`'s family to search for in the porter index (at most
    eight; one that no memory holds costs one index look-up)."""
    if len(word) < MIN_FAMILY or not word.isalpha():
        return []
    root = family(word)
    found: list[str] = []
    for form in _FORMS:
        candidate = root + form
        if candidate != word and candidate not in found and family(candidate) == root:
            found.append(candidate)
    return found


def shaped(token: str) -> bool:
    """An identifier or a fragment of one (digits, camelCase), or CJK text: the
    words worth matching inside longer tokens."""
    return any(char.isdigit() for char in token) or bool(_CAMEL.search(token)) or cjk(token)


def cjk(text: str) -> bool:
    """Whether `text` holds Chinese, Japanese or Korean characters, which unicode61
    keeps in one long token, so only substrings find them."""
    return not text.isascii() and bool(_cjk().search(text))


@functools.cache
def _cjk() -> re.Pattern[str]:
    return re.compile(_CJK_CLASS)


def distance(a: str, b: str, most: int) -> int:
    """Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`,
    or `most + 1` once it is known to be more than `most`."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, y in enumerate(b, start=1):
            cost = 0 if x == y else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > most:
            return most + 1
        before, row = row, current
    return row[-1]


def close(term: str, word: str) -> bool:
    """A misspelling of `word`: one edit for words of five and six letters, two
    beyond (a shorter word is one edit from too many others: zone, done, none);
    or of another form of it, two neighbouring letters of its family swapped
    (`publsihing` for `published`: `publsih` / `publish`)."""
    return bool(close_among(term, (word,)))


def close_among(term: str, words: Iterable[str]) -> list[str]:
    """The words of `words` that are misspellings of `term` (`close`). A misspelled
    term is compared with up to a thousand words a question: its length bounds and
    letters are worked out once for all of them, not once a word."""
    if len(term) < 5:
        return []
    most = 1 if len(term) <= 6 else 2
    shortest, longest = max(4, len(term) - most), len(term) + most
    mine = set(term)
    # A word misspelled in one form and written in another (`confgiuring` against
    # `configured`) is more edits apart than a misspelling may be, as the forms'
    # endings differ too. Their families are compared, and only for the slip of
    # two neighbouring letters swapped: one letter added, dropped or changed in
    # a family meets other words too often (`charg` / `chart`, `moder` / `model`,
    # `produc` / `product`), a swap almost never, in a family of SWAPPED_AT letters.
    root = family(term)
    rooted = len(root) >= SWAPPED_AT and term.isalpha()
    # The family's letters are the word's but for the `y` of `-ies` (`study`).
    own = set(root) - {"y"}
    found = []
    least = len(root) if rooted else longest + 1
    for word in words:
        size = len(word)
        if (size < shortest or size > longest) and size < least:
            continue
        theirs = set(word)
        # Each edit takes away at most one letter and brings in at most one: a word
        # that lacks more than `most` of the term's letters, or holds more than `most`
        # the term lacks, is farther. Most words of a text fail this before the table.
        if (
            shortest <= size <= longest
            and len(mine - theirs) <= most
            and len(theirs - mine) <= most
            and distance(term, word, most) <= most
        ) or (size >= least and own <= theirs and swapped(root, family(word))):
            found.append(word)
    return found


def swapped(a: str, b: str) -> bool:
    """Whether `b` is `a` with two neighbouring letters swapped (`publsih`, `publish`)."""
    if len(a) != len(b) or a == b:
        return False
    apart = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(apart) != 2 or apart[1] != apart[0] + 1:
        return False
    i, j = apart
    return a[i] == b[j] and a[j] == b[i]
