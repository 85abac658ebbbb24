"""`synapse hook session` (docs/hooks.md): what an agent starting here should be told,
at most 8 KiB, from one service call (`session_start.told`). A bad budget or format
is the caller's error; failing to read the memories passes, said on stderr."""

from __future__ import annotations

from synapse_git import exit_codes, settings
from synapse_git.errors import BadInput
from synapse_git.hooks.terminal import PASS, carry_on
from synapse_git.service import session_start

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


def session(folder: Path | None = None, budget: str | None = None, fmt: str = "text") -> int:
    """Print what an agent starting in `folder` should be told."""
    cfg = settings.load()
    chosen = cfg.budget(budget)
    if fmt not in session_start.FORMATS:
        choices = ", ".join(session_start.FORMATS[:-1]) + f" or {session_start.FORMATS[-1]}"
        raise BadInput(f"unknown format {fmt!r}: choose {choices}")
    if folder is None and fmt == "cursor":
        # Cursor may start its hooks outside the project; its input names the folders
        # open in it (docs/hooks.md, "Cursor").
        from synapse_git.hooks import hook_input

        folder = hook_input.cursor_folder()
    try:
        told = session_start.told(cfg, folder, chosen, fmt)
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    except Exception as exc:
        return carry_on("reading memories for this session", exc)
    if told:  # nothing at all where a shared hook gives way (clients/shared_hook.py)
        print(told, end="" if fmt == "text" else "\n")
    return PASS
