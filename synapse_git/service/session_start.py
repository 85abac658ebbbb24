"""What an agent starting a session is told: the session hook's memories for the
checkout (docs/hooks.md) and the MCP server's instructions (docs/mcp.md).

An agent starts often, so a snapshot still current for HEAD and the store is
read as it is, one brought to a new HEAD is checked again only where git changed
paths, and only otherwise is the whole service loaded to compute it afresh.
Light: the MCP server imports this before any store or git library is opened.
"""

from __future__ import annotations

import os

from synapse_git.session.guidance import instructions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from synapse_git.session.snapshots import Snapshot
    from synapse_git.settings import Budget, Config

FORMATS = ("text", "claude", "cursor")


def server_instructions(config: Config) -> str:
    """What an MCP client is told at initialization."""
    return instructions(config)


def told(config: Config, folder: Path | None, budget: Budget, fmt: str) -> str:
    """What a session starting in `folder` is told, within `budget`, in `fmt` (one
    of FORMATS); nothing when a project's shared hook gives way to the user's own."""
    if os.environ.get("SYNAPSE_SHARED_HOOK"):
        from synapse_git.clients import shared_hook

        if shared_hook.gives_way("session", folder):
            return ""
    from synapse_git.session import rendering

    return rendering.render(_current_snapshot(config, folder), budget, fmt)


def _current_snapshot(cfg: Config, folder: Path | None) -> Snapshot:
    from contextlib import closing

    from synapse_git.git import git_command
    from synapse_git.session import snapshots
    from synapse_git.store import readonly
    from synapse_git.textrules import utf8

    where = git_command.locate(folder)
    if where is not None:
        key, project, head = str(where.toplevel), where.project, where.head
    else:
        key, project, head = os.path.realpath(folder or os.getcwd()), None, None
    # Project keys and snapshots are UTF-8 text: a folder named otherwise has neither.
    utf8(key, "this folder's path")
    conn = readonly.open_readonly(cfg.db_path)
    if conn is None:
        return snapshots.nothing(key, project, head)
    with closing(conn):
        version = readonly.store_version(conn)
    found = snapshots.read_snapshot(cfg.data_dir, key)
    if found is not None and found.current(head, version):
        return found
    if where is not None:
        from synapse_git.service.checkout_refresh import moved_snapshot

        moved = moved_snapshot(where)
        if moved is not None:
            return moved.snapshot
    from synapse_git.service import Synapse

    svc = Synapse(cfg)
    return svc.session_snapshot(svc.scope(folder))
