"""Writing a file the user named (export, backup, an evaluation baseline) so that no
command destroys data it was not asked to change (docs/store.md).

Every such file goes through here: the store and its companion files are never a
target, a folder or a device is refused, an existing file is replaced only when the
user says `--force`, and the new content is written to a temporary file in the same
folder, flushed to disk and renamed over the target. A failure part-way (a full
disk) leaves the target as it was and no partial file behind.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from synapse_git.errors import BadInput, StoreError
from synapse_git.store.database import LONG_WRITE_SUFFIX, TEAM_FILES_SUFFIX

# SQLite keeps these beside the store; writing over any of them damages it.
COMPANIONS = ("", "-wal", "-shm", "-journal")
# The lock a long write holds beside the store (store/database.py).
GUARDED = (*COMPANIONS, LONG_WRITE_SUFFIX, TEAM_FILES_SUFFIX)


def _same_file(a: Path, b: Path) -> bool:
    with suppress(OSError):
        return os.path.samefile(a, b)
    return False


def checked_target(target: str | os.PathLike[str], store: Path, *, force: bool) -> Path:
    """`target` as an absolute path, once it is safe to write: raises BadInput when
    it is the store (or a file SQLite keeps beside it), a folder, not a regular file,
    in a folder that is missing, or already there without `force`."""
    raw = os.fspath(target)
    if not raw.strip():
        raise BadInput("the file name is empty")
    if "\0" in raw:
        raise BadInput("the file name holds a NUL character")
    try:
        path = Path(os.path.abspath(Path(raw).expanduser()))
        real = Path(os.path.realpath(path))
    except (OSError, ValueError, RuntimeError) as exc:
        raise BadInput(f"{raw!r} is not a usable file name ({exc})") from None
    store_real = Path(os.path.realpath(store))
    for suffix in GUARDED:
        guarded = store_real.with_name(store_real.name + suffix)
        if real == guarded or _same_file(path, guarded):
            raise BadInput(
                f"{path} is the Synapse store{' ' + suffix + ' file' if suffix else ''}:"
                " write somewhere else (nothing was written)"
            )
    try:
        present = os.path.lexists(path)
        info = os.stat(path) if present and os.path.exists(path) else None
    except OSError as exc:
        raise BadInput(f"cannot use {path}: {exc.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise BadInput(f"{path} is a folder: give a file name inside it")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise BadInput(f"{path} is not a regular file: give a file name")
    if present and not force:
        raise BadInput(f"{path} already exists: pass --force to replace it")
    if not path.parent.is_dir():
        raise BadInput(f"cannot write {path}: folder {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write {path}: folder {path.parent} is not writable")
    return path


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; when the block ends without an
    error it is flushed to disk and renamed to `path` in one step. On any error it
    is removed (with any -wal/-shm a database left beside it) and `path` is untouched."""
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    try:
        yield partial
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, path)
        _sync_folder(path.parent)
    except OSError as exc:
        raise StoreError(
            f"cannot write {path} ({exc.strerror or exc}); it was left as it was"
        ) from None
    finally:
        for leftover in (partial, *(Path(f"{partial}{s}") for s in COMPANIONS[1:])):
            with suppress(OSError):
                leftover.unlink()


def _sync_folder(folder: Path) -> None:
    # The rename is durable only once the folder's entry is on disk.
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_lines(path: Path, lines: Iterable[str]) -> int:
    """Write `lines` (each ended by a newline) to the checked `path` through a
    temporary file; returns how many were written."""
    count = 0
    with replacing(path) as partial, partial.open("w", encoding="utf-8", newline="\n") as out:
        for line in lines:
            out.write(line + "\n")
            count += 1
    return count
