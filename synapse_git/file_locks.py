"""Advisory locks in a file of their own beside what they guard (the store's long
writes, its team files, a setup's client files): an `flock`, released when the
descriptor closes or the process ends, however it ends (docs/store.md, Reliability).
Light: the hooks import what imports it."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from synapse_git.errors import SynapseError


def take(path: Path, failure: type[SynapseError]) -> int:
    """An open descriptor of `path` (made when missing, with its folder) holding its
    lock alone, waited for; `failure` in one line when it cannot be made or opened.
    Closing the descriptor lets the next one in."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        raise failure(f"cannot use {path} ({exc.strerror}); nothing was written") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def held(path: Path, failure: type[SynapseError]) -> Iterator[None]:
    """`take` for the length of the block."""
    fd = take(path, failure)
    try:
        yield
    finally:
        os.close(fd)
