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
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

import pygit2

from synapse_git.drift.never_missing import NeverMissing
from synapse_git.drift.paths import is_glob, weak
from synapse_git.drift.short_forms import Tree, from_root, glob_rooted, matching
from synapse_git.drift.short_forms import parents as _parents
from synapse_git.drift.short_forms import tails as _tails
from synapse_git.git import git_command
from synapse_git.git.project_scope import Scope, open_repository

Status = Literal["present", "skipped", "stale", "unverified"]

HISTORY_LIMIT = 300  # commits walked back from HEAD to learn what git has seen
# The most the `git log` runs searching past that window may take together, for
# one check of many memories (measured: 0.15-0.4 s for one path never seen, on
# 5,000 commits, with a load average of 6-8 on 2 cores).
OLDER_HISTORY_SECONDS = 2.0
RENAME_CHAIN = 5  # renames followed when a renamed path moved again

_DELETED = {pygit2.enums.DeltaStatus.DELETED, pygit2.enums.DeltaStatus.RENAMED}


@dataclass(frozen=True)
class PathState:
    path: str
    status: Status
    renamed_to: str | None = None
    seen: str | None = None  # where git saw it: index, memory commit, HEAD, history
    deleted_as: str | None = None  # renamed, then deleted under this name
    # How much history an unverified path was looked for in.
    searched: Literal["all", "recent"] = "all"


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
        older_history: float = OLDER_HISTORY_SECONDS,
    ) -> None:
        self.scope = scope
        self.root = scope.checkout
        self._root = str(scope.checkout) if scope.checkout is not None else ""
        self._trees: dict[str, Any] = {}
        self.repo: Any | None = None
        self.history_limit = history_limit
        self.older_history = older_history  # seconds left; 0: search no further than the window
        self._tree = tree
        if scope.checkout is not None and scope.git_dir is not None:
            self.repo = open_repository(scope)
        self._rules = rules
        # Loaded on first need: most checks end at one stat of a path that exists.
        self._tracked: Tree | None = None
        self._skip_worktree: Tree | None = None
        self._listed: dict[str, Tree | None] = {}  # commit -> its files, for patterns
        self._walker: Iterator[Any] | None = None
        self._walked = 0
        self._walked_all = False
        self._older: dict[str, bool | None] = {}
        self._seen_paths: set[str] = set()
        # path (and its folders) -> (parent tree, tree) of the newest commit deleting it
        self._deleted: dict[str, tuple[Any, Any]] = {}
        self._in_commit: dict[tuple[str, str], bool] = {}
        self._renames: dict[tuple[Any, Any], dict[str, str]] = {}
        self._staged: dict[str, str] | None = None

    def _load_tracked(self) -> Tree:
        """Tracked paths (the index, or the given tree) and their folders, read once."""
        if self._tracked is None:
            tracked: set[str] = set()
            if self.repo is not None:
                if self._tree is None:
                    tracked = self._index_paths()
                else:
                    tracked = {path for path, _ in _walk_tree(self._tree, "")}
            self._tracked = Tree(tracked)
        return self._tracked

    def _index_paths(self) -> set[str]:
        assert self.repo is not None
        try:
            return {entry.path for entry in self.repo.index}
        except pygit2.GitError:
            # A sparse index (`index.sparse`) is beyond libgit2; git lists it in full.
            assert self.root is not None
            return set(git_command.tracked_files(self.root))

    def _sparse(self) -> Tree:
        """Tracked files git keeps out of the working files (sparse checkout,
        `update-index --skip-worktree`): still part of the project. One `git ls-files`,
        only once a tracked path is found missing from the working files."""
        if self._skip_worktree is None:
            files: set[str] = set()
            if self.repo is not None and self.root is not None:
                files = git_command.skip_worktree_files(self.root)
            self._skip_worktree = Tree(files)
        return self._skip_worktree

    @property
    def tracked(self) -> set[str]:
        return self._load_tracked().files

    @property
    def tracked_dirs(self) -> set[str]:
        return self._load_tracked().folders

    @property
    def rules(self) -> NeverMissing:
        if self._rules is None:
            self._rules = NeverMissing.for_checkout(self.root)
        return self._rules

    # -- presence -----------------------------------------------------------------

    def _exact(self, path: str) -> bool:
        if self._tree is not None:
            return path in self.tracked or path in self.tracked_dirs
        assert self.root is not None
        return os.path.lexists(os.path.join(self._root, path))

    def present(self, path: str) -> bool:
        """Whether `path` names something here, by the rule the commit hook also
        follows (short_forms.py): `app/db.py` is present while `src/app/db.py` is."""
        if self._exact(path):
            return True
        tree = self._load_tracked()
        if tree.holds(path):
            # Tracked at exactly this place, yet not in the working files: gone, unless
            # git keeps it out of them on purpose (sparse checkout).
            return self._tree is None and self._sparse().holds(path)
        return tree.resolves(path, rooted=from_root(path, tree.folders.__contains__))

    def _matches_now(self, named: str) -> bool:
        tree = self._load_tracked()
        rooted = glob_rooted(named, tree.folders.__contains__)
        return bool(matching(named, (*tree.files, *tree.folders), rooted=rooted))

    def _matched_at(self, commit_id: str | None, named: str) -> bool | None:
        """Whether the pattern matched something at `commit_id`; None when that commit
        is unknown here."""
        if commit_id is None or self.repo is None:
            return None
        if commit_id not in self._listed:
            tree = self._tree_of(commit_id)
            self._listed[commit_id] = (
                None if tree is None else Tree(path for path, _ in _walk_tree(tree, ""))
            )
        then = self._listed[commit_id]
        if then is None:
            return None
        rooted = glob_rooted(named, then.folders.__contains__)
        return bool(matching(named, (*then.files, *then.folders), rooted=rooted))

    def _in_index(self, path: str) -> bool:
        if self._tree is not None or self.repo is None:
            return path in self.tracked or path in self.tracked_dirs
        try:
            return path in self.repo.index  # one lookup in C, no full read
        except pygit2.GitError:
            return path in self.tracked or path in self.tracked_dirs

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
                self._walked, self._walked_all = self.history_limit, True
                break
            self._walked += 1
            if not commit.parents:
                continue
            before = commit.parents[0].tree
            for delta in before.diff_to_tree(commit.tree).deltas:
                for name in {delta.old_file.path, delta.new_file.path}:
                    self._seen_paths.add(name)
                    for folder in _parents(name):
                        self._seen_paths.add(folder)
                        self._seen_paths.update(_tails(folder))
                    self._seen_paths.update(_tails(name))
                if delta.status in _DELETED:
                    old = delta.old_file.path
                    for name in (old, *_parents(old), *_tails(old)):
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
        if self._older_history(path):
            return "older history"
        return None

    def _older_history(self, path: str) -> bool | None:
        """Past the walked window, ask `git log` (bounded in time) for the newest
        commit touching `path`: a path deleted long ago is stale, not unknown.
        True: found; False: not in any history; None: the search was cut short."""
        if path in self._older:
            return self._older[path]
        found: bool | None = False
        if self.repo is not None and self.root is not None and not self._history_has(path):
            if self._walked_all:
                found = False  # the window reached the first commit: nothing older
            elif self.older_history <= 0:
                found = None
            else:
                started = time.monotonic()
                tree = self._load_tracked()
                commit_id = git_command.newest_commit_touching(
                    self.root,
                    path,
                    also_longer=not from_root(path, tree.folders.__contains__),
                    timeout=self.older_history,
                )
                found = None if commit_id is None else bool(commit_id)
                self.older_history -= time.monotonic() - started
                commit = self._commit(commit_id) if commit_id else None
                if commit is not None and commit.parents:
                    # If that commit deleted or renamed it, rename detection can say where.
                    self._deleted.setdefault(path, (commit.parents[0].tree, commit.tree))
        self._older[path] = found
        return found

    def _commit(self, commit_id: str) -> Any | None:
        try:
            return self.repo.get(commit_id) if self.repo is not None else None
        except (ValueError, KeyError, pygit2.GitError):
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
        if not self._history_has(path):
            self._older_history(path)
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
            # A shorter form (`app/db.py`) follows the one path it names.
            longer = [old for old in found if old.endswith("/" + path)]
            if len(longer) == 1:
                return found[longer[0]]
            moved = _moved_folder(path, found)
            if moved is not None:
                return moved
        return None

    def renamed(self, path: str, commit_id: str | None) -> str | None:
        """Where git's rename detection says `path` went, following a few renames;
        None unless that place exists."""
        return self.follow(path, commit_id)[0]

    def follow(self, path: str, commit_id: str | None) -> tuple[str | None, str | None]:
        """Follow `path` through renames: (the name it exists under now, None) or
        (None, the last name it had before it was deleted); (None, None) when it
        was never renamed."""
        current = path
        for _ in range(RENAME_CHAIN):
            target = self._renamed_once(current, commit_id)
            if target is None or target == path:
                break
            current = target
            if self.present(current):
                return current, None
        return None, None if current == path else current

    # -- the question -------------------------------------------------------------

    def check(self, path: str, commit_id: str | None = None, *, relative: bool = True) -> PathState:
        """The state of `path` as `find_paths` gives it. Relative paths are checked
        against this checkout only when `relative` (project memory); an absolute or
        home path is checked only where it falls inside this checkout."""
        if path.startswith(("/", "~/")):
            return self._absolute(path, commit_id)
        if not relative or self.root is None or path.startswith("../"):
            return PathState(path, "skipped")
        if is_glob(path):
            return self._pattern(path, commit_id)
        key = path.rstrip("/")
        # Presence first: most named paths exist.
        if self.present(key):
            return PathState(path, "present")
        # What git has tracked is checked whatever its folders are called
        # (`src/pkg/build/wheel.py`); the never-missing rules are for the rest.
        seen = self._seen(key, commit_id)
        if seen is None:
            if weak(path) or self.rules.skips(path):
                return PathState(path, "skipped")
            cut = self._older.get(key, False) is None
            return PathState(path, "unverified", searched="recent" if cut else "all")
        now, deleted_as = self.follow(key, commit_id)
        return PathState(path, "stale", now, seen, deleted_as)

    def _pattern(self, named: str, commit_id: str | None) -> PathState:
        """A glob is there while something tracked matches it; stale when nothing does
        and something did at the commit the memory was written on."""
        if self._matches_now(named):
            return PathState(named, "present")
        then = self._matched_at(commit_id, named)
        if then:
            return PathState(named, "stale", seen="memory commit")
        if self.rules.skips(named.split("*", 1)[0] or named):
            return PathState(named, "skipped")
        # Without the memory's commit, whether it ever matched is not known.
        return PathState(named, "unverified", searched="all" if then is False else "recent")

    def _absolute(self, path: str, commit_id: str | None) -> PathState:
        """An absolute or home path is not part of the checkout and often describes
        another machine (a server, a teammate's home): never stale. One that falls
        inside this checkout is checked as the relative path it is."""
        full = os.path.expanduser(path) if path.startswith("~/") else path
        if self.root is not None and self.repo is not None:
            for root in {str(self.root), os.path.realpath(self.root)}:
                prefix = root.rstrip("/") + "/"
                if full.startswith(prefix) and len(full) > len(prefix):
                    inner = self.check(full[len(prefix) :], commit_id)
                    return replace(inner, path=path)
        return PathState(path, "skipped")


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
