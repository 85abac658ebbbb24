"""The repository side of drift/staleness.py's CheckoutPaths: what the checkout
tracks (the index, or a given tree) and the names of its files, what git keeps out
of its working files, what a commit held and what a pattern matched there, and the
renames staged; read with pygit2, each once (drift/git_paths.py's GitCheckoutPaths
reads the same with the git command).
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any

from synapse_git.drift.meant import LARGEST_READ
from synapse_git.drift.short_forms import Tree, glob_rooted, matching
from synapse_git.git import git_command
from synapse_git.git.project_scope import Scope, open_repository


class CheckoutRepository:
    """What CheckoutPaths asks of the repository; its state is set by CheckoutPaths."""

    repo: Any | None
    root: Path | None
    _tree: Any | None
    _trees: dict[str, Any]
    _tracked: Tree | None
    _skip_worktree: Tree | None
    _anchor_trees: dict[str, Tree | None]
    _in_commit: dict[tuple[str, str], bool]
    _staged: dict[str, str] | None
    _file_names: set[str] | None

    def _open(self, scope: Scope) -> Any:
        return open_repository(scope)

    def _head(self) -> str | None:
        """The commit HEAD is at; None on an unborn branch."""
        if self.repo is None or self.repo.head_is_unborn:
            return None
        return str(self.repo.head.target)

    def _paths_of(self, tree: Any) -> Tree:
        """Every file and folder of a tree `_tree_of` gave."""
        return Tree(path for path, _ in _walk_tree(tree, ""))

    def _tree_holds(self, tree: Any, path: str) -> bool:
        return path in tree

    def _blob(self, commit_id: str, name: str) -> bytes | None:
        """The file `name` at `commit_id`, when it is a file of at most LARGEST_READ bytes."""
        import pygit2

        tree = self._tree_of(commit_id)
        if tree is None:
            return None
        try:
            entry = tree[name]
            blob = self.repo.get(entry.id) if self.repo is not None else None
        except (KeyError, ValueError, pygit2.GitError):
            return None
        if not isinstance(blob, pygit2.Blob) or blob.size > LARGEST_READ:
            return None
        return bytes(blob.data)

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
        import pygit2

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

    def _in_index(self, path: str) -> bool:
        if self._tree is not None or self.repo is None:
            return path in self.tracked or path in self.tracked_dirs
        import pygit2

        try:
            return path in self.repo.index  # one lookup in C, no full read
        except pygit2.GitError:
            return path in self.tracked or path in self.tracked_dirs

    def _at_commit(self, commit_id: str | None, path: str) -> bool:
        if commit_id is None or self.repo is None:
            return False
        key = (commit_id, path)
        if key not in self._in_commit:
            tree = self._tree_of(commit_id)
            self._in_commit[key] = tree is not None and self._tree_holds(tree, path)
        return self._in_commit[key]

    def _tree_of(self, commit_id: str) -> Any | None:
        """The tree of a commit, once per commit; None when the commit is unknown
        here (written in a clone that never pushed it)."""
        if commit_id not in self._trees:
            import pygit2

            try:
                commit = self.repo.get(commit_id) if self.repo is not None else None
                self._trees[commit_id] = None if commit is None else commit.peel(pygit2.Tree)
            except (ValueError, KeyError, pygit2.GitError):
                self._trees[commit_id] = None
        return self._trees[commit_id]

    def _anchor_tree(self, commit_id: str) -> Tree | None:
        """Every file and folder of the memory's commit, for its short forms."""
        if commit_id not in self._anchor_trees:
            tree = self._tree_of(commit_id)
            self._anchor_trees[commit_id] = None if tree is None else self._paths_of(tree)
        return self._anchor_trees[commit_id]

    def _staged_renames(self) -> dict[str, str]:
        """Renames staged but not committed (`git mv`)."""
        if self._staged is None:
            import pygit2

            self._staged = {}
            repo = self.repo
            if repo is not None and not repo.head_is_unborn and self._tree is None:
                diff = repo.index.diff_to_tree(repo.head.peel(pygit2.Tree))
                diff.find_similar(flags=pygit2.enums.DiffFind.FIND_RENAMES)
                for delta in diff.deltas:
                    if delta.status == pygit2.enums.DeltaStatus.RENAMED:
                        self._staged[delta.old_file.path] = delta.new_file.path
        return self._staged

    def _matches_now(self, named: str) -> bool:
        tree = self._load_tracked()
        rooted = glob_rooted(named, tree.folders.__contains__)
        return bool(matching(named, (*tree.files, *tree.folders), rooted=rooted))

    def _matched_at(self, commit_id: str | None, named: str) -> bool | None:
        """Whether the pattern matched something at `commit_id`; None when that commit
        is unknown here."""
        if commit_id is None or self.repo is None:
            return None
        then = self._anchor_tree(commit_id)
        if then is None:
            return None
        rooted = glob_rooted(named, then.folders.__contains__)
        return bool(matching(named, (*then.files, *then.folders), rooted=rooted))

    def _names(self) -> set[str]:
        """The file names (last parts) tracked here, read once."""
        if self._file_names is None:
            self._file_names = {path.rsplit("/", 1)[-1] for path in self.tracked}
        return self._file_names


def _walk_tree(tree: Any, prefix: str) -> Any:
    for entry in tree:
        name = posixpath.join(prefix, entry.name) if prefix else entry.name
        if entry.type_str == "tree":
            yield from _walk_tree(entry, name)
        else:
            yield name, entry
