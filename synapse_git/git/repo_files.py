"""A repository's own files that git and libgit2 open with a plain, waiting open(2)
whenever they open the repository, resolve HEAD, read the index or walk history: a
FIFO in one's place (or a link to a device) holds either of them for ever, and every
command and hook with them. They are checked with `stat` before either is asked, and
such a repository refused in one line (docs/store.md, "A repository's programs are
never run"). Light: the hooks import it, and it costs a few `stat` calls."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.file_reads import regular_bytes

# Found by replacing each file of a real repository with a FIFO: `git rev-parse`,
# `git diff --cached`, `git log` or pygit2 waited on every one of these.
_OPENED = (
    "HEAD",
    "config",
    "commondir",
    "packed-refs",
    "index",
    "shallow",
    "info/grafts",
    "objects/info/alternates",
)
# What a linked worktree's git dir shares with the repository's (its `commondir`).
_SHARED = ("HEAD", "config", "packed-refs", "shallow", "info/grafts", "objects/info/alternates")
_SMALL_BYTES = 1 << 20


def check(git_dir: Path) -> None:
    """BadInput when one of the files git opens in `git_dir`, or in the common dir its
    `commondir` names, is there but is not a regular file (after links)."""
    _check(git_dir, _OPENED, git_dir)
    try:
        named = regular_bytes(git_dir / "commondir", _SMALL_BYTES).decode("utf-8").strip()
    except (OSError, UnicodeError):
        return  # absent, or unreadable: git says so itself, without waiting
    if named:
        _check(git_dir / named, _SHARED, git_dir)


def check_folder(folder: Path | str | None) -> None:
    """`check` the git dir git would find from `folder` (default: the current one):
    GIT_DIR, else the first `.git` (a folder, or a file naming the git dir) or bare
    repository walking up on one file system. Nothing when there is none."""
    start = Path(os.path.abspath(folder if folder is not None else "."))
    if os.environ.get("GIT_DIR"):
        check(start / os.environ["GIT_DIR"])
        return
    try:
        device = os.stat(start).st_dev
    except OSError:
        return  # git says what is wrong with the folder itself
    current = start
    while True:
        git_dir = _git_dir_in(current)
        if git_dir is not None:
            check(git_dir)
            return
        parent = current.parent
        try:
            if parent == current or os.stat(parent).st_dev != device:
                return
        except OSError:
            return
        current = parent


def _git_dir_in(folder: Path) -> Path | None:
    dot_git = folder / ".git"
    if os.path.isdir(dot_git):
        return dot_git
    if os.path.lexists(dot_git):
        try:
            text = regular_bytes(dot_git, _SMALL_BYTES).decode("utf-8").strip()
        except (OSError, UnicodeError):
            return None  # git refuses a `.git` it cannot read, without waiting
        named = text.removeprefix("gitdir:").strip()
        return folder / named if text.startswith("gitdir:") and named else None
    if all(os.path.isdir(folder / name) for name in ("objects", "refs")) and os.path.lexists(
        folder / "HEAD"
    ):
        return folder  # a bare repository, or a git dir itself
    return None


def _check(folder: Path, names: tuple[str, ...], git_dir: Path) -> None:
    for name in names:
        try:
            mode = os.stat(folder / name).st_mode
        except (OSError, ValueError):
            continue  # absent (or unreachable): git opens nothing there
        if not stat.S_ISREG(mode):
            what = os.path.relpath(folder / name, git_dir)
            raise BadInput(
                f"cannot open the git repository at {git_dir}: its {what} is not a regular"
                " file, which git would wait on for ever; remove or replace it"
            )
