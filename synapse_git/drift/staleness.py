"""Is a path a memory names still there? Asked of git, the git-aware way (docs/drift.md, stale).

`CheckoutPaths` loads what it needs once — the index, the never-missing rules — and
walks recent history only when some path is actually missing. A missing path
git has seen (at the commit the memory was written on, in the index, or in
recent history) is stale, with its new name when rename detection finds one;
a missing path git never saw is unverified.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pygit2

from synapse_git.drift.paths import NeverMissing
from synapse_git.git.project_scope import Scope, open_repository

Status = Literal["present", "skipped", "stale", "unverified"]

HISTORY_LIMIT = 300  # commits walked back from HEAD to learn what git has seen
RENAME_CHAIN = 5  # renames followed when a renamed path moved again

_DELETED = {pygit2.enums.DeltaStatus.DELETED, pygit2.enums.DeltaStatus.RENAMED}


@dataclass(frozen=True)
class PathState:
    path: str
    status: Status
    renamed_to: str | None = None
    seen: str | None = None  # where git saw it: index, memory commit, HEAD, history


def _parents(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts))]


def _tails(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[start:]) for start in range(1, len(parts))]


class CheckoutPaths:
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
        self._root = str(scope.checkout) if scope.checkout is not None else ""
        self._trees: dict[str, Any] = {}
        self.repo: Any | None = None
        self.history_limit = history_limit
        self._tree = tree
        if scope.checkout is not None and scope.git_dir is not None:
            self.repo = open_repository(scope)
        self._rules = rules
        # Loaded on first need: most checks end at one stat of a path that exists.
        self._tracked: tuple[set[str], set[str]] | None = None
        self._tail_set: set[str] | None = None
        self._walker: Iterator[Any] | None = None
        self._walked = 0
        self._seen_paths: set[str] = set()
        # path (and its folders) -> (parent tree, tree) of the newest commit deleting it
        self._deleted: dict[str, tuple[Any, Any]] = {}
        self._in_commit: dict[tuple[str, str], bool] = {}
        self._renames: dict[tuple[Any, Any], dict[str, str]] = {}
        self._staged: dict[str, str] | None = None

    def _load_tracked(self) -> tuple[set[str], set[str]]:
        """Tracked paths (the index, or the given tree) and their folders, read once."""
        if self._tracked is None:
            tracked: set[str] = set()
            if self.repo is not None:
                if self._tree is None:
                    tracked = {entry.path for entry in self.repo.index}
                else:
                    tracked = {path for path, _ in _walk_tree(self._tree, "")}
            folders = {parent for path in tracked for parent in _parents(path)}
            self._tracked = (tracked, folders)
        return self._tracked

    @property
    def tracked(self) -> set[str]:
        return self._load_tracked()[0]

    @property
    def tracked_dirs(self) -> set[str]:
        return self._load_tracked()[1]

    @property
    def rules(self) -> NeverMissing:
        if self._rules is None:
            self._rules = NeverMissing.for_checkout(self.root)
        return self._rules

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
        return os.path.lexists(os.path.join(self._root, path))

    def present(self, path: str) -> bool:
        if self._exact(path):
            return True
        if self._tree is None and self._rooted(path):
            return False  # written from the checkout's root, and not there
        if path in self.tracked or path in self.tracked_dirs:
            return False  # tracked at exactly this place, yet gone
        return path in self._tails()

    def _rooted(self, path: str) -> bool:
        """`src/x.py` whose first folder exists at the root names a place from the
        root; `app/x.py` (no top-level `app`) may be a tail of `src/app/x.py`."""
        assert self.root is not None
        return "/" in path and os.path.isdir(os.path.join(self._root, path.split("/", 1)[0]))

    def _in_index(self, path: str) -> bool:
        if self._tree is not None or self.repo is None:
            return path in self.tracked or path in self.tracked_dirs
        return path in self.repo.index  # one lookup in C, no full read

    # -- what git has seen --------------------------------------------------------

    def _history_has(self, path: str) -> bool:
        """Walk recent history (newest first, bounded) until `path` has been seen:
        the common case, a recent deletion, stops after a few commits."""
        if self._walker is None:
            repo = self.repo
            if repo is None or repo.head_is_unborn:
                self._walker = iter(())
            else:
                self._walker = iter(repo.walk(repo.head.target, pygit2.enums.SortMode.TIME))
        while path not in self._seen_paths and self._walked < self.history_limit:
            commit = next(self._walker, None)
            if commit is None:
                self._walked = self.history_limit
                break
            self._walked += 1
            if not commit.parents:
                continue
            before = commit.parents[0].tree
            for delta in before.diff_to_tree(commit.tree).deltas:
                for name in {delta.old_file.path, delta.new_file.path}:
                    self._seen_paths.add(name)
                    self._seen_paths.update(_parents(name))
                    self._seen_paths.update(_tails(name))
                if delta.status in _DELETED:
                    old = delta.old_file.path
                    for name in (old, *_parents(old)):
                        self._deleted.setdefault(name, (before, commit.tree))
        return path in self._seen_paths

    def _at_commit(self, commit_id: str | None, path: str) -> bool:
        if commit_id is None or self.repo is None:
            return False
        key = (commit_id, path)
        if key not in self._in_commit:
            tree = self._tree_of(commit_id)
            self._in_commit[key] = tree is not None and path in tree
        return self._in_commit[key]

    def _tree_of(self, commit_id: str) -> Any | None:
        """The tree of a commit, once per commit; None when the commit is unknown
        here (written in a clone that never pushed it)."""
        if commit_id not in self._trees:
            try:
                commit = self.repo.get(commit_id) if self.repo is not None else None
                self._trees[commit_id] = None if commit is None else commit.peel(pygit2.Tree)
            except (ValueError, KeyError, pygit2.GitError):
                self._trees[commit_id] = None
        return self._trees[commit_id]

    def _seen(self, path: str, commit_id: str | None) -> str | None:
        if self._in_index(path):
            return "index"
        if self._at_commit(commit_id, path):
            return "memory commit"
        repo = self.repo
        if (
            repo is not None
            and not repo.head_is_unborn
            and self._at_commit(str(repo.head.target), path)
        ):
            return "HEAD"
        if self._history_has(path):
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
        self._history_has(path)
        pair = self._deleted.get(path)
        if pair is not None:
            renames.append(self._similar(*pair))
        if commit_id is not None and self.repo is not None and not self.repo.head_is_unborn:
            old = self._tree_of(commit_id)
            now = self._tree_of(str(self.repo.head.target))
            if old is not None and now is not None:
                renames.append(self._similar(old, now))
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
        key = path.rstrip("/")
        # Presence first: most named paths exist, and it is cheaper than the rules.
        if self.present(key):
            return PathState(path, "present")
        if self.rules.skips(path):
            return PathState(path, "skipped")
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
