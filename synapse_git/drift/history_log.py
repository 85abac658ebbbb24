"""What git says about a repository's history, for the path history index
(drift/path_history.py; docs/drift.md, "The path history"): where every ref points,
and `git log --name-status` read into commits with the paths each added, deleted and
renamed, a module turned into a package or a document rewritten in another format
paired as a rename.

No pygit2 here: hooks import this module.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, NamedTuple

from synapse_git.git import git_command

# Every ref but the stash (its commits are snapshots of the index, not history)
# and notes (their trees name commits, not files).
REFS = ("--exclude=refs/stash", "--exclude=refs/notes/*", "--all")


class Commit(NamedTuple):
    id: str
    time: int
    parents: tuple[str, ...]
    changes: list[tuple[str, str, str | None]]  # (kind, path, other)


def commits(stream: IO[bytes]) -> Iterator[Commit]:
    """Parse `--format=%x01%H %ct %P --name-status -z`: a header field, then per change
    a status field and one path (two for a rename or copy)."""
    fields = _fields(stream)
    current: Commit | None = None
    for field in fields:
        field = field.lstrip("\n")
        if not field:
            continue
        if field.startswith("\x01"):
            if current is not None:
                yield _paired(current)
            head = field[1:].split(" ")
            current = Commit(head[0], int(head[1]), tuple(p for p in head[2:] if p), [])
            continue
        if current is None:
            continue
        status = field[0]
        first = next(fields, "")
        if status in "RC":
            second = next(fields, "")
            if status == "R":
                current.changes.append(("R", first, second))
            else:
                current.changes.append(("A", second, None))
        elif status in "AD":
            current.changes.append((status, first, None))
    if current is not None:
        yield _paired(current)


def _fields(stream: IO[bytes]) -> Iterator[str]:
    # A path that is not UTF-8 is kept with its odd bytes written out (`caf\\xe9.py`,
    # as git quotes it): SQLite holds only valid Unicode, and its renames still count.
    rest = b""
    while chunk := stream.read(1 << 16):
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        for part in parts:
            yield part.decode("utf-8", "backslashreplace")
    if rest:
        yield rest.decode("utf-8", "backslashreplace")


def _paired(commit: Commit) -> Commit:
    """A module turned into a package in one commit (`x.py` gone, `x/__init__.py`
    added) whose text rename detection found nowhere is renamed to the package,
    however little of its text went along. Where rename detection did pair it (with
    `x/__init__.py` or with another module the text went to, `x/installer.py`), that
    pairing is the module's own lineage and stands. Likewise a document rewritten in
    another format under its name (`api.rst` gone, `api.md` added) is renamed."""
    added = {path for kind, path, _ in commit.changes if kind == "A"}
    moved: dict[str, str] = {}
    for kind, path, _ in commit.changes:
        if kind != "D":
            continue
        package = path[:-3] + "/__init__.py" if path.endswith(".py") else None
        if package in added:
            moved[path] = package
        elif (converted := _converted(path, added)) is not None:
            moved[path] = converted
    if not moved:
        return commit
    targets = set(moved.values())
    changes: list[tuple[str, str, str | None]] = []
    for kind, path, other in commit.changes:
        if not (kind == "D" and path in moved) and not (kind == "A" and path in targets):
            changes.append((kind, path, other))
    changes += [("R", old, new) for old, new in moved.items()]
    return commit._replace(changes=changes)


# Formats a document is rewritten between, keeping its name (`manual/api.rst` becomes
# `manual/api.md`): too little text survives for rename detection to pair them.
_DOCUMENTS = {".rst", ".md", ".markdown", ".txt", ".adoc", ".asciidoc", ".org"}
_SAME_FORMAT = {".yml": ".yaml", ".yaml": ".yml"}


def _converted(path: str, added: set[str]) -> str | None:
    """The one file added beside a deleted document with its name in another document
    format (or `.yml` as `.yaml`), None when there is none or more than one."""
    stem, dot, extension = path.rpartition(".")
    if not dot or "/" in extension:
        return None
    extension = "." + extension.lower()
    if extension in _SAME_FORMAT:
        wanted = {_SAME_FORMAT[extension]}
    elif extension in _DOCUMENTS:
        wanted = _DOCUMENTS - {extension}
    else:
        return None
    found = [stem + other for other in sorted(wanted) if stem + other in added]
    return found[0] if len(found) == 1 else None


def commit_refs(checkout: Path) -> dict[str, str]:
    """The commit each ref (and HEAD) leads to; the stash and notes are no history."""
    done = git(
        [
            "for-each-ref",
            "--format=%(objecttype) %(objectname) %(*objecttype) %(*objectname) %(refname)",
        ],
        checkout,
    )
    refs: dict[str, str] = {}
    for line in done.stdout.splitlines():
        kind, commit, peeled_kind, peeled, name = line.split(" ", 4)
        if name == "refs/stash" or name.startswith("refs/notes/"):
            continue
        if kind == "commit":
            refs[name] = commit
        elif peeled_kind == "commit":
            refs[name] = peeled
    head = git(["rev-parse", "-q", "--verify", "HEAD^{commit}"], checkout)
    if head.returncode == 0:
        refs["HEAD"] = head.stdout.strip()
    return refs


def digests(checkout: Path) -> tuple[str, str, str | None]:
    """Digests of where every ref and HEAD point (equal: nothing to do) and of
    where every ref but HEAD points, and the commit HEAD is at (None: unborn)."""
    done = git(["show-ref", "--head"], checkout)
    lines = done.stdout.splitlines(keepends=True)
    head = next((line.split(" ", 1)[0] for line in lines if line.endswith(" HEAD\n")), None)
    others = "".join(line for line in lines if not line.endswith(" HEAD\n"))
    return sha256(done.stdout), sha256(others), head


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def git(args: Sequence[str], cwd: Path, *, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *git_command.NO_PROGRAMS, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        # A ref or path name git prints may be any bytes, not UTF-8.
        errors="surrogateescape",
        check=False,
        env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
    )
