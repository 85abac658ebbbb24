"""`memory edit ID` with no text: the memory's body in the user's editor, as git does
for a commit message."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.settings import MAX_BODY_BYTES


def chosen_editor() -> str:
    """VISUAL, else EDITOR, else vi on a terminal; no editor is guessed for a script."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            return value
    if sys.stdin.isatty() and sys.stdout.isatty():
        return "vi"
    raise BadInput("no text given and no editor: pass TEXT, - for stdin, or set EDITOR")


def edited(memory_id: int, body: str) -> str | None:
    """The body after the user's editor changed it, or None when it was left as it was.
    The editor is run through the shell, as git runs it, so `EDITOR="code --wait"` works."""
    editor = chosen_editor()
    with tempfile.TemporaryDirectory(prefix="synapse-edit-") as folder:
        path = Path(folder) / f"memory-{memory_id}.md"
        path.write_text(body if body.endswith("\n") else body + "\n", encoding="utf-8")
        done = subprocess.run(["sh", "-c", f'{editor} "$@"', editor, str(path)], check=False)
        if done.returncode != 0:
            raise BadInput(f"the editor ({editor}) exited with {done.returncode}: nothing changed")
        raw = path.read_bytes()[: MAX_BODY_BYTES + 2]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"the edited text is not valid UTF-8 (byte {exc.start})") from None
    # Editors end a file with a newline the memory never had.
    text = text.removesuffix("\n") if not body.endswith("\n") else text
    if not text.strip():
        raise BadInput(f"the edited text is empty: memory {memory_id} is unchanged")
    return None if text == body else text
