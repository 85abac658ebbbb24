"""What `changed` learnt from git, kept for the next check (docs/drift.md, changed).

The commits in ANCHOR..HEAD touching a path, and their lines, never change while
HEAD stays where it is: `git log` over a long history is most of what a warm
`memory drift` costs, so each answer is kept in the data folder (never in the
repository), one file per repository, for the HEAD it was read at. A new HEAD
starts the file afresh. A file that cannot be read, or holds anything else, is
ignored and written again; a failure to write it costs only the next check's time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from synapse_git.data_folder import replace_file

# Past this many kept answers the file starts afresh: bounded, whatever the store.
MOST = 50_000
READ_BYTES = 16 * 1024 * 1024


def _file(root: Path) -> Path | None:
    from synapse_git.data_folder import data_dir

    try:
        folder = data_dir()
    except Exception:  # no usable data folder: nothing is kept
        return None
    digest = hashlib.sha256(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return folder / "churn" / f"{digest}.json"


class Kept:
    """The answers kept for one repository at one HEAD: read once, written once
    (`save`), however many anchors a check asks about."""

    def __init__(self, root: Path, head: str) -> None:
        self.path = _file(root)
        self.head = head
        self.ranges = self._read()
        self.added = False

    def _read(self) -> dict[str, dict[str, tuple[int, int]]]:
        if self.path is None:
            return {}
        try:
            if self.path.is_symlink() or self.path.stat().st_size > READ_BYTES:
                return {}
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("head") != self.head:
            return {}
        ranges = data.get("ranges")
        if not isinstance(ranges, dict):
            return {}
        return {
            str(anchor): {
                str(name): (int(pair[0]), int(pair[1]))
                for name, pair in kept.items()
                if isinstance(pair, list) and len(pair) == 2 and all(type(n) is int for n in pair)
            }
            for anchor, kept in ranges.items()
            if isinstance(kept, dict)
        }

    def get(self, anchor: str) -> dict[str, tuple[int, int]]:
        """The kept answers for ANCHOR..HEAD: path -> (commits, lines)."""
        return dict(self.ranges.get(anchor, {}))

    def add(self, anchor: str, found: dict[str, tuple[int, int]]) -> None:
        """Keep `found` for ANCHOR..HEAD beside what is kept for this HEAD already."""
        if not found:
            return
        if sum(len(kept) for kept in self.ranges.values()) + len(found) > MOST:
            self.ranges.clear()
        self.ranges.setdefault(anchor, {}).update(found)
        self.added = True

    def save(self) -> None:
        """Write what was added (a failure costs only the next check's time)."""
        if self.path is None or not self.added:
            return
        ranges = {
            anchor: {name: list(pair) for name, pair in kept.items()}
            for anchor, kept in self.ranges.items()
        }
        try:
            replace_file(self.path, json.dumps({"head": self.head, "ranges": ranges}))
        except OSError:
            return
        self.added = False
