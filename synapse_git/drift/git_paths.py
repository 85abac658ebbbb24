"""`CheckoutPaths` answered by the git command instead of pygit2 (docs/hooks.md).

The refresh after a checkout, a merge or a rewrite asks only whether the paths
a memory names are there, were there at its commit, and what a short name
meant then: the index, a commit's list of files, and now and then one file's
text. Importing pygit2 costs that hook more than all of those git calls
together, so this class reads them with `git ls-files`, `git ls-tree` and `git
cat-file`: the same answers, each read once per commit. Staged trees stay
with pygit2 (`CheckoutPaths`); a rename staged but not committed is git's own
rename detection here (`git diff --cached -M`), libgit2's there.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from synapse_git.drift.meant import LARGEST_READ
from synapse_git.drift.short_forms import Tree
from synapse_git.drift.staleness import CheckoutPaths
from synapse_git.git import git_command
from synapse_git.git.project_scope import Scope

# What pygit2 would take for an object id: hex, at least its shortest prefix.
_OBJECT_ID = re.compile(r"^[0-9a-fA-F]{4,64}$")


class GitCheckoutPaths(CheckoutPaths):
    """The checkout `scope` stands in, read with the git command; `head` is the
    commit HEAD is at and `tracked` lists the index, when the caller has them (else
    git is asked, once)."""

    def __init__(
        self,
        scope: Scope,
        *,
        head: str | None = None,
        tracked: Callable[[], list[str]] | None = None,
        wait: bool = True,
    ) -> None:
        self._known_head = head
        self._list_index = tracked
        self._head_read = head is not None
        self._reader: _BlobReader | None = None
        super().__init__(scope, wait=wait)

    def _open(self, scope: Scope) -> Any:
        return scope.git_dir  # no handle: git is asked in the checkout

    def _git_root(self) -> Path:
        assert self.root is not None
        return self.root

    def _head(self) -> str | None:
        if self.repo is None:
            return None
        if not self._head_read:
            self._head_read = True
            done = git_command.git(["rev-parse", "-q", "--verify", "HEAD^{commit}"], self.root)
            text = done.stdout.decode("ascii", "replace").strip()
            self._known_head = text if done.returncode == 0 and text else None
        return self._known_head

    def _index_paths(self) -> set[str]:
        if self._list_index is not None:
            return set(self._list_index())
        return set(git_command.tracked_files(self._git_root()))

    def _in_index(self, path: str) -> bool:
        return path in self.tracked

    def _tree_of(self, commit_id: str) -> Any | None:
        """The files of a commit (a short_forms.Tree), once per commit; None when the
        commit is unknown here."""
        if commit_id not in self._trees:
            tree: Tree | None = None
            if _OBJECT_ID.match(commit_id):
                done = git_command.git(
                    ["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit_id + "^{tree}"],
                    self._git_root(),
                )
                if done.returncode == 0:
                    names = done.stdout.decode("utf-8", "surrogateescape").split("\0")
                    tree = Tree(name for name in names if name)
            self._trees[commit_id] = tree
        return self._trees[commit_id]

    def _paths_of(self, tree: Any) -> Tree:
        assert isinstance(tree, Tree)
        return tree

    def _tree_holds(self, tree: Any, path: str) -> bool:
        return bool(tree.holds(path))

    def _staged_renames(self) -> dict[str, str]:
        if self._staged is None:
            self._staged = {}
            if self.repo is not None and self._head() is not None:
                for change in git_command.staged_changes(self._git_root()):
                    if change.status == "R" and change.new_path is not None:
                        self._staged[change.path] = change.new_path
        return self._staged

    def _blob(self, commit_id: str, name: str) -> bytes | None:
        if self._tree_of(commit_id) is None or "\n" in name:
            return None  # `cat-file --batch` reads one name a line
        if self._reader is None:
            self._reader = _BlobReader(self._git_root())
        return self._reader.read(f"{commit_id}:{name}")


class _BlobReader:
    """One `git cat-file --batch` for every file read, ended with its reader: a
    short name that named many files has each read, one process for them all."""

    def __init__(self, cwd: Path) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self._process = subprocess.Popen(
                ["git", *git_command.NO_PROGRAMS, "cat-file", "--batch"],
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return
        weakref.finalize(self, _end, self._process)

    def read(self, spec: str) -> bytes | None:
        process = self._process
        if process is None or process.stdin is None or process.stdout is None:
            return None
        try:
            process.stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")
            process.stdin.flush()
            fields = process.stdout.readline().rstrip(b"\n").split(b" ")
            if len(fields) != 3:
                return None  # `<spec> missing`, `<spec> ambiguous`
            size = int(fields[2])
            data = process.stdout.read(size + 1)[:size]  # and the newline after it
        except (OSError, ValueError):
            self._process = None
            return None
        return data if fields[1] == b"blob" and size <= LARGEST_READ else None


def _end(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        if process.stdin is not None:
            process.stdin.close()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
