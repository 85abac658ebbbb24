"""What `synapse ci check` asks of git: two commits, the team file at each, and the
change between them (docs/ci.md). Subprocesses only, no pygit2 and no store.

Every name and byte here comes from a clone: a ref that looks like an option is
refused before git sees it, the team file is read from git's objects (never
through the work tree, so no symlink is followed) after its mode and size are
checked, and its lines are cut at the team file's limits.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from synapse_git.errors import BadInput
from synapse_git.git import git_command
from synapse_git.git.git_command import Change
from synapse_git.team import records

MAX_REF = 256  # characters of a ref as given; git's own names stay far below


class TeamFile(NamedTuple):
    """The team file of one commit: its records, their line numbers, its bad lines, and
    the bytes of each line (to tell a line the change wrote from one it kept)."""

    records: dict[str, records.Record]
    lines: dict[str, int]
    errors: list[records.LineError]
    raw: frozenset[bytes]
    problem: str | None = None  # the file as a whole cannot be read (a symlink, too large)


NO_FILE = TeamFile({}, {}, [], frozenset())


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def toplevel(folder: Path | None) -> Path:
    """The top folder of the work tree `folder` stands in."""
    done = git_command.git(["rev-parse", "--show-toplevel"], folder)
    if done.returncode != 0 or not done.stdout.strip():
        where = folder if folder is not None else Path.cwd()
        raise BadInput(f"{where} is not inside a git work tree")
    return Path(_text(done.stdout).strip())


def commit(root: Path, ref: str, what: str) -> str:
    """The commit `ref` names in the repository at `root`; BadInput naming it when git
    knows no such commit (with a hint for the shallow clones CI makes)."""
    shown = ref if len(ref) <= 60 else ref[:57] + "..."
    if not ref or len(ref) > MAX_REF or ref.startswith("-") or not ref.isprintable():
        raise BadInput(f"{what} {shown!r} is not a revision git could name")
    done = git_command.git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], root
    )
    if done.returncode != 0:
        hint = " (fetch it first, e.g. git fetch origin main)" if what == "base" else ""
        raise BadInput(f"{what} {shown!r} names no commit in this repository{hint}")
    return _text(done.stdout).strip()


def merge_base(root: Path, base: str, head: str) -> str:
    """Where the change starts (git's BASE...HEAD): the best common ancestor."""
    done = git_command.git(["merge-base", base, head], root)
    if done.returncode == 0 and done.stdout.strip():
        return _text(done.stdout).strip()
    shallow = git_command.git(["rev-parse", "--is-shallow-repository"], root)
    if _text(shallow.stdout).strip() == "true":
        raise BadInput(
            "no common ancestor of the base and HEAD in this shallow clone: fetch the whole"
            " history (actions/checkout with fetch-depth: 0, GIT_DEPTH: 0 on GitLab)"
        )
    raise BadInput("the base and HEAD share no history: nothing to compare")


def changes(root: Path, old: str, new: str) -> list[Change]:
    """What `new` changes since `old`, with renames detected as the commit hook does."""
    done = git_command.git(
        ["diff", "--name-status", "-M", "-z", "--no-ext-diff", "--no-color", old, new], root
    )
    if done.returncode != 0:
        raise BadInput(f"git diff failed: {_text(done.stderr).strip()[:200]}")
    return git_command.parse_name_status(done.stdout)


def files(root: Path, at: str) -> list[str]:
    """Every file of the tree of commit `at`."""
    done = git_command.git(["ls-tree", "-r", "-z", "--name-only", "--full-tree", at], root)
    return [name for name in _text(done.stdout).split("\0") if name]


def team_file(root: Path, at: str) -> TeamFile:
    """The team file in the tree of commit `at` (none when it has none), read from
    git's objects within the team file's limits."""
    listed = git_command.git(["ls-tree", "-z", "--full-tree", at, "--", records.FILE], root)
    entry = _text(listed.stdout).split("\0", 1)[0]
    if listed.returncode != 0 or not entry:
        return NO_FILE
    info, _, _ = entry.partition("\t")
    mode, kind, oid = [*info.split(" "), "", "", ""][:3]
    if kind != "blob" or mode not in ("100644", "100755"):
        return NO_FILE._replace(problem=f"{records.FILE} is a symlink or not a file at {at[:12]}")
    size = git_command.git(["cat-file", "-s", oid], root)
    if size.returncode != 0 or int(size.stdout.strip() or 0) > records.MAX_FILE_BYTES:
        return NO_FILE._replace(
            problem=f"{records.FILE} is over the {records.MAX_FILE_BYTES} bytes a team file"
            " may hold"
        )
    blob = git_command.git(["cat-file", "blob", oid], root)
    lines = blob.stdout.split(b"\n")
    cut = [line if len(line) <= records.MAX_LINE_BYTES else None for line in lines]
    found, errors, numbers = records.parse_numbered(cut)
    return TeamFile(found, numbers, errors, frozenset(line for line in lines if line.strip()))
