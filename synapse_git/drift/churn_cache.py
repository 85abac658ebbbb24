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


def read(root: Path, head: str, anchor: str) -> dict[str, tuple[int, int]]:
    """The kept answers for ANCHOR..HEAD: path -> (commits, lines)."""
    path = _file(root)
    if path is None:
        return {}
    try:
        if path.is_symlink() or path.stat().st_size > READ_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("head") != head:
        return {}
    ranges = data.get("ranges")
    kept = ranges.get(anchor) if isinstance(ranges, dict) else None
    if not isinstance(kept, dict):
        return {}
    return {
        str(name): (int(pair[0]), int(pair[1]))
        for name, pair in kept.items()
        if isinstance(pair, list) and len(pair) == 2 and all(type(n) is int for n in pair)
    }


def add(root: Path, head: str, anchor: str, found: dict[str, tuple[int, int]]) -> None:
    """Keep `found` for ANCHOR..HEAD beside what is kept for this HEAD already."""
    path = _file(root)
    if path is None or not found:
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict) or data.get("head") != head:
        data = {"head": head, "ranges": {}}
    ranges = data.get("ranges")
    if not isinstance(ranges, dict):
        ranges = data["ranges"] = {}
    if sum(len(v) for v in ranges.values() if isinstance(v, dict)) + len(found) > MOST:
        ranges.clear()
    kept = ranges.setdefault(anchor, {})
    if not isinstance(kept, dict):
        kept = ranges[anchor] = {}
    kept.update({name: list(pair) for name, pair in found.items()})
    try:
        replace_file(path, json.dumps(data))
    except OSError:
        return
