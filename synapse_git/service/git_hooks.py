"""The repository's git hooks: installing Synapse's plain hook scripts (and the team
file's merge driver) and taking them out again (docs/hooks.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess

# Imported by the methods that use them: every command builds the service, few
# install hooks (docs/architecture.md, start-up).
if TYPE_CHECKING:
    from synapse_git.git import hook_scripts


class GitHooks(StoreAccess):
    """Synapse's hooks in the repository's real hooks folder."""

    def install_hooks(
        self, scope: Scope, names: Sequence[str], bindir: str | None
    ) -> tuple[Path, list[hook_scripts.Action]]:
        """Install the plain git hooks into the repository's real hooks folder."""
        from synapse_git.git import git_command, hook_scripts
        from synapse_git.team import git_side

        folder = self._hooks_folder(scope)
        root = scope.checkout
        assert root is not None
        # A hook script the repository holds (core.hooksPath inside the work tree) is the
        # team's: chaining it would change a file everyone's checkout shares.
        held = git_command.tracked(root, [folder / name for name in hook_scripts.HOOKS])
        # Under the hooks folder's lock too: two installs at once would collide on git's.
        actions = hook_scripts.install(
            folder,
            names,
            bindir,
            lambda: git_side.install_driver(root, bindir),
            tracked={path.name for path in held},
        )
        return folder, actions

    def uninstall_hooks(
        self, scope: Scope, names: Sequence[str]
    ) -> tuple[Path, list[hook_scripts.Action]]:
        """Remove Synapse's hooks and put back the hooks they chained."""
        from synapse_git.git import hook_scripts
        from synapse_git.team import git_side

        folder = self._hooks_folder(scope)
        root = scope.checkout
        assert root is not None
        actions = hook_scripts.uninstall(folder, names, lambda: git_side.uninstall_driver(root))
        return folder, actions

    def _hooks_folder(self, scope: Scope) -> Path:
        from synapse_git.git import git_command

        if scope.checkout is None:
            raise BadInput(f"{scope.note}: hooks need a repository with a work tree")
        return git_command.hooks_dir(scope.checkout)
