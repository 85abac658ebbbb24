"""Where a deleted file's text went when git paired it with nothing: the one file its
deleting commit added beside it that holds at least half of its lines (docs/drift.md,
"Replaced, not renamed"). Two workflows merged into one `ci.yml` share too little with
it, each, for git's rename threshold, which weighs the larger file; here the deleted
file alone is weighed.

Read only for a stale path git gives no successor, at drift time: one `git cat-file
--batch-check` for the sizes, one `git cat-file --batch` for the few files small enough.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from synapse_git.git import git_command

# The share of the deleted file's lines that must be in the one added file, measured on
# the drift sets' dev halves: two workflows merged into `ci.yml` carry 56% and 58% of
# theirs; the 17% a deleted page template shares with the one added beside it is
# boilerplate, as are the 5-11% stylesheets share with one rewritten from scratch.
CARRIED_SHARE = 0.5
# Fewer lines carried than this are lines any two files of a kind share (a workflow's
# checkout step, a licence header), whatever share of a small file they are.
FEWEST_CARRIED = 8
# A line counts with this many letters or digits at least: `}`, `end`, `fi`, `else`
# and `</div>` are in every file of their language.
LINE_LETTERS = 5
# Files larger are not read (a vendored bundle, generated data): the cost stays a few
# small reads per stale path.
LARGEST_COMPARED = 512_000
# A commit adding more files of the kind beside it than this is an import or a
# regeneration, not one file taking the place of another.
MOST_CANDIDATES = 8
# Git's own test for a binary file: a NUL byte in its first 8,000 bytes.
_BINARY_PROBE = 8000
_LETTER = re.compile(r"[^\W_]")


def lines(data: bytes) -> frozenset[str]:
    """The lines of `data` that say something, spaces collapsed; none for a binary file."""
    if b"\0" in data[:_BINARY_PROBE]:
        return frozenset()
    found = (" ".join(line.split()) for line in data.decode("utf-8", "replace").splitlines())
    return frozenset(line for line in found if len(_LETTER.findall(line)) >= LINE_LETTERS)


def holder(old: frozenset[str], candidates: dict[str, frozenset[str]]) -> str | None:
    """The one candidate holding CARRIED_SHARE of `old`'s lines (FEWEST_CARRIED at
    least); None when none does or more than one does."""
    needed = max(FEWEST_CARRIED, CARRIED_SHARE * len(old))
    fits = [name for name, new in candidates.items() if len(old & new) >= needed]
    return fits[0] if len(fits) == 1 else None


def carried_into(checkout: Path, commit: str, path: str, added: Sequence[str]) -> str | None:
    """Which of `added`, files `commit` added, holds the text `path` had before
    `commit` deleted it (`holder`); None for more than MOST_CANDIDATES of them."""
    if not added or len(added) > MOST_CANDIDATES:
        return None
    texts = _read(checkout, [f"{commit}^:{path}", *(f"{commit}:{name}" for name in added)])
    old = texts[0]
    if old is None:
        return None
    found = lines(old)
    if len(found) < FEWEST_CARRIED:
        return None
    news = zip(added, texts[1:], strict=True)
    return holder(found, {name: lines(text or b"") for name, text in news})


def _read(checkout: Path, specs: list[str]) -> list[bytes | None]:
    """The text of each `rev:path` in `specs`, None for one missing, not a file, or
    larger than LARGEST_COMPARED (its size is asked first: it is never read)."""
    if any("\n" in spec for spec in specs):
        return [None] * len(specs)  # the batch reads one name a line
    sizes = _batch(checkout, "--batch-check", "".join(f"{spec}\n" for spec in specs))
    small: list[str] = []
    for line in sizes.splitlines():
        fields = line.split(b" ")
        ok = len(fields) == 3 and fields[1] == b"blob" and fields[2].isdigit()
        ok = ok and int(fields[2]) <= LARGEST_COMPARED
        small.append(fields[0].decode("ascii") if ok else "")
    if len(small) != len(specs):
        return [None] * len(specs)
    wanted = [oid for oid in small if oid]
    if not wanted:
        return [None] * len(specs)
    read = _batch(checkout, "--batch", "".join(f"{oid}\n" for oid in wanted))
    texts: dict[str, bytes] = {}
    at = 0
    for oid in wanted:
        end = read.find(b"\n", at)
        header = read[at:end].split(b" ") if end != -1 else []
        if len(header) != 3 or not header[2].isdigit():
            break
        size = int(header[2])
        texts[oid] = read[end + 1 : end + 1 + size]
        at = end + 1 + size + 1  # and the newline after it
    return [texts.get(oid) if oid else None for oid in small]


def _batch(checkout: Path, mode: str, names: str) -> bytes:
    try:
        done = subprocess.run(
            ["git", *git_command.NO_PROGRAMS, "cat-file", mode],
            cwd=checkout,
            input=names.encode("utf-8", "surrogateescape"),
            capture_output=True,
            check=False,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except OSError:
        return b""
    return done.stdout if done.returncode == 0 else b""
