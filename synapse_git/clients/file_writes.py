"""Writing the files `synapse setup` edits as one change: every new text is written
beside its file first, and only when all of them are there is any file replaced,
so a write that fails (a full disk, a folder that cannot be made) leaves every
client file as it was (docs/mcp.md, "Safe edits")."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from synapse_git.errors import BadInput

SUFFIX = ".synapse-new"


def target(path: Path) -> Path:
    """Where `path` is written: a linked file (dotfiles kept elsewhere) where it points."""
    return Path(os.path.realpath(path))


def outermost_missing(path: Path) -> str | None:
    """The outermost folder writing `path` will create, if any."""
    made = None
    missing = target(path).parent
    while not missing.exists() and missing.parent != missing:
        made = str(missing)
        missing = missing.parent
    return made


@dataclass
class Staged:
    """New texts written beside their files, not yet in place."""

    files: list[tuple[Path, Path | None]] = field(default_factory=list)  # (file, text's copy)
    made: list[tuple[Path, str | None]] = field(default_factory=list)  # folders made for each

    def commit(self) -> None:
        """Put every staged text in place (or remove the file it replaces with nothing)."""
        for final, temporary in self.files:
            try:
                if temporary is None:
                    final.unlink(missing_ok=True)
                else:
                    os.replace(temporary, final)
            except OSError as exc:
                # Only a rename or an unlink fails here, after every text was written.
                self.discard()
                raise BadInput(f"cannot write {final}: {exc.strerror}") from None

    def discard(self) -> None:
        """Remove the staged texts not yet in place, and the folders made for them."""
        for _, temporary in self.files:
            if temporary is not None:
                temporary.unlink(missing_ok=True)
        for path, folder in self.made:
            remove_made(path, folder)


def stage(writes: Sequence[tuple[Path, str | None]], *, private: bool = False) -> Staged:
    """Each (path, text) pair's text written beside its file (None: the file is to go);
    a failure removes what was staged and says so in one line. A file that is new is
    made readable by its owner alone when `private`; one that was there keeps its mode."""
    staged = Staged()
    try:
        for path, text in writes:
            staged.made.append((path, outermost_missing(path)))
            staged.files.append((target(path), _stage(path, text, private)))
    except BadInput:
        staged.discard()
        raise
    return staged


def _stage(path: Path, text: str | None, private: bool) -> Path | None:
    if text is None:
        return None
    final = target(path)
    temporary = final.with_name(f".{final.name}{SUFFIX}")
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(text.encode("utf-8"))
        if final.exists():
            os.chmod(temporary, final.stat().st_mode & 0o7777)
        elif private:
            # The clients keep account details and tokens beside these entries, and
            # keep the mode of a file they find: ~/.claude.json is made 0600 by Claude Code.
            os.chmod(temporary, 0o600)
    except OSError as exc:
        if not temporary.is_dir():
            temporary.unlink(missing_ok=True)
        raise BadInput(f"cannot write {path}: {exc.strerror}; nothing was written") from None
    return temporary


def remove_made(path: Path, made: object) -> None:
    """Remove the folders setup created for `path` (`.claude/`, `.codex/`) once empty."""
    if not isinstance(made, str):
        return
    top = Path(made)
    folder = target(path).parent
    while folder.is_relative_to(top):
        try:
            folder.rmdir()
        except OSError:
            return  # not empty: something else lives there now
        if folder == top:
            return
        folder = folder.parent
