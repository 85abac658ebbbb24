"""The `git` command as a subprocess, for the hook paths where start-up time counts.

Measured on this machine class: `import pygit2` costs ~210 ms, while one
`git rev-parse` costs ~3 ms and one `git diff --cached --name-status -M -z`
~6 ms on a 5,000-file repository. The commit hook and the session hook run on
every commit and every agent start, so they ask git itself; it also honours
everything a hook's environment says (GIT_DIR, GIT_INDEX_FILE during
`git commit -a`, core.hooksPath, linked worktrees) exactly as git does.
pygit2 stays the library for discovery, history and rename detection elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.git import repo_files

# Values here are named tuples, not dataclasses: as frozen, and importing `dataclasses`
# costs the commit hook more than its own git calls. Nor is `typing` imported when
# running (2 ms of every commit): the checker reads the typed classes, Python the
# `collections.namedtuple` ones, field for field the same.
TYPE_CHECKING = False
if TYPE_CHECKING:
    # Imported where git runs, too: the service loads this module for every command,
    # and `subprocess` costs a reading command more than its query.
    import subprocess
    from typing import NamedTuple

    class Worktree(NamedTuple):
        """Where a folder stands in git, with the same project key as `scope.resolve`."""

        toplevel: Path
        git_dir: Path
        common_dir: Path
        project: str
        head: str | None

        @property
        def linked(self) -> bool:
            return self.git_dir != self.common_dir

    class Change(NamedTuple):
        """One staged change: status letter (A, M, D, R, T, U…), path, and a rename's target."""

        status: str
        path: str
        new_path: str | None = None

else:
    from collections import namedtuple

    class Worktree(namedtuple("Worktree", "toplevel git_dir common_dir project head")):
        __slots__ = ()

        @property
        def linked(self) -> bool:
            return self.git_dir != self.common_dir

    Change = namedtuple("Change", "status path new_path", defaults=(None,))


# A repository's configuration is input (a copied or unpacked repository brings its
# .git/config): core.fsmonitor names a program git runs whenever it reads the index
# (`ls-files`, `diff --cached`). Synapse runs none of a repository's programs, so
# every git it starts is told so, ahead of its own arguments.
NO_PROGRAMS = ("-c", "core.fsmonitor=false")


def git(
    args: Sequence[str], cwd: Path | str | None = None, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run git quietly; the caller reads returncode, stdout and stderr."""
    import subprocess

    try:
        return subprocess.run(
            ["git", *NO_PROGRAMS, *args],
            cwd=cwd,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
            env=None if env is None else {**os.environ, **env},
        )
    except OSError as exc:
        raise BadInput(f"cannot run git: {exc.strerror}") from None


def _decode(raw: bytes) -> str:
    # Paths are bytes to git; surrogateescape keeps any non-UTF-8 name round-trippable.
    return raw.decode("utf-8", "surrogateescape")


def locate(folder: Path | str | None = None) -> Worktree | None:
    """The checkout `folder` stands in, or None outside a work tree (no git, bare)."""
    # git opens HEAD, config and packed-refs without a thought: a FIFO there, refused.
    repo_files.check_folder(folder)
    done = git(
        [
            "rev-parse",
            "--path-format=absolute",
            "--show-toplevel",
            "--git-dir",
            "--git-common-dir",
            "--verify",
            "-q",
            "HEAD",
        ],
        folder,
    )
    lines = _decode(done.stdout).splitlines()
    # Exit 1 with three lines is an unborn HEAD (no commit yet); anything else is no work tree.
    if len(lines) < 3 or done.returncode not in (0, 1):
        return None
    toplevel, git_dir, common = (Path(os.path.realpath(line)) for line in lines[:3])
    head = lines[3] if done.returncode == 0 and len(lines) > 3 else None
    project = str(toplevel) if git_dir == common else _main_worktree(toplevel, common)
    return Worktree(toplevel, git_dir, common, project, head)


def _main_worktree(toplevel: Path, common: Path) -> str:
    """The main worktree of a linked worktree: the first entry git lists."""
    done = git(["worktree", "list", "--porcelain", "-z"], toplevel)
    for field in _decode(done.stdout).split("\0"):
        if field.startswith("worktree "):
            return os.path.realpath(field.removeprefix("worktree "))
    # A worktree of a bare repository: the bare repository names the project.
    return str(common)


# Without HEAD, `diff --cached` compares with the empty tree: no path is deleted.
_STAGED = [
    "-c",
    "diff.relative=false",
    "diff",
    "--cached",
    "--name-status",
    "-M",
    "-z",
    "--no-ext-diff",
]


def staged_changes(toplevel: Path) -> list[Change]:
    """What the commit being made changes: the index (GIT_INDEX_FILE) against HEAD,
    or against the empty tree before the first commit, with renames detected."""
    done = git(_STAGED, toplevel)
    if done.returncode != 0:
        raise BadInput(f"git diff --cached failed: {_decode(done.stderr).strip()}")
    return parse_name_status(done.stdout)


class StagedChanges:
    """`staged_changes` started before the checkout is located, so the two git calls
    of every commit run side by side: the paths git prints are from the top of the
    work tree wherever it runs in it. `result()` waits; `cancel()` when no work tree."""

    def __init__(self, folder: Path | str | None = None) -> None:
        import subprocess

        # git opens HEAD, the index and packed-refs: a FIFO there, refused before it runs.
        repo_files.check_folder(folder)
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
                ["git", *NO_PROGRAMS, *_STAGED],
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise BadInput(f"cannot run git: {exc.strerror}") from None

    def result(self) -> list[Change]:
        assert self._process is not None
        out, err = self._process.communicate()
        if self._process.returncode != 0:
            raise BadInput(f"git diff --cached failed: {_decode(err).strip()}")
        return parse_name_status(out)

    def cancel(self) -> None:
        if self._process is not None:
            self._process.communicate()
            self._process = None


def parse_name_status(raw: bytes) -> list[Change]:
    """Parse `--name-status -z` output: STATUS\\0PATH\\0, and for R/C a second path."""
    fields = _decode(raw).split("\0")
    changes: list[Change] = []
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i][0]
        if status in "RC" and i + 2 < len(fields):
            changes.append(Change(status, fields[i + 1], fields[i + 2]))
            i += 3
        else:
            changes.append(Change(status, fields[i + 1] if i + 1 < len(fields) else ""))
            i += 2
    return changes


def changed_between(toplevel: Path, old: str, new: str) -> list[str] | None:
    """Every path that differs between the trees of commits `old` and `new` (a tree
    diff: no history walked, no rename detection); None when git cannot tell (a
    commit gone, e.g. after a gc of rewritten history)."""
    done = git(["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", old, new], toplevel)
    if done.returncode != 0:
        return None
    return [name for name in _decode(done.stdout).split("\0") if name]


def tracked_under(toplevel: Path, folders: Sequence[str]) -> set[str]:
    """Which of `folders` still hold a file in the index (the staged tree)."""
    if not folders:
        return set()
    specs = [f":(literal){folder.rstrip('/')}/" for folder in folders]
    done = git(["ls-files", "-z", "--cached", "--", *specs], toplevel)
    files = [name for name in _decode(done.stdout).split("\0") if name]
    held: set[str] = set()
    for folder in folders:
        prefix = folder.rstrip("/") + "/"
        if any(name.startswith(prefix) for name in files):
            held.add(folder)
    return held


def tracked_files(toplevel: Path) -> list[str]:
    """Every path in the index (the staged tree), as git lists it."""
    done = git(["ls-files", "-z", "--cached"], toplevel)
    return [name for name in _decode(done.stdout).split("\0") if name]


def skip_worktree_files(toplevel: Path) -> set[str]:
    """Tracked paths git keeps out of the working files (sparse checkout or
    `update-index --skip-worktree`): `git ls-files -t` tags them `S`."""
    done = git(["ls-files", "-z", "-t", "--cached"], toplevel)
    return {name[2:] for name in _decode(done.stdout).split("\0") if name.startswith(("S ", "s "))}


def hooks_dir(folder: Path | str) -> Path:
    """The hooks folder git runs hooks from: core.hooksPath if set, else the common
    git dir's `hooks` (shared by every linked worktree)."""
    done = git(["rev-parse", "--path-format=absolute", "--git-path", "hooks"], folder)
    if done.returncode != 0:
        raise BadInput(f"{folder} is not inside a git repository")
    return Path(_decode(done.stdout).strip())


def tracked(checkout: Path, paths: Sequence[Path]) -> set[Path]:
    """Those of `paths` that are files of the repository at `checkout` (in the index of
    any of its worktrees): a hooks folder inside a work tree (core.hooksPath, maybe
    the absolute path of the main worktree's folder, from a linked one) may hold the
    project's own hook scripts, or a submodule's (a shared hooks repository checked
    out in it). A path outside every work tree is none of them."""
    roots = [checkout.resolve()]
    listed = git(["worktree", "list", "--porcelain", "-z"], checkout)
    if listed.returncode == 0:
        for field in _decode(listed.stdout).split("\0"):
            if field.startswith("worktree "):
                root = Path(os.path.realpath(field.removeprefix("worktree ")))
                if root not in roots:
                    roots.append(root)
    # A hook may be a link the repository holds: where the link is, not where it leads.
    where = {path: path.parent.resolve() / path.name for path in paths}
    held: set[Path] = set()
    for root in roots:
        inside = [path for path in paths if where[path].is_relative_to(root)]
        if not inside or not root.is_dir():
            continue
        listing = ["ls-files", "-z", "--full-name", "--recurse-submodules", "--"]
        done = git([*listing, *(str(where[path]) for path in inside)], root)
        if done.returncode != 0:
            continue
        named = {root / name for name in _decode(done.stdout).split("\0") if name}
        held |= {path for path in inside if where[path] in named}
    return held


def state(git_dir: Path) -> str | None:
    """'rebase' or 'merge' when one is in progress in this checkout, else None."""
    if (git_dir / "rebase-merge").is_dir() or (git_dir / "rebase-apply").is_dir():
        return "rebase"
    if (git_dir / "MERGE_HEAD").exists():
        return "merge"
    return None
