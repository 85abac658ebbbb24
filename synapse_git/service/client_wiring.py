"""The MCP clients and agents around the store: which store this folder's commands,
hooks and clients open (`status`), a client's MCP configuration (`mcp config`), and
wiring a client's own files (`setup`; docs/mcp.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess

# Imported by the methods that use them: every command builds the service, few
# look at clients (docs/architecture.md, start-up).
if TYPE_CHECKING:
    from synapse_git.clients import mcp_config
    from synapse_git.clients import setup as client_setup
    from synapse_git.clients import status as client_status


class ClientWiring(StoreAccess):
    """What opens this store, and wiring a client to it."""

    def status(self, scope: Scope) -> client_status.Status:
        """Which store this folder's commands, hooks and MCP clients open; writes nothing."""
        from synapse_git.clients import status as client_status

        return client_status.gather(self.config, scope)

    def mcp_config(
        self, kind: str, scope: Scope, *, write: bool = False
    ) -> tuple[str, mcp_config.Written | None]:
        """Client `kind`'s configuration for this store, and with `write` where it was merged."""
        from synapse_git.clients import mcp_config

        entry = mcp_config.entry_for(self.config.data_dir)
        text = mcp_config.render(kind, entry)
        if not write:
            return text, None
        return text, mcp_config.write(kind, entry, scope.checkout or scope.folder)

    def setup_client(
        self,
        client: str,
        scope: Scope,
        where: str = "project",
        *,
        dry_run: bool = False,
        uninstall: bool = False,
    ) -> client_setup.Outcome:
        """Wire client `client`'s MCP server and hooks for this project in scope `where`
        (project, local or user), or with `uninstall` take them out again."""
        from synapse_git.clients import setup as client_setup
        from synapse_git.data_folder import data_dir_origin

        return client_setup.run(
            client,
            where,
            scope.checkout or scope.folder,
            self.config.data_dir,
            dry_run=dry_run,
            uninstall=uninstall,
            chosen_by=data_dir_origin(),
            main=scope.main_worktree,
        )
