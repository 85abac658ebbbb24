"""`synapse memory blame PATH[:LINE]`: the memories that name a path, under its name
now and the names it had before (docs/drift.md, "Blame").

A memory names a path as drift reads it (paths.py, and the shorter forms of
short_forms.py: `app/db.py` or `db.py` for `src/app/db.py`). Former names come
from the path history index (lineage.py): the renames in HEAD's history that
brought the file to its name. When another file took an old name after the
rename, only memories written before the rename (their anchor) mean this file.
With a LINE, `git blame` says which commit last changed it, and each memory
whether the line changed after it was written.

Bodies are looked for by the file's base names first (`instr`, every state,
the project's rows only), then confirmed by the path finder.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synapse_git.drift.lineage import Former, Lineage, reborn, when
from synapse_git.drift.paths import find_paths
from synapse_git.drift.short_forms import from_root, names
from synapse_git.git import git_command
from synapse_git.store.memories import COLUMNS, Memory

MOST = 500  # memories listed, newest first; a path named by more is a folder of notes


@dataclass(frozen=True)
class Named:
    """A memory that names the path."""

    memory: Memory
    anchor_inferred: bool
    author: str | None  # who shared it (team memory), else None
    named_as: tuple[str, ...]  # the names the memory uses for the path
    former: str | None  # when it names the path only by a former name: that rename's commit
    mentions_line: bool  # names the asked LINE (`path:LINE`, `path#L10-L20`)
    line_changed_since: bool | None  # the line changed after the memory was written

    def as_json(self) -> dict[str, Any]:
        memory = self.memory
        return {
            "id": memory.id,
            "state": memory.state,
            "body": memory.body,
            "created_at": memory.created_at,
            "commit": memory.head_commit,
            "branch": memory.branch,
            "anchor_inferred": self.anchor_inferred,
            "author": self.author,
            "named_as": list(self.named_as),
            "former_name_renamed_in": self.former,
            "mentions_line": self.mentions_line,
            "line_changed_since": self.line_changed_since,
        }


@dataclass(frozen=True)
class Blame:
    path: str  # relative to the checkout's top folder
    line: int | None
    tracked: bool  # in HEAD's tree
    line_commit: str | None  # the commit that last changed LINE; None: not committed
    line_when: str | None
    formers: tuple[tuple[str, str], ...]  # (former name, the rename's commit and date)
    memories: tuple[Named, ...]
    total: int

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "tracked": self.tracked,
            "line_commit": self.line_commit,
            "line_changed": self.line_when,
            "former_names": [{"name": n, "renamed_in": w} for n, w in self.formers],
            "total": self.total,
            "memories": [named.as_json() for named in self.memories],
        }


_TARGET = re.compile(r"^(?P<path>.+?):(?P<line>\d+)$")


def split_target(target: str, root: Path, cwd: Path) -> tuple[str, int | None]:
    """`PATH[:LINE]` as a path relative to the checkout `root` and a line number. A
    relative PATH is taken from `cwd` (as git blame takes it), an absolute one must
    lie inside the checkout."""
    from synapse_git.errors import BadInput

    if not target or not target.isprintable():
        raise BadInput("PATH must be a path, optionally followed by :LINE")
    path, line = target, None
    found = _TARGET.match(target)
    if found and not (cwd / target).exists():
        path, line = found.group("path"), int(found.group("line"))
        if line < 1:
            raise BadInput(f"line {line} is not a line number: lines count from 1")
    where = Path(path) if Path(path).is_absolute() else cwd / path
    parts: list[str] = []
    for part in where.parts[1:]:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    absolute = Path("/", *parts)
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        raise BadInput(f"{path} is outside the repository at {root}") from None
    text = relative.as_posix()
    if text in ("", "."):
        raise BadInput("PATH names the repository itself: name a file or folder in it")
    return text, line


def line_commit(root: Path, path: str, line: int) -> tuple[str | None, str | None]:
    """(the commit that last changed `line` of `path` as the work tree has it, its date);
    (None, None) for a line not committed yet. BadInput past the end of the file."""
    from synapse_git.errors import BadInput

    done = git_command.git(["blame", "--porcelain", "-L", f"{line},{line}", "--", path], root)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = said[-1] if said else "git blame failed"
        raise BadInput(f"{path}:{line}: {reason.removeprefix('fatal: ')}")
    fields = done.stdout.decode("utf-8", "replace").split("\n")
    commit = fields[0].split(" ", 1)[0]
    if set(commit) == {"0"}:
        return None, None
    stamp = next((f.split(" ", 1)[1] for f in fields if f.startswith("committer-time ")), None)
    if stamp is None or not stamp.isdigit():
        return commit, None
    from synapse_git.drift.path_history import Event

    return commit, when(Event(path, 0, commit, int(stamp), "M", None))


def _base(name: str) -> str:
    return name.rstrip("/").rsplit("/", 1)[-1]


def mentions_line(body: str, said: Sequence[str], line: int) -> bool:
    """Whether `body` names one of `said` with a line or range holding `line`."""
    for name in said:
        pattern = re.escape(name) + r"(?::(\d+)(?::\d+)?|#L(\d+)(?:-L?(\d+))?)"
        for found in re.finditer(pattern, body):
            start = int(found.group(1) or found.group(2))
            end = int(found.group(3) or start)
            if start <= line <= end:
                return True
    return False


def naming(
    conn: sqlite3.Connection,
    project: str,
    path: str,
    formers: Sequence[Former],
    *,
    is_top_folder: Any,
    lineage: Lineage | None,
) -> list[tuple[Memory, bool, tuple[str, ...], str | None]]:
    """The project's memories (every state) that name `path` or one of its former
    names: (memory, anchor inferred, the names used, the rename when only a former
    name is used), newest first."""
    wanted = {path.rstrip("/"): None, **{f.name: f for f in formers}}
    # A file that took the name of one gone before it: a memory written before it
    # arrived names the earlier file (which may live on under a new name).
    arrived = reborn(lineage, path.rstrip("/")) if lineage is not None else None
    needles = sorted({_base(name) for name in wanted})
    where = " OR ".join("instr(body, ?) > 0" for _ in needles)
    rows = conn.execute(
        f"SELECT {COLUMNS}, anchor_inferred FROM memories WHERE project = ? AND ({where})"
        " ORDER BY created_at DESC, id DESC",
        (project, *needles),
    ).fetchall()
    found = []
    for row in rows:
        memory = Memory(*row[:-1])
        said: list[str] = []
        renamed: str | None = None
        only_former = True
        for named in find_paths(memory.body):
            bare = named.rstrip("/")
            if bare.startswith(("/", "~")) or "*" in bare:
                continue
            rooted = from_root(bare, is_top_folder)
            for target, former in wanted.items():
                if not names(bare, target, rooted=rooted):
                    continue
                if former is None and arrived is not None:
                    if memory.head_commit is None or lineage is None:
                        continue
                    if lineage.written_before(memory.head_commit, arrived):
                        continue
                if former is not None and former.reused:
                    # Another file has the old name now: only a memory written before
                    # the rename means this one.
                    if memory.head_commit is None or lineage is None:
                        continue
                    if not lineage.written_before(memory.head_commit, former.renamed):
                        continue
                said.append(named)
                if former is None:
                    only_former = False
                elif renamed is None:
                    renamed = when(former.renamed)
                break
        if said:
            found.append((memory, bool(row[-1]), tuple(said), renamed if only_former else None))
    return found
