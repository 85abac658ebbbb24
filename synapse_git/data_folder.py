"""Where the data folder is (docs/store.md), and replacing a file in it whole, in a module
light enough for the commit hook."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from synapse_git.errors import BadInput


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """`$SYNAPSE_DATA`, else `$XDG_DATA_HOME/synapse`, else `~/.local/share/synapse`."""
    env = os.environ if env is None else env
    if env.get("SYNAPSE_DATA"):
        folder = _folder("SYNAPSE_DATA", env["SYNAPSE_DATA"])
        if not folder.is_absolute():
            # Relative, it would name a different store in every folder, and put one
            # inside whichever working tree a command runs in.
            raise BadInput(
                f"SYNAPSE_DATA={env['SYNAPSE_DATA']} is a relative path: give an absolute one"
            )
        return folder
    if env.get("XDG_DATA_HOME"):
        return _folder("XDG_DATA_HOME", env["XDG_DATA_HOME"]) / "synapse"
    return Path.home() / ".local" / "share" / "synapse"


def _folder(name: str, value: str) -> Path:
    """The folder `value` names, `~` or `~user` expanded; BadInput when it names none."""
    shown = value[:200].encode("unicode_escape").decode("ascii")
    if "\0" in value:
        raise BadInput(f"{name}={shown} holds a NUL character: give a folder's path")
    try:
        return Path(value).expanduser()
    except RuntimeError:  # ~user of a user this machine does not have
        raise BadInput(
            f"{name}={shown}: no such user's home folder; give a folder's path"
        ) from None


def data_dir_origin(env: Mapping[str, str] | None = None) -> str:
    """Which rule chose `data_dir(env)`: SYNAPSE_DATA, XDG_DATA_HOME or default."""
    env = os.environ if env is None else env
    if env.get("SYNAPSE_DATA"):
        return "SYNAPSE_DATA"
    if env.get("XDG_DATA_HOME"):
        return "XDG_DATA_HOME"
    return "default"


def replace_file(path: Path, text: str) -> None:
    """Write `text` as the whole of `path`, through a file beside it renamed over it, so a
    reader sees the old file or the new one, never half of one (snapshots and the other
    files kept in the data folder). Raises OSError as writing does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
