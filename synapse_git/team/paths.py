"""The files team memory reads and writes in a worktree (`.synapse/memories.jsonl`,
`.gitattributes`), reached so that a hostile commit cannot turn them elsewhere.

Each of them is committed by someone else, so each path component is opened
relative to the folder before it, without following a symlink (`O_NOFOLLOW`),
and the file itself must be a regular file: a symlink (at any component), a
device, a FIFO or a socket is refused with one line naming the path. Reads are
capped in size and streamed a line at a time, each line capped too; writes go
to a new file in the same folder, renamed over the old one, so a crash leaves
one or the other (docs/team.md, "A hostile clone").
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path, PurePosixPath

from synapse_git.errors import BadInput

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
# O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused after fstat.
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 64 * 1024


def _refuse(root: Path, rel: str, what: str) -> BadInput:
    return BadInput(
        f"{root / rel}: {what}; team memory uses only regular files inside the worktree"
    )


def _parts(rel: str) -> list[str]:
    parts = PurePosixPath(rel).parts
    if not parts or any(part in ("", ".", "..", "/") for part in parts):
        raise ValueError(f"not a plain relative path: {rel}")
    return list(parts)


@contextmanager
def _folder(root: Path, rel: str, *, create: bool) -> Iterator[int | None]:
    """An open descriptor of the folder holding `rel` inside `root` (None when a
    folder on the way is missing and not `create`), never through a symlink."""
    parts = _parts(rel)[:-1]
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:
        walked = ""
        for part in parts:
            walked = f"{walked}/{part}" if walked else part
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    os.close(fd)
                    fd = -1
                    yield None
                    return
                with suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
                child = _open_dir(root, walked, part, fd)
            except OSError as exc:
                raise _refuse(root, walked, _kind(part, fd, exc)) from None
            os.close(fd)
            fd = child
            _check_dir(root, walked, fd)
        yield fd
    finally:
        if fd >= 0:
            os.close(fd)


def _open_dir(root: Path, walked: str, part: str, fd: int) -> int:
    try:
        return os.open(part, _DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        raise _refuse(root, walked, _kind(part, fd, exc)) from None


def _check_dir(root: Path, walked: str, fd: int) -> None:
    if not stat.S_ISDIR(os.fstat(fd).st_mode):
        raise _refuse(root, walked, "not a folder")


def _kind(name: str, folder: int, exc: OSError) -> str:
    """What is at `name` in `folder`, for a refusal: a symlink, a file, a device…"""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return exc.strerror or str(exc)
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISREG(mode):
        return "a file where a folder belongs"
    if stat.S_ISDIR(mode):
        return exc.strerror or str(exc)
    return _special(mode)


def _special(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


@contextmanager
def open_read(root: Path, rel: str, cap: int) -> Iterator[int | None]:
    """The regular file `rel` inside `root`, opened for reading (None when it does
    not exist); refused when it is anything else or larger than `cap` bytes."""
    with _folder(root, rel, create=False) as folder:
        if folder is None:
            yield None
            return
        name = _parts(rel)[-1]
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=folder)
        except FileNotFoundError:
            yield None
            return
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EMLINK):
                raise _refuse(root, rel, "a symlink") from None
            raise _refuse(root, rel, _kind(name, folder, exc)) from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise _refuse(root, rel, _special(info.st_mode))
            if info.st_size > cap:
                raise BadInput(f"{root / rel}: {info.st_size} bytes, over the {cap} bytes allowed")
            os.set_blocking(fd, True)
            yield fd
        finally:
            os.close(fd)


def read_bytes(root: Path, rel: str, cap: int) -> bytes | None:
    """The whole regular file `rel` inside `root` (at most `cap` bytes), or None."""
    with open_read(root, rel, cap) as fd:
        if fd is None:
            return None
        return _read_capped(fd, cap, root / rel)


def _read_capped(fd: int, cap: int, where: Path) -> bytes:
    # The size was checked, but a file can grow while it is read: never past the cap.
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, min(_CHUNK, cap + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > cap:
            raise BadInput(f"{where}: over the {cap} bytes allowed")


def digest(fd: int, cap: int, where: Path) -> str:
    """The SHA-256 of an open file, read a chunk at a time, never past `cap` bytes."""
    import hashlib

    os.lseek(fd, 0, os.SEEK_SET)
    found = hashlib.sha256()
    total = 0
    while chunk := os.read(fd, _CHUNK):
        total += len(chunk)
        if total > cap:
            raise BadInput(f"{where}: over the {cap} bytes allowed")
        found.update(chunk)
    return found.hexdigest()


def lines(fd: int, line_cap: int, file_cap: int, where: Path) -> Iterator[bytes | None]:
    """The lines of an open file, without their newline, read a chunk at a time;
    a line longer than `line_cap` bytes comes as None (its bytes are not kept)."""
    os.lseek(fd, 0, os.SEEK_SET)
    held = bytearray()
    too_long = False
    total = 0
    while True:
        chunk = os.read(fd, _CHUNK)
        total += len(chunk)
        if total > file_cap:
            raise BadInput(f"{where}: over the {file_cap} bytes allowed")
        if not chunk:
            break
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if not too_long:
                held += piece
                if len(held) > line_cap:
                    too_long = True
                    held.clear()
            if end < 0:
                break
            yield None if too_long else bytes(held)
            held.clear()
            too_long = False
            start = end + 1
    if too_long:
        yield None
    elif held:
        yield bytes(held)


def write_bytes(root: Path, rel: str, data: bytes) -> None:
    """Replace the file `rel` inside `root` with `data`: written to a new file in the
    same folder (made if missing, never through a symlink), flushed and renamed over
    the old one, which must be a regular file when there is one."""
    name = _parts(rel)[-1]
    with _folder(root, rel, create=True) as folder:
        assert folder is not None
        try:
            old = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None and not stat.S_ISREG(old.st_mode):
            kind = "a symlink" if stat.S_ISLNK(old.st_mode) else _special(old.st_mode)
            raise _refuse(root, rel, kind)
        partial = f".{name}.partial-{os.getpid()}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        with suppress(FileNotFoundError):
            os.unlink(partial, dir_fd=folder)
        try:
            fd = os.open(partial, flags, 0o666, dir_fd=folder)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(partial, name, src_dir_fd=folder, dst_dir_fd=folder)
            with suppress(OSError):
                os.fsync(folder)
        except OSError as exc:
            with suppress(OSError):
                os.unlink(partial, dir_fd=folder)
            raise BadInput(
                f"cannot write {root / rel} ({exc.strerror or exc}); it was left as it was"
            ) from None
