"""What every hook shares: a line to git's terminal, escaped, and its own failure said
and carried on past (a hook never blocks git or an agent because of its own error)."""

from __future__ import annotations

import os
import sys

from synapse_git import exit_codes
from synapse_git.errors import BadInput

# A hook's own failure is never git's refusal.
PASS = exit_codes.OK
# What one screen after a hook shows at most, of each list.
SCREEN_LINES = 20


def say(text: str, *, err: bool = False) -> None:
    # Git shows a hook's output on the terminal: bodies and paths are shown, not obeyed.
    from synapse_git.escaping import visible

    print(visible(text), file=sys.stderr if err else sys.stdout, flush=True)


def carry_on(what: str, exc: BaseException) -> int:
    """`what` failed with `exc`: said in one line on stderr, and the hook passes."""
    detail = f"{type(exc).__name__}: {exc}" if not isinstance(exc, BadInput) else str(exc)
    say(f"synapse: {what} failed ({detail}); carrying on", err=True)
    if os.environ.get("SYNAPSE_DEBUG") == "1":
        import traceback

        traceback.print_exc()
    return PASS
