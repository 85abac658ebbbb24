"""`changed`: a file a memory names has changed a lot since the memory was written
(docs/drift.md, changed).

The memory's anchor is the commit HEAD was at when it was written
(`head_commit`). What changed since is asked of git: the commits in
`ANCHOR..HEAD` touching the path, and the lines they added and removed (each
commit's own count, so a file rewritten and put back still counts as changed).
Memories written at one commit share one `git log`. A soft finding: it never
blocks a commit, never hides a memory at session start and never makes
`memory drift` exit 1; it says "read this again". Pure git subprocesses: no
pygit2.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from synapse_git.drift.finding_record import Finding
from synapse_git.drift.short_forms import Tree, from_root, named_among
from synapse_git.git import git_command
from synapse_git.settings import DriftSettings
from synapse_git.store.memories import Memory

if TYPE_CHECKING:
    from synapse_git.drift.churn_cache import Kept
    from synapse_git.git.project_scope import Scope

# git refuses a command line past a few MB; this many paths stays far below it.
PATHS_PER_CALL = 500
_COMMIT = re.compile(r"^[0-9a-f]{7,64}$")


class Churn(NamedTuple):
    commits: int
    lines: int


def reached(churn: Churn, limits: DriftSettings) -> bool:
    """Whether `churn` is "a lot" by the configured thresholds (0: that measure is off)."""
    by_commits = limits.changed_commits > 0 and churn.commits >= limits.changed_commits
    by_lines = limits.changed_lines > 0 and churn.lines >= limits.changed_lines
    return by_commits or by_lines


def churn_since(
    root: Path, anchor: str, paths: Sequence[str], kept: Kept | None = None
) -> dict[str, Churn] | None:
    """For each of `paths` (files or folders, as git names them), the commits in
    ANCHOR..HEAD touching it and the lines they added and removed; None when git
    does not know the anchor (a commit of another clone, or rewritten away). What
    git said for this HEAD before is read from `kept` (churn_cache.py; without it,
    from the data folder, and saved there)."""
    if not _COMMIT.match(anchor):
        return None
    alone = kept is None
    if kept is None:
        kept = kept_at(root)
        if kept is None:
            return _from_git(root, anchor, paths)
    known = kept.get(anchor)
    missing = [path for path in paths if path not in known]
    if missing:
        found = _from_git(root, anchor, missing)
        if found is None:
            return None
        fresh = {path: (churn.commits, churn.lines) for path, churn in found.items()}
        kept.add(anchor, fresh)
        known.update(fresh)
    if alone:
        kept.save()
    return {path: Churn(*known[path]) for path in paths}


def kept_at(root: Path) -> Kept | None:
    """What is kept for the repository at `root` and its HEAD; None before a first
    commit (nothing to keep it for)."""
    from synapse_git.drift.churn_cache import Kept

    done = git_command.git(["rev-parse", "--verify", "-q", "HEAD"], root)
    head = done.stdout.decode("ascii", "replace").strip()
    if done.returncode != 0 or not _COMMIT.match(head):
        return None
    return Kept(root, head)


def _from_git(root: Path, anchor: str, paths: Sequence[str]) -> dict[str, Churn] | None:
    """`churn_since`, asked of git."""
    commits: dict[str, set[str]] = {path: set() for path in paths}
    lines = dict.fromkeys(paths, 0)
    for start in range(0, len(paths), PATHS_PER_CALL):
        chunk = paths[start : start + PATHS_PER_CALL]
        specs = [f":(literal){path}" for path in chunk]
        log = ["log", "--no-renames", "--format=%x01%H", "--numstat", "-z", f"{anchor}..HEAD"]
        done = git_command.git([*log, "--", *specs], root)
        if done.returncode != 0:
            return None
        current = ""
        for field in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
            field = field.lstrip("\n")
            if field.startswith("\x01"):
                current = field[1:]
                continue
            added, _, rest = field.partition("\t")
            removed, _, name = rest.partition("\t")
            if not name:
                continue
            count = sum(int(n) for n in (added, removed) if n.isdigit())  # binary: "-"
            for path in chunk:
                if name == path or name.startswith(path + "/"):
                    commits[path].add(current)
                    lines[path] += count
    return {path: Churn(len(commits[path]), lines[path]) for path in paths}


def resolved(named: str, tree: Tree) -> str | None:
    """The one tracked file `named` names now, None for none, several or a folder: a
    folder always changes a lot, and its history is the dearest to read."""
    key = named.rstrip("/")
    if key in tree.files:
        return key
    if tree.holds(key):
        return None
    if any(char in key for char in "*?[") or key.startswith(("/", "~", "../")):
        return None
    rooted = from_root(key, tree.folders.__contains__)
    found = named_among(key, tree.files | tree.folders, rooted=rooted)
    return found[0] if len(found) == 1 and found[0] in tree.files else None


def changed(
    rows: Sequence[Memory],
    project: str | None,
    root: Path | None,
    limits: DriftSettings,
    *,
    find_paths: Callable[[str], list[str]],
    tracked: Callable[[], Iterable[str]],
) -> list[Finding]:
    """A `changed` finding for each project memory of `rows` naming a file (or
    folder) that changed past the thresholds since the memory's commit."""
    if root is None or project is None or (limits.changed_commits == limits.changed_lines == 0):
        return []
    anchored = [m for m in rows if m.project == project and m.head_commit]
    named = [(memory, find_paths(memory.body)) for memory in anchored]
    named = [(memory, paths) for memory, paths in named if paths]
    if not named:
        return []
    tree = Tree(tracked())
    by_anchor: dict[str, list[tuple[Memory, list[tuple[str, str]]]]] = {}
    for memory, paths in named:
        pairs = [(p, found) for p in paths if (found := resolved(p, tree)) is not None]
        if pairs:
            assert memory.head_commit is not None
            by_anchor.setdefault(memory.head_commit, []).append((memory, pairs))
    findings: list[Finding] = []
    # HEAD resolved and the kept answers read once for every anchor, written once after.
    kept = kept_at(root)
    for anchor, group in sorted(by_anchor.items()):
        wanted = sorted({found for _, pairs in group for _, found in pairs})
        churn = (
            _from_git(root, anchor, wanted)
            if kept is None
            else churn_since(root, anchor, wanted, kept)
        )
        if churn is None:
            continue
        for memory, pairs in group:
            hit = [(p, churn[found]) for p, found in pairs if reached(churn[found], limits)]
            if hit:
                findings.append(_finding(memory, anchor, hit))
    if kept is not None:
        kept.save()
    return sorted(findings, key=lambda f: f.ids)


def in_scope(
    rows: Sequence[Memory],
    scope: Scope,
    limits: DriftSettings,
    find_paths: Callable[[str], list[str]] | None = None,
) -> list[Finding]:
    """`changed` findings about `rows` for the checkout `scope` stands in."""
    from synapse_git.drift.paths import find_paths as every_path

    root = scope.checkout
    if root is None:
        return []
    return changed(
        rows,
        scope.project,
        root,
        limits,
        find_paths=every_path if find_paths is None else find_paths,
        tracked=lambda: git_command.tracked_files(root),
    )


def _finding(memory: Memory, anchor: str, hit: list[tuple[str, Churn]]) -> Finding:
    def said(path: str, churn: Churn) -> str:
        noun = "commit" if churn.commits == 1 else "commits"
        return f"{path} ({churn.commits} {noun}, {churn.lines} lines)"

    parts = ", ".join(said(path, churn) for path, churn in hit)
    return Finding(
        "changed",
        (memory.id,),
        f"memory {memory.id} names {parts}, changed since it was written at {anchor[:12]}; "
        "check that it still holds",
        f"synapse memory read {memory.id}",
        paths=tuple(path for path, _ in hit),
        changes=tuple((path, churn.commits, churn.lines) for path, churn in hit),
        anchor=anchor,
    )
