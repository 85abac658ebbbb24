"""Where a checkout's session snapshot lives, and reading it as plain JSON.

Kept apart from `session` so the commit hook can warn about drift found at
the last refresh without loading the session machinery.

Snapshots quote memories, so a purge removes them all (docs/store.md#purge). A
snapshot read from the store before a purge must not be written after that
removal: whatever writes a file here from the store holds `Held` (shared) from
its first read to its write, and a purge holds it alone (exclusive) from its
transaction to the removal.
"""

from __future__ import annotations

import json
from pathlib import Path

TYPE_CHECKING = False  # `typing` is not imported when running: the commit hook uses this
if TYPE_CHECKING:
    from typing import Any

# 2: the older half of a conflict is told (marked), no longer left out.
SNAPSHOT_FORMAT = 2
# In the snapshots' folder: the lock of `Held` (a purge's glob of *.json leaves it).
LOCK_NAME = ".lock"


class Held:
    """The snapshots' lock: shared by the writers of snapshots, exclusive for a purge.
    An advisory `flock`, released when the process ends however it ends."""

    def __init__(self, data_dir: Path, *, purge: bool = False) -> None:
        self.path = data_dir / "sessions" / LOCK_NAME
        self.purge = purge
        self.fd = -1

    def __enter__(self) -> None:
        import fcntl
        import os

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            if not self.purge:
                return  # where no lock can be made, no snapshot can be written either
            from synapse_git.errors import StoreError

            raise StoreError(
                f"cannot use {self.path} ({exc.strerror}); nothing was purged"
            ) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX if self.purge else fcntl.LOCK_SH)
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *_: object) -> None:
        if self.fd >= 0:
            import os

            os.close(self.fd)
            self.fd = -1


def _sha256(data: bytes) -> str:
    """SHA-256 from the interpreter's own module where it has one: `hashlib` loads
    OpenSSL, 2 ms of every commit."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            from hashlib import sha256
    return str(sha256(data).hexdigest())


def snapshot_path(data_dir: Path, checkout: str) -> Path:
    digest = _sha256(checkout.encode("utf-8", "surrogateescape"))[:24]
    return data_dir / "sessions" / f"{digest}.json"


def remove_all(data_dir: Path) -> int:
    """Delete every checkout's snapshot (they quote memories' text): after a purge no
    copy may stay; each is rebuilt at the next session start or refresh."""
    removed = 0
    for path in (data_dir / "sessions").glob("*.json"):
        if path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def read_raw(data_dir: Path, checkout: str) -> dict[str, Any] | None:
    """The checkout's snapshot as JSON, or None when missing, unreadable or foreign."""
    try:
        data = json.loads(snapshot_path(data_dir, checkout).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    if data.get("format") != SNAPSHOT_FORMAT or data.get("checkout") != checkout:
        return None
    return data


def written_at(data_dir: Path, checkout: str) -> str:
    """When the checkout's snapshot was last written, in UTC to the minute."""
    import time

    try:
        stamp = snapshot_path(data_dir, checkout).stat().st_mtime
    except OSError:
        return "time unknown"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))
