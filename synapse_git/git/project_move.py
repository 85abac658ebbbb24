"""When `project move OLD NEW` may re-key memories (docs/store.md).

A move says "the repository that was at OLD is now at NEW". It is allowed when
nothing lives at OLD any more (the folder is gone, or is no repository's main
worktree), or when OLD is a live copy of the same repository (the same root
commit). Two live projects are never merged: that would show one project's
memories to another and leave the first with nothing.
"""

from __future__ import annotations

import os

from synapse_git.errors import BadInput, SynapseError
from synapse_git.git import project_scope


def check_move(old_key: str, new_key: str, new_root: str | None) -> None:
    """Raise BadInput unless the memories of project `old_key` may move to `new_key`."""
    if old_key == new_key or not os.path.isdir(old_key):
        return
    try:
        old = project_scope.resolve(old_key)
        if old.project != old_key:
            return  # the folder is still there, but no longer a repository of its own
        old_root = project_scope.root_commit(old)
    except SynapseError as exc:
        raise BadInput(f"cannot tell what {old_key} is ({exc}); nothing was moved") from None
    if old_root is not None and old_root == new_root:
        return
    raise BadInput(
        f"{old_key} is still a repository, with another history than {new_key}: a move"
        " joins a repository with its own former place, never two live projects;"
        " nothing was moved"
    )
