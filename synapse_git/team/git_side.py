"""What team memory asks of git: the author to record, and the merge driver setting."""

from __future__ import annotations

import shlex
from pathlib import Path

from synapse_git.errors import BadInput
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
    """Configure the merge driver in the repository's own config; True when it changed.
    BadInput when git could not write it (another git process holding the config)."""
    wanted = driver_command(bindir)
    if _config(root, f"merge.{DRIVER}.driver") == wanted:
        return False
    _set(root, ["config", f"merge.{DRIVER}.name", "Synapse team memory, merged by id"])
    _set(root, ["config", f"merge.{DRIVER}.driver", wanted])
    return True


def uninstall_driver(root: Path) -> bool:
    if not _config(root, f"merge.{DRIVER}.driver"):
        return False
    _set(root, ["config", "--remove-section", f"merge.{DRIVER}"])
    return True


def _set(root: Path, args: list[str]) -> None:
    """A change to the repository's config, said when git could not make it: another git
    process writing the config at the same moment holds its lock (`config.lock`)."""
    done = git(args, root)
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = said[0].removeprefix("error: ") if said else f"git exited with {done.returncode}"
        raise BadInput(
            f"the merge driver's setting was not changed ({why}): another git process may be"
            " writing the repository's config; run the command again"
        )
