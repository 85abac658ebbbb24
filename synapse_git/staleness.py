"""Is a path a memory names still there? Asked of git, the git-aware way (§7 stale).

`Checkout` loads what it needs once — the index, the never-missing rules — and
walks recent history only when some path is actually missing. A missing path
git has seen (at the commit the memory was written on, in the index, or in
recent history) is stale, with its new name when rename detection finds one;
a missing path git never saw is unverified.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pygit2

from synapse_git.paths import NeverMissing
from synapse_git.scope import Scope, open_repository

Status = Literal["present", "skipped", "stale", "unverified"]

HISTORY_LIMIT = 300  # commits walked back from HEAD to learn what git has seen
RENAME_CHAIN = 5  # renames followed when a renamed path moved again

_DELETED = {pygit2.enums.DeltaStatus.DELETED, pygit2.enums.DeltaStatus.RENAMED}


@dataclass(frozen=True)
class PathState:
    path: str
    status: Status
    renamed_to: str | None = None
    seen: str | None = None  # where git saw it: "index", "memory commit", "history"


def _parents(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts))]


def _tails(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[start:]) for start in range(1, len(parts))]


class Checkout:
    """What the checkout `scope` stands in holds and what its git history has seen.

    With `tree` (e.g. the staged tree a commit would record), presence is judged
    against that tree instead of the working files."""

    def __init__(
        self,
        scope: Scope,
        *,
        tree: Any | None = None,
        rules: NeverMissing | None = None,
        history_limit: int = HISTORY_LIMIT,
    ) -> None:
        self.scope = scope
        self.root = scope.checkout
        self.repo: Any | None = None
        self.history_limit = history_limit
        self._tree = tree
        tracked: set[str] = set()
        gitignores: list[str] = []
        if scope.checkout is not None and scope.git_dir is not None:
            self.repo = open_repository(scope)
            entries = (
                (entry.path for entry in self.repo.index)
                if tree is None
                else (path for path, _ in _walk_tree(tree, ""))
            )
            for path in entries:
                tracked.add(path)
                if path == ".gitignore" or path.endswith("/.gitignore"):
                    gitignores.append(path)
        self.tracked = tracked
        self.tracked_dirs = {parent for path in tracked for parent in _parents(path)}
        self.rules = rules or NeverMissing.for_checkout(
            self.root, gitignores=gitignores if self.repo is not None else None
        )
        self._tail_set: set[str] | None = None
        self._history: tuple[set[str], dict[str, tuple[Any, Any]]] | None = None
        self._in_commit: dict[tuple[str, str], bool] = {}
        self._renames: dict[tuple[Any, Any], dict[str, str]] = {}
        self._staged: dict[str, str] | None = None

    # -- presence -----------------------------------------------------------------

    def _tails(self) -> set[str]:
        """Every trailing part of every tracked path, so `db.py` and `app/db.py`
        count as present when `src/app/db.py` is."""
        if self._tail_set is None:
            tails: set[str] = set()
            for path in self.tracked:
                tails.update(_tails(path))
            for folder in self.tracked_dirs:
                tails.update(_tails(folder))
            self._tail_set = tails
        return self._tail_set

    def _exact(self, path: str) -> bool:
        if self._tree is not None:
            return path in self.tracked or path in self.tracked_dirs
        assert self.root is not None
        return os.path.lexists(self.root / path)

    def present(self, path: str) -> bool:
        if self._exact(path):
            return True
        if path in self.tracked or path in self.tracked_dirs:
            return False  # tracked at exactly this place, yet gone from the files
        return path in self._tails()

    # -- what git has seen --------------------------------------------------------

    def _walk(self) -> tuple[set[str], dict[str, tuple[Any, Any]]]:
        """Paths touched in recent history, and for each deleted path (and its
        folders) the most recent (parent tree, tree) pair that deleted it."""
        if self._history is None:
            seen: set[str] = set()
            deleted: dict[str, tuple[Any, Any]] = {}
            repo = self.repo
            if repo is not None and not repo.head_is_unborn:
                walker = repo.walk(repo.head.target, pygit2.enums.SortMode.TIME)
                for count, commit in enumerate(walker):
                    if count >= self.history_limit:
                        break
                    if not commit.parents:
                        continue
                    before = commit.parents[0].tree
                    for delta in before.diff_to_tree(commit.tree).deltas:
                        old = delta.old_file.path
                        seen.add(old)
                        seen.add(delta.new_file.path)
                        if delta.status in _DELETED:
                            for name in (old, *_parents(old)):
                                deleted.setdefault(name, (before, commit.tree))
            for path in list(seen):
                seen.update(_parents(path))
                seen.update(_tails(path))
            self._history = (seen, deleted)
        return self._history

    def _at_commit(self, commit_id: str | None, path: str) -> bool:
        if commit_id is None or self.repo is None:
            return False
        key = (commit_id, path)
        if key not in self._in_commit:
            try:
                commit = self.repo.get(commit_id)
                found = commit is not None and path in commit.peel(pygit2.Tree)
            except (ValueError, KeyError, pygit2.GitError):
                found = False
            self._in_commit[key] = bool(found)
        return self._in_commit[key]

    def _seen(self, path: str, commit_id: str | None) -> str | None:
        if path in self.tracked or path in self.tracked_dirs:
            return "index"
        if self._at_commit(commit_id, path):
            return "memory commit"
        if path in self._walk()[0]:
            return "history"
        return None

    # -- where it went ------------------------------------------------------------

    def _similar(self, before: Any, after: Any) -> dict[str, str]:
        key = (before.id, after.id)
        if key not in self._renames:
            diff = before.diff_to_tree(after)
            diff.find_similar(flags=pygit2.enums.DiffFind.FIND_RENAMES)
            self._renames[key] = {
                delta.old_file.path: delta.new_file.path
                for delta in diff.deltas
                if delta.status == pygit2.enums.DeltaStatus.RENAMED
            }
        return self._renames[key]

    def _staged_renames(self) -> dict[str, str]:
        """Renames staged but not committed (`git mv`)."""
        if self._staged is None:
            self._staged = {}
            repo = self.repo
            if repo is not None and not repo.head_is_unborn and self._tree is None:
                diff = repo.index.diff_to_tree(repo.head.peel(pygit2.Tree))
                diff.find_similar(flags=pygit2.enums.DiffFind.FIND_RENAMES)
                for delta in diff.deltas:
                    if delta.status == pygit2.enums.DeltaStatus.RENAMED:
                        self._staged[delta.old_file.path] = delta.new_file.path
        return self._staged

    def _renamed_once(self, path: str, commit_id: str | None) -> str | None:
        renames: list[dict[str, str]] = [self._staged_renames()]
        pair = self._walk()[1].get(path)
        if pair is not None:
            renames.append(self._similar(*pair))
        if commit_id is not None and self.repo is not None and not self.repo.head_is_unborn:
            try:
                old = self.repo.get(commit_id)
                if old is not None:
                    renames.append(
                        self._similar(old.peel(pygit2.Tree), self.repo.head.peel(pygit2.Tree))
                    )
            except (ValueError, pygit2.GitError):
                pass
        for found in renames:
            if path in found:
                return found[path]
            moved = _moved_folder(path, found)
            if moved is not None:
                return moved
        return None

    def renamed(self, path: str, commit_id: str | None) -> str | None:
        """Where git's rename detection says `path` went, following a few renames."""
        current = path
        for _ in range(RENAME_CHAIN):
            target = self._renamed_once(current, commit_id)
            if target is None or target == path:
                return None if current == path else current
            current = target
            if self.present(current):
                return current
        return current

    # -- the question -------------------------------------------------------------

    def check(self, path: str, commit_id: str | None = None, *, relative: bool = True) -> PathState:
        """The state of `path` as `find_paths` gives it. Relative paths are checked
        against this checkout only when `relative` (project memory)."""
        if path.startswith(("/", "~/")):
            return self._absolute(path, commit_id)
        if not relative or self.root is None or path.startswith("../"):
            return PathState(path, "skipped")
        if self.rules.skips(path):
            return PathState(path, "skipped")
        key = path.rstrip("/")
        if self.present(key):
            return PathState(path, "present")
        seen = self._seen(key, commit_id)
        if seen is None:
            return PathState(path, "unverified")
        return PathState(path, "stale", self.renamed(key, commit_id), seen)

    def _absolute(self, path: str, commit_id: str | None) -> PathState:
        if self.rules.skips(path):
            return PathState(path, "skipped")
        full = os.path.expanduser(path) if path.startswith("~/") else path
        if self.root is not None and self.repo is not None:
            root = str(self.root).rstrip("/") + "/"
            if full.startswith(root) and len(full) > len(root):
                inner = self.check(full[len(root) :], commit_id)
                return PathState(path, inner.status, inner.renamed_to, inner.seen)
        if os.path.lexists(full):
            return PathState(path, "present")
        # A folder near the top that exists means the path belongs to this machine
        # and is gone; a route like /api/v1/users never was a file here.
        parts = [part for part in full.split("/") if part]
        return PathState(path, "stale" if Path("/", parts[0]).is_dir() else "unverified")


def _moved_folder(path: str, renames: dict[str, str]) -> str | None:
    """A folder whose files were renamed into one other folder moved there."""
    prefix = path.rstrip("/") + "/"
    targets = set()
    for old, new in renames.items():
        if old.startswith(prefix):
            rest = old[len(prefix) :]
            if not new.endswith("/" + rest) and new != rest:
                return None
            targets.add(new[: len(new) - len(rest)].rstrip("/"))
    return targets.pop() if len(targets) == 1 else None


def _walk_tree(tree: Any, prefix: str) -> Any:
    for entry in tree:
        name = posixpath.join(prefix, entry.name) if prefix else entry.name
        if entry.type_str == "tree":
            yield from _walk_tree(entry, name)
        else:
            yield name, entry
