"""How many drift findings each refresh of a checkout found, over time (docs/ui.md).

Every time a checkout's session snapshot is written (a session start, a branch
switch, a merge, a rewrite) one line goes beside it: when, at which commit, and
the count of each kind of finding. No memory text is written, only counts. The
viewer draws the lines as "drift over time". The log is bounded: past LIMIT lines
it is cut to the newest KEEP, so a checkout switched to a thousand times keeps a
file of some tens of kilobytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from synapse_git.data_folder import replace_file

KEEP = 400
LIMIT = 2 * KEEP
# A log is read from its end, at most this much: a file grown by hand or by a fault
# costs no more than this to show.
READ_BYTES = 256 * 1024


@dataclass(frozen=True)
class Point:
    at: str
    head: str | None
    counts: dict[str, int]


def log_path(snapshot: Path) -> Path:
    return snapshot.with_suffix(".drift.jsonl")


def counts(findings: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    found: dict[str, int] = {}
    for finding in findings:
        kind = str(finding.get("kind", ""))
        found[kind] = found.get(kind, 0) + 1
    return dict(sorted(found.items()))


def record(snapshot: Path, head: str | None, findings: Iterable[Mapping[str, Any]]) -> None:
    """Add a point unless it repeats the last one (same commit, same counts)."""
    path = log_path(snapshot)
    point = Point(datetime.now(UTC).isoformat(timespec="seconds"), head, counts(findings))
    points = read(path)
    if points and points[-1].head == head and points[-1].counts == point.counts:
        return
    line = _line(point)
    if len(points) + 1 > LIMIT:
        kept = [_line(p) for p in points[-(KEEP - 1) :]] + [line]
        replace_file(path, "".join(kept))
        return
    with path.open("a", encoding="utf-8") as out:
        out.write(line)


def _line(point: Point) -> str:
    data = {"at": point.at, "head": point.head, "counts": point.counts}
    return json.dumps(data, sort_keys=True) + "\n"


def read(path: Path) -> list[Point]:
    """The log's points, oldest first; lines that are not a point are skipped."""
    try:
        with path.open("rb") as source:
            source.seek(0, os.SEEK_END)
            size = source.tell()
            source.seek(max(0, size - READ_BYTES))
            raw = source.read(READ_BYTES)
    except OSError:
        return []
    lines = raw.decode("utf-8", "replace").splitlines()
    if size > READ_BYTES:
        lines = lines[1:]  # the first may be cut
    return [point for point in map(_point, lines) if point is not None]


def _point(line: str) -> Point | None:
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("at"), str):
        return None
    raw = data.get("counts")
    if not isinstance(raw, dict):
        return None
    found = {str(k)[:20]: v for k, v in raw.items() if isinstance(v, int) and 0 <= v < 10**9}
    head = data.get("head")
    return Point(data["at"][:40], head[:64] if isinstance(head, str) else None, found)


def of(points: Sequence[Point], kinds: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Per point, its date and the count of each of `kinds`."""
    return [(p.at, [p.counts.get(kind, 0) for kind in kinds]) for p in points]
