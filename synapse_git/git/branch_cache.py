"""Where memories' commits stand from HEAD, kept per checkout in the data folder
(never in the repository) under a key made of HEAD and every branch tip, so
git/branches.py computes it again only when HEAD or a branch moves; the last few
keys are kept, so switching back and forth between two branches computes each once.

Standard library only: the checkout hooks use it.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path

from synapse_git.data_folder import replace_file
from synapse_git.git.branches import COMMIT_ID, HERE, ORDINARY, Standing, compute, tips

CACHE_FORMAT = 2
KEPT_KEYS = 4  # answers kept per checkout, for the last HEADs and branch tips seen


def _cache_path(data_dir: Path, checkout: Path) -> Path:
    # hashlib here, not at the top: recall loads this module for its drift rules, and
    # hashlib loads OpenSSL's digests, a tenth of a reading command's start-up.
    import hashlib

    digest = hashlib.sha256(str(checkout).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return data_dir / "branches" / f"{digest}.json"


def _key(head: str, refs: str) -> str:
    import hashlib

    return hashlib.sha256(f"{head}\n{refs}".encode("utf-8", "surrogateescape")).hexdigest()


def standings(
    data_dir: Path, checkout: Path, head: str | None, anchors: Collection[str]
) -> dict[str, Standing]:
    """The standing of each of `anchors` (those not listed stand HERE): read from the
    checkout's cache when HEAD and every branch tip are as they were, else computed
    and kept."""
    if head is None or not COMMIT_ID.match(head):
        return {}
    wanted = {a for a in anchors if a and COMMIT_ID.match(a) and a != head}
    if not wanted:
        return {}
    key = _key(head, tips(checkout))
    path = _cache_path(data_dir, checkout)
    entries = _read(path, str(checkout))
    known = entries.get(key)
    if known is not None and wanted <= known.keys():
        return {a: known[a] for a in wanted if known[a].state != HERE}
    found = compute(checkout, head, wanted | (set(known) if known else set()))
    entries.pop(key, None)
    kept = {key: {a: found.get(a, ORDINARY) for a in wanted | set(known or ()) | set(found)}}
    # A few recent keys are kept: switching back and forth between two branches
    # computes each once.
    kept.update(list(entries.items())[: KEPT_KEYS - 1])
    _write(path, str(checkout), kept)
    return {a: s for a, s in found.items() if a in wanted and s.state != HERE}


def _read(path: Path, checkout: str) -> dict[str, dict[str, Standing]]:
    """The kept answers by key, newest first; none when the file is missing or foreign."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("format") != CACHE_FORMAT
        or data.get("checkout") != checkout
        or not isinstance(data.get("keys"), list)
    ):
        return {}
    out: dict[str, dict[str, Standing]] = {}
    try:
        for entry in data["keys"][:KEPT_KEYS]:
            out[str(entry["key"])] = {
                str(anchor): Standing(str(state), branch, tuple(str(p) for p in changed))
                for anchor, (state, branch, changed) in entry["anchors"].items()
            }
    except (TypeError, ValueError, KeyError, AttributeError):
        return {}
    return out


def _write(path: Path, checkout: str, entries: dict[str, dict[str, Standing]]) -> None:
    """Kept through a temporary file renamed into place; a failure to keep it only
    costs the next caller the computation."""
    data = {
        "format": CACHE_FORMAT,
        "checkout": checkout,
        "keys": [
            {
                "key": key,
                "anchors": {
                    a: [s.state, s.branch, list(s.changed)] for a, s in sorted(found.items())
                },
            }
            for key, found in entries.items()
        ],
    }
    try:
        replace_file(path, json.dumps(data))
    except OSError:
        return
