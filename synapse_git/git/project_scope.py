"""Which project a folder belongs to: the git repository it stands in (docs/store.md).

The key is the realpath of the repository's main worktree root, so every
linked worktree of one repository shares one project's memory.

pygit2 is imported only where it is used: finding the scope of an ordinary
checkout (a `.git` folder of this user's, nothing moving the work tree) is a
few `stat` calls, while importing pygit2 costs a short command most of its
start-up (docs/architecture.md, "Why the fast paths avoid typer, pygit2 and
mcp"). Anything less ordinary is left to pygit2, which decides as before.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput
from synapse_git.file_reads import regular_bytes
from synapse_git.git import repo_files
from synapse_git.textrules import utf8

if TYPE_CHECKING:
    import pygit2

# HEAD, a branch's ref, the config: a few bytes each, read no further than this.
_SMALL_BYTES = 1 << 20


_HEX = frozenset("0123456789abcdef")


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
    found = _ordinary_checkout(where)
    if found is False:
        return Scope(where, None, None, None, None, f"{where} is not inside a git repository")
    if isinstance(found, Path):
        utf8(str(found), "the repository's path")
        repo_files.check(found / ".git")
        return Scope(where, str(found), found, found, found / ".git")
    return _discovered(where)


def _ordinary_checkout(where: Path) -> Path | bool | None:
    """The root of the main worktree `where` stands in when it is an ordinary one,
    False when no repository can hold `where`, None when unsure (pygit2 decides).

    Ordinary means what libgit2's discovery would find the same way: walking up
    on one file system, the first folder holding a `.git` folder that is a
    repository of this user's (HEAD, objects, refs), with no `.git` file (a
    linked worktree, a submodule), no folder on the way that may itself be a
    repository, and no setting that moves or removes the work tree."""
    try:
        device = os.stat(where).st_dev
        current = where
        while True:
            if os.path.lexists(current / "HEAD"):
                return None
            dot_git = current / ".git"
            try:
                found = os.lstat(dot_git)
            except FileNotFoundError:
                pass
            else:
                ordinary = os.stat(current).st_uid == found.st_uid
                return current if ordinary and _ordinary_git_dir(dot_git, found) else None
            parent = current.parent
            if parent == current:
                return False
            if os.stat(parent).st_dev != device:
                return None
            current = parent
    except OSError:
        return None


def _ordinary_git_dir(dot_git: Path, found: os.stat_result) -> bool:
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
        return False
    if not (
        (dot_git / "HEAD").is_file()
        and (dot_git / "objects").is_dir()
        and (dot_git / "refs").is_dir()
    ):
        return False
    if os.path.lexists(dot_git / "commondir") or os.path.lexists(dot_git / "config.worktree"):
        return False
    try:
        config = regular_bytes(dot_git / "config", _SMALL_BYTES).lower()
    except FileNotFoundError:
        config = b""
    except OSError:
        return False
    # core.worktree, core.bare = true or an included file could move the work tree.
    if b"worktree" in config or b"include" in config:
        return False
    for line in config.splitlines():
        setting = line.split(b"#")[0].split(b";")[0].replace(b" ", b"").replace(b"\t", b"")
        if setting.startswith(b"bare") and setting != b"bare=false":
            return False
    return True


def _discovered(where: Path) -> Scope:
    """The scope of `where` as libgit2's discovery finds it (every case)."""
    import pygit2

    try:
        git_dir = pygit2.discover_repository(str(where))
    except pygit2.GitError:
        git_dir = None
    if git_dir is None:
        # libgit2 passes over a repository whose HEAD is no regular file: not "no
        # repository" to the person who has one, but that file, as git would wait on it.
        repo_files.check_folder(where)
        return Scope(where, None, None, None, None, f"{where} is not inside a git repository")
    # Before libgit2 opens it: a FIFO named packed-refs or config would hold it for ever.
    repo_files.check(Path(git_dir))
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
    import pygit2

    main = pygit2.Repository(str(common))
    if main.is_bare or main.workdir is None:
        # A worktree of a bare repository: the bare repository names the project.
        return common
    return Path(os.path.realpath(main.workdir))


def open_repository(scope: Scope) -> pygit2.Repository:
    """The repository of the checkout `scope` stands in."""
    import pygit2

    if scope.git_dir is None:
        raise BadInput(scope.note or f"{scope.folder} is not inside a git repository")
    return pygit2.Repository(str(scope.git_dir))


@contextmanager
def _readable(scope: Scope) -> Iterator[None]:
    """pygit2's errors about a damaged repository (a HEAD naming a missing commit,
    lost objects) as one line the user can act on."""
    import pygit2

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


def head_from_files(scope: Scope) -> Head | None:
    """HEAD as the checkout's own files say, without pygit2: a detached commit id, or
    a branch whose tip is a loose ref or a packed one. None when unsure (an unborn
    branch, a linked worktree, a symbolic ref to anything but a branch, the reftable
    format, a file that cannot be read); the object itself is not looked at."""
    git_dir = scope.git_dir
    if git_dir is None or os.path.lexists(git_dir / "commondir"):
        return None
    try:
        text = regular_bytes(git_dir / "HEAD", _SMALL_BYTES).decode("utf-8").strip()
        if not text.startswith("ref: "):
            commit = _commit_id(text)
            return None if commit is None else Head(commit, None)
        ref = text.removeprefix("ref: ").strip()
        if not ref.startswith("refs/heads/") or ".." in ref:
            return None
        try:
            tip = regular_bytes(git_dir / ref, _SMALL_BYTES).decode("utf-8").strip()
        except FileNotFoundError:
            tip = _packed_ref(git_dir, ref)
    except (OSError, UnicodeError, ValueError):
        return None
    commit = _commit_id(tip)
    return None if commit is None else Head(commit, ref.removeprefix("refs/heads/"))


def _packed_ref(git_dir: Path, ref: str) -> str:
    """The id `packed-refs` gives `ref`, or "" when it lists none."""
    try:
        # A repository's refs can be many: a packed-refs file is read whole, as git does.
        lines = regular_bytes(git_dir / "packed-refs", -1).decode("utf-8").splitlines()
    except FileNotFoundError:
        return ""
    for line in lines:
        commit, _, name = line.partition(" ")
        if name == ref:
            return commit
    return ""


def _commit_id(text: str) -> str | None:
    return text if len(text) in (40, 64) and set(text) <= _HEX else None


def root_commit(scope: Scope) -> str | None:
    """The first commit of HEAD's history; it identifies a repository that was moved."""
    if scope.git_dir is None:
        return None
    with _readable(scope):
        return _root_commit(scope)


def _root_commit(scope: Scope) -> str | None:
    import pygit2

    repo = open_repository(scope)
    if repo.head_is_unborn:
        return None
    order = pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE
    walker = repo.walk(repo.head.target, order)
    first = next(iter(walker), None)
    return None if first is None else str(first.id)
