"""A personal client file kept out of git (docs/mcp.md, "One command per client"):
`setup claude --scope local` writes `.claude/settings.local.json`, with this machine's
paths and store in it, inside the work tree. Claude Code has git ignore the file of
that name it makes; setup does the same for the one it makes, in the repository's
own `info/exclude` (shared by its linked worktrees, never committed), and leaves a
file git already ignores, or one the repository tracks, as it is."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from synapse_git.git import git_command

LOCAL_SETTINGS = ".claude/settings.local.json"


def keep_out(root: Path, relative: str = LOCAL_SETTINGS) -> Path | None:
    """Add `/relative` to the info/exclude of the repository `root` stands in, when git
    would not ignore that path and does not track it; the exclude file written, or None
    (ignored already, tracked, no work tree, or an exclude file that is no regular file
    or cannot be written: then it is left as it was)."""
    ignored = git_command.git(["check-ignore", "-q", "--", relative], root)
    if ignored.returncode != 1:
        return None  # 0: ignored already; 128: not a work tree, or git refused
    if git_command.git(["ls-files", "--", relative], root).stdout.strip():
        return None  # tracked: an exclude line would change nothing
    # Relative to `root` as git gives it: its absolute form resolves links, and a link
    # in the exclude file's place is not written through.
    found = git_command.git(["rev-parse", "--git-path", "info/exclude"], root)
    if found.returncode != 0 or not found.stdout.strip():
        return None
    path = root / os.fsdecode(found.stdout.strip())
    line = f"/{relative}\n".encode()
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        path.parent.mkdir(exist_ok=True)
        # Appended, never rewritten, never through a link or into a FIFO: the user's own
        # lines stay as they are.
        fd = os.open(path, flags, 0o644)
        try:
            size = os.fstat(fd)
            if not stat.S_ISREG(size.st_mode):
                return None
            if size.st_size and os.pread(fd, 1, size.st_size - 1) != b"\n":
                line = b"\n" + line
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        return None
    return path
