"""Which project a folder belongs to: the git repository it stands in (docs/store.md).

The key is the realpath of the repository's main worktree root, so every
linked worktree of one repository shares one project's memory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pygit2

from synapse_git.errors import BadInput
from synapse_git.textrules import utf8


@dataclass(frozen=True)
class Scope:
    folder: Path
    project: str | None
    checkout: Path | None
    main_worktree: Path | None
    git_dir: Path | None
    note: str | None = None

    @property
    def projects(self) -> tuple[str, ...]:
        """The project keys visible from here besides global memory."""
        return () if self.project is None else (self.project,)


@dataclass(frozen=True)
class Head:
    commit: str | None
    branch: str | None


def resolve(folder: str | os.PathLike[str] | None = None) -> Scope:
    """The scope of `folder` (default: the current folder)."""
    try:
        where = Path(os.path.realpath(folder if folder is not None else os.getcwd()))
    except (OSError, ValueError) as exc:
        # A NUL byte or a lone surrogate (ValueError) makes no path at all.
        reason = exc.strerror if isinstance(exc, OSError) else "not a valid path"
        raise BadInput(f"cannot use folder {str(folder)[:200]!r}: {reason}") from None
    if not where.is_dir():
        raise BadInput(f"{where} is not a folder")
    try:
        git_dir = pygit2.discover_repository(str(where))
    except pygit2.GitError:
        git_dir = None
    if git_dir is None:
        return Scope(where, None, None, None, None, f"{where} is not inside a git repository")
    try:
        repo = pygit2.Repository(git_dir)
        if repo.is_bare or repo.workdir is None:
            return Scope(where, None, None, None, Path(git_dir), f"{git_dir} is a bare repository")
        checkout = Path(os.path.realpath(repo.workdir))
        main = _main_worktree(Path(git_dir), checkout)
    except (pygit2.GitError, OSError) as exc:
        raise BadInput(f"cannot open the git repository at {git_dir}: {exc}") from None
    # Project keys are stored as text: a path that is not UTF-8 cannot be one.
    utf8(str(main), "the repository's path")
    return Scope(where, str(main), checkout, main, Path(os.path.realpath(git_dir)))


def _main_worktree(git_dir: Path, checkout: Path) -> Path:
    """The main worktree of the repository whose (possibly linked) git dir is `git_dir`."""
    commondir_file = git_dir / "commondir"
    if not commondir_file.is_file():
        return checkout
    common = (git_dir / commondir_file.read_text(encoding="utf-8").strip()).resolve()
    main = pygit2.Repository(str(common))
    if main.is_bare or main.workdir is None:
        # A worktree of a bare repository: the bare repository names the project.
        return common
    return Path(os.path.realpath(main.workdir))


def open_repository(scope: Scope) -> pygit2.Repository:
    """The repository of the checkout `scope` stands in."""
    if scope.git_dir is None:
        raise BadInput(scope.note or f"{scope.folder} is not inside a git repository")
    return pygit2.Repository(str(scope.git_dir))


@contextmanager
def _readable(scope: Scope) -> Iterator[None]:
    """pygit2's errors about a damaged repository (a HEAD naming a missing commit,
    lost objects) as one line the user can act on."""
    try:
        yield
    except (pygit2.GitError, KeyError, ValueError) as exc:
        detail = str(exc).strip("'\"")[:200]
        raise BadInput(
            f"cannot read the git repository at {scope.git_dir} ({detail}); "
            "`git fsck` says what is damaged"
        ) from None


def head(scope: Scope) -> Head:
    """The commit and branch the checkout is on (None before the first commit)."""
    if scope.git_dir is None:
        return Head(None, None)
    with _readable(scope):
        return _head(scope)


def _head(scope: Scope) -> Head:
    repo = open_repository(scope)
    if repo.head_is_unborn:
        ref = repo.references.get("HEAD")
        target = ref.target if ref is not None else None
        branch = target.removeprefix("refs/heads/") if isinstance(target, str) else None
        return Head(None, branch)
    commit = str(repo.head.target)
    return Head(commit, None if repo.head_is_detached else repo.head.shorthand)


def root_commit(scope: Scope) -> str | None:
    """The first commit of HEAD's history; it identifies a repository that was moved."""
    if scope.git_dir is None:
        return None
    with _readable(scope):
        return _root_commit(scope)


def _root_commit(scope: Scope) -> str | None:
    repo = open_repository(scope)
    if repo.head_is_unborn:
        return None
    order = pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE
    walker = repo.walk(repo.head.target, order)
    first = next(iter(walker), None)
    return None if first is None else str(first.id)
