"""`synapse-drift-hook`, the commit check (docs/hooks.md): its options parsed, one
service call (`commit_review.review`), the answer printed and turned into git's
exit code. It fails only when the commit makes project memories stale or stages
a team file that would break team memory; its own error passes the commit.

Git runs this on every commit, so it loads neither typer, pygit2, mcp nor the
rest of the service, and argparse neither (it alone costs more than the git
calls of the check).
"""

from __future__ import annotations

import sys

from synapse_git import exit_codes
from synapse_git.hooks.terminal import PASS, SCREEN_LINES, carry_on, say
from synapse_git.service import commit_review

TYPE_CHECKING = False  # `typing` is not imported when running: 2 ms of every commit
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from synapse_git.service.commit_review import CommitReview, EarlierDrift, StaleMemory

# The commit check's failure is git's refusal.
BLOCK = exit_codes.NEEDS_ATTENTION


def pre_commit_main(argv: Sequence[str] | None = None) -> int:
    """`synapse-drift-hook [--warn-only]`: fail when the staged commit deletes or
    renames a path a live project memory names; everything else only warns."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "-h" in args or "--help" in args:
        print(
            "usage: synapse-drift-hook [--warn-only]\n\nCheck the staged commit against the "
            "project's memories; fail when it deletes or renames a path a live project "
            "memory names.\n\n  --warn-only  report, never block"
        )
        return PASS
    # File names a framework may pass are ignored: the staged tree is read instead.
    unknown = [arg for arg in args if arg.startswith("-") and arg != "--warn-only"]
    try:
        if unknown:
            say(f"synapse: ignoring unknown options {' '.join(unknown)}", err=True)
        return check_commit(warn_only="--warn-only" in args)
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        return carry_on("the memory check of this commit", exc)


def check_commit(*, warn_only: bool = False, folder: Path | None = None) -> int:
    """Check the commit being made in `folder` (default: here); print the review and
    return git's exit code."""
    found = commit_review.review(warn_only=warn_only, folder=folder)
    show(found, warn_only=warn_only)
    return BLOCK if found.blocks else PASS


def show(found: CommitReview, *, warn_only: bool) -> None:
    if found.team_problems:
        lead = "synapse: warning:" if warn_only else "synapse: this commit"
        say(f"{lead} stages a team memory file that would break it for the team:")
        for problem in found.team_problems[:SCREEN_LINES]:
            say(f"  {problem}")
    if found.earlier is not None:
        _show_earlier(found.earlier)
    if found.stale:
        _show_stale(found.stale, blocking=not warn_only)


def _show_earlier(earlier: EarlierDrift) -> None:
    parts = []
    if earlier.stale:
        noun = "memory names" if earlier.stale == 1 else "memories name"
        parts.append(f"{earlier.stale} project {noun} a path missing now")
    if earlier.pairs:
        noun = "memory" if earlier.pairs == 1 else "memories"
        parts.append(
            f"{earlier.pairs} conflicting or duplicate {noun} found at the last refresh "
            f"({earlier.found_at}) and not settled since"
        )
    say(f"synapse: warning: {'; '.join(parts)} (not blocking; `synapse memory drift` lists them)")


def _show_stale(stale: Sequence[StaleMemory], *, blocking: bool) -> None:
    noun = "memory" if len(stale) == 1 else "memories"
    lead = "synapse: this commit" if blocking else "synapse: warning: this commit"
    say(f"{lead} makes {len(stale)} project {noun} stale:")
    for memory in stale:
        say(f"  memory {memory.id}: {memory.title}")
        for path, new_path in memory.gone:
            moved = "is deleted" if new_path is None else f"is renamed to {new_path}"
            say(f"    {path} {moved}")
        if memory.edit is None:
            say(f"    settle: {memory.forget}   (or edit it to say what is true now)")
        else:
            say(f"    update: {memory.edit}")
            say(f"    or:     {memory.supersede}")
    if blocking:
        say(
            "Update or forget these memories, then commit again "
            "(`git commit --no-verify` skips this check once)."
        )
