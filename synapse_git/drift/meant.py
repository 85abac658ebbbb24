"""Which file a short name meant, when it named several at the memory's commit
(docs/drift.md, "Short names that name several files").

`exceptions.py:250` in a repository that also vendors three other `exceptions.py`
files, or `README.md` in a note about `requirements-skip/`: the memory itself says
which one, by the word it writes right before the name, what else it names, the line
it points at, the identifiers it quotes and, after the path as written (a root file
of that name), the folder words it uses. Each clue narrows the candidates only when
it keeps some of them.
What is still more than one is ambiguous, and drift says so instead of guessing.

Pure text over a reader of the anchor's file contents: no pygit2 and no dataclasses
here, since the commit hook uses it too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

# An identifier worth looking for in a file: snake_case or CamelCase with an inner
# capital (`InstallationSubprocessError`, `build_env`), not an ordinary word.
_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]{4,}\b")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_WORDS = re.compile(r"[a-z0-9]+")
# The word right before a name, a possessive's mark dropped (`moshi-kotlin-tests'`).
_WORD_BEFORE = re.compile(r"(?<![\w/.-])([A-Za-z0-9_][\w.-]*?)(?:'s|')?[ \t]+$")
LARGEST_READ = 2_000_000  # bytes of one candidate read for its lines and identifiers
WORD_BEFORE_CHARS = 100  # of the text before a name read for the word qualifying it


class Said(NamedTuple):
    """What a memory says around the paths it names: its text and the other paths."""

    text: str = ""
    others: tuple[str, ...] = ()


def line_of(text: str, named: str) -> int | None:
    """The line `text` points at in `named` (`exceptions.py:250`, `app.py#L40`)."""
    found = re.search(
        r"(?<![\w/.-])" + re.escape(named) + r"(?::(\d+)|#L(\d+))",
        text,
    )
    if found is None:
        return None
    return int(found.group(1) or found.group(2))


def identifiers(text: str) -> set[str]:
    """The identifiers `text` quotes: snake_case or with an inner capital."""
    return {
        word
        for word in _IDENTIFIER.findall(text)
        if ("_" in word.strip("_") or _INNER_CAPITAL.search(word)) and not word.isupper()
    }


def narrow(
    named: str,
    candidates: Sequence[str],
    text: str,
    others: Sequence[str],
    read: Callable[[str], bytes | None],
) -> list[str]:
    """The candidates `named` can have meant, given the memory's `text` and the
    `others` paths it names; `read` gives a candidate's content at the memory's
    commit (None for a folder or a file too large to read)."""
    kept = list(candidates)
    if len(kept) < 2:
        return kept
    clues: list[Callable[[list[str]], list[str]]] = [
        lambda paths: _qualified(paths, named, text),
        lambda paths: _beside(paths, others, named, text),
        lambda paths: _long_enough(paths, line_of(text, named), read),
        lambda paths: _quoting(paths, identifiers(text), read),
        lambda paths: [path for path in paths if path == named],
        lambda paths: _folder_words(paths, text),
    ]
    for clue in clues:
        narrower = clue(kept)
        if narrower:
            kept = narrower
        if len(kept) == 1:
            break
    return kept


def _qualified(paths: list[str], named: str, text: str) -> list[str]:
    """Those with a folder named by the word right before the name (`the java16
    RecordJsonAdapter.kt`, `moshi-kotlin-tests' KotlinJsonAdapterTest.kt`), among
    folders not every candidate has: the memory says which one where it names it,
    whatever other folders it names elsewhere (`…; the one in src/main/java never
    runs`)."""
    said: set[str] = set()
    for found in re.finditer(r"(?<![\w/.-])" + re.escape(named) + r"(?![\w/-])", text):
        word = _WORD_BEFORE.search(text[max(0, found.start() - WORD_BEFORE_CHARS) : found.start()])
        if word is not None:
            said.add(word.group(1).lower())
    if not said:
        return []
    folders = {path: {part.lower() for part in path.split("/")[:-1]} for path in paths}
    shared = set.intersection(*folders.values())
    return [path for path in paths if (folders[path] - shared) & said]


def _beside(paths: list[str], others: Sequence[str], named: str, text: str) -> list[str]:
    """Those inside a folder the memory also names (`requirements-skip/` and its
    `README.md`). A file deeper down counts only when the memory's words name the
    folders between (`lib/` and the router's `index.js`), or when no file has the
    name exactly as written: `index.js and lib/` in a list is the root `index.js`,
    not `lib/router/index.js`."""
    folders = {other.rstrip("/") for other in others if other.rstrip("/")}
    said = set(_WORDS.findall(text.lower()))
    direct: list[str] = []
    deeper: list[str] = []
    for path in paths:
        for folder in folders:
            at = ("/" + path).find("/" + folder + "/")
            if at < 0:
                continue
            between = path[at + len(folder) + 1 :].split("/")[:-1]
            if not between:
                direct.append(path)
                break
            if named not in paths or all(part.strip("_.").lower() in said for part in between):
                deeper.append(path)
                break
    return direct or deeper


def _long_enough(
    paths: list[str], line: int | None, read: Callable[[str], bytes | None]
) -> list[str]:
    """Those with at least the line the memory points at."""
    if line is None:
        return []
    kept = []
    for path in paths:
        data = read(path)
        if data is not None and data.count(b"\n") + (not data.endswith(b"\n")) >= line:
            kept.append(path)
    return kept


def _quoting(paths: list[str], words: set[str], read: Callable[[str], bytes | None]) -> list[str]:
    """Those holding the most of the identifiers the memory quotes (none when none
    holds any)."""
    if not words:
        return []
    scores: dict[str, int] = {}
    for path in paths:
        data = read(path)
        if data is None:
            continue
        content = data.decode("utf-8", "replace")
        scores[path] = sum(1 for word in words if re.search(rf"\b{re.escape(word)}\b", content))
    best = max(scores.values(), default=0)
    return [path for path, score in scores.items() if score == best] if best else []


def _folder_words(paths: list[str], text: str) -> list[str]:
    """Those with a folder the memory's words name (`urllib3`), among folders that
    not every candidate shares."""
    said = set(_WORDS.findall(text.lower()))
    folders = {path: {part.strip("_.").lower() for part in path.split("/")[:-1]} for path in paths}
    shared = set.intersection(*folders.values()) if folders else set()
    return [path for path in paths if (folders[path] - shared) & said]
