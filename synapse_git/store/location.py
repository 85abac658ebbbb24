"""Where the data folder is (docs/store.md), in a module light enough for the commit hook."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """`$SYNAPSE_DATA`, else `$XDG_DATA_HOME/synapse`, else `~/.local/share/synapse`."""
    env = os.environ if env is None else env
    if env.get("SYNAPSE_DATA"):
        return Path(env["SYNAPSE_DATA"]).expanduser()
    if env.get("XDG_DATA_HOME"):
        return Path(env["XDG_DATA_HOME"]).expanduser() / "synapse"
    return Path.home() / ".local" / "share" / "synapse"


def data_dir_origin(env: Mapping[str, str] | None = None) -> str:
    """Which rule chose `data_dir(env)`: SYNAPSE_DATA, XDG_DATA_HOME or default."""
    env = os.environ if env is None else env
    if env.get("SYNAPSE_DATA"):
        return "SYNAPSE_DATA"
    if env.get("XDG_DATA_HOME"):
        return "XDG_DATA_HOME"
    return "default"
