"""The JSON Synapse answers with (docs/json.md), as types: the MCP tools' answers
and what commands print with `--json`.

The tools' types become their output schemas, so a client can check what it gets.
`typing_extensions.TypedDict` (a dependency of the MCP SDK) because pydantic
reads nested stdlib TypedDicts only from Python 3.12.
"""

from __future__ import annotations

from typing import Any, NotRequired

from typing_extensions import TypedDict


class HitOut(TypedDict):
    id: int
    project: str | None
    source: str
    sourceabridged: bool
    body: str
    abridged: bool
    bytes: int
    score: float
    author: NotRequired[str]
    weak: NotRequired[bool]  # present (true) only on a hit that covers little of the question


class CutOut(TypedDict):
    floor: int
    limit: int
    budget: int
    weak: int


class RecallOut(TypedDict):
    query: str
    project: str | None
    budget: str
    hits: list[HitOut]
    drift: list[dict[str, Any]]
    searched: int
    cut: CutOut
    # Only when the caller's folder could not be learnt and a fallback was served.
    note: NotRequired[str]
    # Present where semantic recall is installed or vectors are stored (docs/semantic.md).
    semantic: NotRequired[str]


class RecallExplainedOut(RecallOut):
    explain: list[dict[str, object]]


class PageOut(TypedDict):
    id: int
    project: str | None
    source: str
    sourceabridged: bool
    body: str
    offset: int
    next: int | None
    total: int


class ReadOut(TypedDict):
    memory: PageOut | None


class RememberOut(TypedDict):
    id: int
    project: str | None
    duplicate_of: int | None
    drift: list[dict[str, Any]]
    note: NotRequired[str]
    # What sharing it warned about (a path under the home folder); only when there is some.
    warnings: NotRequired[list[str]]


class SupersedeOut(RememberOut):
    supersedes: int


class ForgetOut(TypedDict):
    id: int
    project: str | None
    state: str


class MemoryOut(TypedDict):
    id: int
    project: str | None
    source: str
    body: str
    created_at: str
    updated_at: str
    state: str
    superseded_by: int | None


class ShownOut(MemoryOut):
    """`memory show --json`: the memory and what is known about it."""

    commit: str | None
    branch: str | None
    supersedes: list[int]
    versions: int


class VersionOut(TypedDict):
    body: str
    source: str
    state: str
    superseded_by: int | None
    changed_at: str
    change: str


class HistoryOut(TypedDict):
    """`memory history --json`: the memory, its earlier versions, its chain."""

    memory: MemoryOut
    versions: list[VersionOut]
    supersedes: list[int]
    chain: list[int]


class ShareOut(TypedDict):
    """`memory share --json`."""

    file: str
    shared: list[int]
    already: list[int]
    warnings: list[str]


class SyncOut(TypedDict):
    """`memory sync --json`: what the team file changed, by memory id; lines skipped."""

    file: str
    added: list[int]
    updated: list[int]
    superseded: list[int]
    forgotten: list[int]
    skipped: list[str]


class CoverageOut(TypedDict):
    """Vectors against live memories (`memory check --json`)."""

    live: int
    current: int
    missing: int
    outdated: int


class SemanticOut(TypedDict):
    """Semantic recall in `status --json`."""

    on: bool
    reason: str | None
    model: str
    vectors: int | None
    live: int | None


class FindingOut(TypedDict):
    """One drift finding (`memory drift --json`, docs/json.md)."""

    kind: str
    ids: list[int]
    detail: str
    suggest: str
    paths: NotRequired[list[str]]
    renamed: NotRequired[dict[str, str]]  # a gone path -> the name git followed it to
    replaced: NotRequired[dict[str, dict[str, str]]]
    newer: NotRequired[int]
    older: NotRequired[int]
    changes: NotRequired[dict[str, dict[str, int]]]
    anchor: NotRequired[str | None]
    branch: NotRequired[str | None]
    quote: NotRequired[dict[str, Any]]
    authors: NotRequired[dict[str, str]]  # memory id (as text) -> who shared it


class DriftOut(TypedDict):
    """`memory drift --json`."""

    folder: str
    project: str | None
    checked: int
    findings: list[FindingOut]
    kept: NotRequired[int]


class DriftCheckOut(TypedDict):
    """A whole drift check as the viewer keeps it (docs/ui.md): the report, the stamp of
    what it depends on (store version, HEAD, git's index), when it was made (seconds
    since the epoch) and how long it took (seconds)."""

    stamp: str
    at: float
    took: float
    report: DriftOut
