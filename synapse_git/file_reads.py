"""Reading a small file that is input (a repository's, a client's, the data folder's)
without trusting what stands at its path: opened without waiting, so a FIFO there
holds nothing up, and read only if it is a regular file, never further than asked, so
a link to a device (/dev/zero) is not read without end. Light: the hooks import it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class NotRegular(OSError):
    """A folder, FIFO, device or socket where a regular file should be."""

    def __init__(self, path: Path, *, folder: bool) -> None:
        super().__init__(f"{path} is not a regular file")
        self.folder = folder


def regular_bytes(path: Path, most: int, *, follow: bool = True) -> bytes:
    """Up to `most` bytes (-1: all) of the regular file at `path`; NotRegular for
    anything else, and for a symbolic link too unless `follow`. FileNotFoundError and
    the other errors of opening and reading are the system's own."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(path, folder=stat.S_ISDIR(mode))
        data = handle.read(most)
        if data is None:  # opened without waiting, a file that waits has nothing yet
            raise BlockingIOError(errno.EAGAIN, f"{path} has nothing to read yet")
        return data
