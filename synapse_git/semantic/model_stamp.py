"""The model file's checksum, worked out once per change of the file (docs/semantic.md).

Hashing the 23 MB model costs a command 20 to 35 ms of CPU, each time it
loads the model. Once the file matched the pinned sha256, the data folder
keeps a stamp naming it with its device, inode, size and modification and
change times; a later load finds the same file by those and skips the hash.
Writing the file in any way changes its change time (which no user call can
set back), replacing it changes its inode: either makes the stamp stale and
the file is hashed again.

The stamp only ever vouches for the pinned sha256, and a stamp that cannot be
read, or names another file or checksum, is ignored. Whoever can write the data
folder can change the memories themselves; the stamp trusts that folder no
more than the store does.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from synapse_git.file_reads import regular_bytes

STAMP_FILE = "model-checked.json"
STAMP_BYTES = 4096  # a stamp is about 200 bytes


def identity(path: Path, *, follow: bool = True) -> list[int] | None:
    """The file's device, inode, size and times (nanoseconds), or None when it is
    no regular file or cannot be read: what a stamp compares, taken before hashing.
    With `follow` false, a symbolic link is none."""
    try:
        info = os.stat(path, follow_symlinks=follow)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _stamp_path() -> Path | None:
    """The stamp in the data folder, when there is one to keep it in."""
    from synapse_git.data_folder import data_dir
    from synapse_git.errors import SynapseError

    try:
        folder = data_dir()
    except SynapseError:
        return None
    return folder / STAMP_FILE if folder.is_dir() else None


def vouched(path: Path, sha256: str) -> bool:
    """Whether the data folder's stamp says `path`, as it is now, has `sha256`."""
    stamp = _stamp_path()
    found = identity(path)
    if stamp is None or found is None:
        return False
    try:
        doc = json.loads(small_file(stamp, STAMP_BYTES))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and doc == _doc(path, found, sha256)


def small_file(path: Path, most: int) -> bytes:
    """The bytes of a regular file of at most `most` bytes; OSError for anything else
    (a FIFO there is not waited on, a symbolic link not followed)."""
    found = regular_bytes(path, most + 1, follow=False)
    if len(found) > most:
        raise OSError(f"{path} is not a small regular file")
    return found


def keep(path: Path, sha256: str, before: list[int] | None) -> None:
    """Stamp `path` as having `sha256`, hashed while its identity was `before`: only
    if it is the same now (a file changed while it was read is hashed again next
    time). Nothing is kept where the data folder is missing or cannot be written."""
    stamp = _stamp_path()
    if stamp is None or before is None or identity(path) != before:
        return
    from synapse_git.data_folder import replace_file

    try:
        replace_file(stamp, json.dumps(_doc(path, before, sha256)))
    except OSError:
        return


def _doc(path: Path, found: list[int], sha256: str) -> dict[str, object]:
    return {"path": os.path.abspath(path), "file": found, "sha256": sha256}
