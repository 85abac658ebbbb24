"""`synapse hook post-checkout`, `post-merge` and `post-rewrite` (docs/hooks.md): git's
arguments read, one service call (`checkout_refresh`), its screen printed. A file
checkout does nothing visible; the hook's own error passes."""

from __future__ import annotations

import os

from synapse_git import exit_codes
from synapse_git.hooks.terminal import PASS, SCREEN_LINES, carry_on, say
from synapse_git.service import checkout_refresh

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from synapse_git.service.checkout_refresh import Refreshed


def post_checkout(
    old: str | None,
    new: str | None,
    flag: str | None,
    folder: Path | None = None,
    *,
    rewrite: bool = False,
) -> int:
    """After a branch switch (flag 1), a merge or a rewrite (`rewrite`): re-check
    the memories naming a path that changed, print one screen, write the session
    snapshot. A file checkout (flag 0) does nothing visible."""
    # The refresh measures against the checkout's last snapshot, not against OLD.
    del old, new
    if flag != "1":
        return PASS
    return _refreshing(lambda: checkout_refresh.after_checkout(folder, rewrite=rewrite))


def post_rewrite(command: str | None, folder: Path | None = None) -> int:
    """After `git commit --amend` or `git rebase`: the refresh, for the rewritten commits.
    An amend says something only when a memory became stale or fine again."""
    if command == "amend":
        return _refreshing(lambda: checkout_refresh.after_amend(folder))
    return post_checkout(None, None, "1", folder, rewrite=True)


def _refreshing(refresh: Callable[[], Refreshed]) -> int:
    try:
        show(refresh())
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        return carry_on("the session refresh", exc)
    return PASS


def show(refreshed: Refreshed) -> None:
    if refreshed.team_unsynced is not None:
        say(f"synapse: team memory not synced: {refreshed.team_unsynced}", err=True)
    for skipped in refreshed.team_skipped[:SCREEN_LINES]:
        say(f"synapse: skipped {skipped}")
    if refreshed.team_summary is not None:
        say(f"synapse: {refreshed.team_summary}")
    for line in refreshed.screen[:SCREEN_LINES]:
        say(line)


def checkout_flag() -> str | None:
    """The pre-commit framework passes post-checkout's arguments in the environment."""
    return os.environ.get("PRE_COMMIT_CHECKOUT_TYPE")
