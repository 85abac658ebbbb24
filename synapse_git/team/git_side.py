"""What team memory asks of git: the author to record, and the merge driver setting."""

from __future__ import annotations

import shlex
from pathlib import Path

from synapse_git.git.git_command import git

DRIVER = "synapse"


def author(root: Path) -> str:
    """`Name <email>` as git would write it on a commit made in `root` (configuration
    and GIT_AUTHOR_* alike), or "unknown"."""
    found = git(["var", "GIT_AUTHOR_IDENT"], root)
    if found.returncode != 0:
        return "unknown"
    ident = found.stdout.decode("utf-8", "replace").strip()
    # "Name <email> 1700000000 +0100": the time is the commit's, not the memory's.
    name, sep, _ = ident.rpartition(">")
    return (name + sep).strip() or "unknown"


def _config(root: Path, key: str) -> str:
    found = git(["config", "--get", key], root)
    return found.stdout.decode("utf-8", "replace").strip() if found.returncode == 0 else ""


def driver_command(bindir: str | None) -> str:
    program = str(Path(bindir) / "synapse") if bindir else "synapse"
    return f"{shlex.quote(program)} hook merge-file %O %A %B %P"


def install_driver(root: Path, bindir: str | None) -> bool:
    """Configure the merge driver in the repository's own config; True when it changed."""
    wanted = driver_command(bindir)
    if _config(root, f"merge.{DRIVER}.driver") == wanted:
        return False
    git(["config", f"merge.{DRIVER}.name", "Synapse team memory, merged by id"], root)
    git(["config", f"merge.{DRIVER}.driver", wanted], root)
    return True


def uninstall_driver(root: Path) -> bool:
    if not _config(root, f"merge.{DRIVER}.driver"):
        return False
    git(["config", "--remove-section", f"merge.{DRIVER}"], root)
    return True
