"""`synapse status`: which store this folder's commands, hooks and MCP clients open.

It only looks: the store is opened read-only (never created or migrated), the
hooks folder and the client files are read.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git import data_folder
from synapse_git.clients import mcp_config
from synapse_git.clients import setup as client_setup
from synapse_git.errors import SynapseError
from synapse_git.git import git_command, hook_scripts
from synapse_git.git.project_scope import Scope
from synapse_git.settings import Config
from synapse_git.store import readonly
from synapse_git.store.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from synapse_git.semantic.status import SemanticStatus


@dataclass(frozen=True)
class Status:
    store: Path
    chosen_by: str  # SYNAPSE_DATA, XDG_DATA_HOME or default
    exists: bool
    schema: int | None
    problem: str | None  # why the store could not be read
    global_live: int | None
    project_live: int | None
    scope: Scope
    hooks_folder: Path | None
    hooks: dict[str, str] = field(default_factory=dict)
    clients: list[mcp_config.Found] = field(default_factory=list)
    semantic: SemanticStatus | None = None
    agents: list[client_setup.Wired] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "store": {
                "path": str(self.store),
                "chosen_by": self.chosen_by,
                "exists": self.exists,
                "schema": self.schema,
                "schema_supported": SCHEMA_VERSION,
                "problem": self.problem,
            },
            "memories": {"global": self.global_live, "project": self.project_live},
            "folder": str(self.scope.folder),
            "project": self.scope.project,
            "hooks": {
                "folder": None if self.hooks_folder is None else str(self.hooks_folder),
                **self.hooks,
            },
            "mcp_clients": [found.as_json(self.store.parent) for found in self.clients],
            "semantic": None if self.semantic is None else self.semantic.as_json(),
            "agents": [wired.as_json() for wired in self.agents],
        }


def gather(config: Config, scope: Scope) -> Status:
    """What `synapse status` reports for `scope`, read without writing anything."""
    # Here, not at the top: `synapse --help` loads this module and nothing of the extra.
    from synapse_git.semantic import status as semantic_status

    path = config.db_path
    schema = problem = None
    # With no store yet there is nothing in it; None means it could not be read.
    global_live = project_live = None if path.exists() else 0
    if scope.project is None:
        project_live = None
    semantic = None
    try:
        conn = readonly.open_readonly(path)
        if conn is not None:
            with closing(conn):
                schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
                live = dict(conn.execute("SELECT project, live FROM tallies").fetchall())
                global_live = int(live.get("", 0))
                if scope.project is not None:
                    project_live = int(live.get(scope.project, 0))
                semantic = semantic_status.gather(conn)
    except SynapseError as exc:
        problem = str(exc)
    except sqlite3.Error as exc:
        problem = f"cannot read {path} ({exc}): `synapse memory check` says more"
    if semantic is None:
        # No store (or none readable): whether the extra could run is still worth saying.
        semantic = semantic_status.gather(None)
    hooks_folder = None
    hooks: dict[str, str] = {}
    if scope.checkout is not None:
        try:
            hooks_folder = git_command.hooks_dir(scope.checkout)
        except SynapseError:
            hooks_folder = None
        if hooks_folder is not None:
            hooks = hook_scripts.installed(hooks_folder)
    return Status(
        store=path,
        chosen_by=data_folder.data_dir_origin(),
        exists=path.is_file(),
        schema=schema,
        problem=problem,
        global_live=global_live,
        project_live=project_live,
        scope=scope,
        hooks_folder=hooks_folder,
        hooks=hooks,
        clients=mcp_config.found_here(scope.checkout or scope.folder),
        semantic=semantic,
        agents=client_setup.wired_here(scope.checkout or scope.folder, main=scope.main_worktree),
    )
