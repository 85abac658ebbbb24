"""The first commit of HEAD's history, kept per checkout in the data folder (never in
the repository) under the HEAD commit it was found for.

`memory list` compares it with the root commit stored for the project on every
call (a new repository at the same path, docs/cli.md); finding it loads pygit2 and
walks the whole history, several times what the listing itself costs, while HEAD
is a file or two to read (project_scope.head_from_files). A commit id names its
whole history, so the answer kept for one HEAD holds until HEAD moves; a shallow
clone or grafts can change the history a commit id has, and are not kept.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from synapse_git.data_folder import replace_file
from synapse_git.git import project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.textrules import blake2b


def _cache_path(data_dir: Path, git_dir: Path) -> Path:
    digest = blake2b(str(git_dir).encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()
    return data_dir / "roots" / digest


def root_commit(data_dir: Path, scope: Scope) -> str | None:
    """project_scope.root_commit(scope), read from the data folder when HEAD is where it
    was when last found."""
    head = project_scope.head_from_files(scope)
    git_dir = scope.git_dir
    if (
        head is None
        or git_dir is None
        or os.path.lexists(git_dir / "shallow")
        or os.path.lexists(git_dir / "info" / "grafts")
    ):
        return project_scope.root_commit(scope)
    path = _cache_path(data_dir, git_dir)
    try:
        kept = path.read_text(encoding="utf-8").split()
    except (OSError, UnicodeError):
        kept = []
    if len(kept) == 2 and kept[0] == head.commit:
        return kept[1]
    root = project_scope.root_commit(scope)
    if root is not None:
        # Not kept (a read-only data folder): the next listing finds it again.
        with contextlib.suppress(OSError):
            replace_file(path, f"{head.commit} {root}\n")
    return root
