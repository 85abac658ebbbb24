"""The answers Synapse gives, as types every layer may import: the JSON of the MCP
tools and of `--json` (docs/json.md), the views of a recall the command line prints
as text, and the names of the git hooks whose states `status` reports.

The tools' types become their output schemas, so a client can check what it gets.
`typing_extensions.TypedDict` (a dependency of the MCP SDK) because pydantic
reads nested stdlib TypedDicts only from Python 3.12.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, Protocol

from typing_extensions import TypedDict

# The git hooks Synapse installs, in the order `hook install` and `status` name them.
HOOKS = ("pre-commit", "pre-merge-commit", "post-checkout", "post-merge", "post-rewrite")


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


class ListedOut(TypedDict):
    """One memory of `memory list --json`: its state is the listing's, not repeated."""

    id: int
    project: str | None
    source: str
    body: str
    created_at: str
    updated_at: str
    # Written on another line of work (docs/branches.md); its branch, or None.
    elsewhere: NotRequired[dict[str, str | None]]


class ListingOut(TypedDict):
    """`memory list --json`."""

    project: str | None
    total: int
    memories: list[ListedOut]


class StoredRootOut(TypedDict):
    stored_root: str
    root: str | None


# `project show --json`; "global" is a keyword, hence the functional form.
ProjectOut = TypedDict(
    "ProjectOut",
    {
        "folder": str,
        "project": str | None,
        "checkout": str | None,
        "main_worktree": str | None,
        "note": str | None,
        "memories": dict[str, int],
        "global": dict[str, int],
        "moved_from": list[str],
        "other_history": StoredRootOut | None,
    },
)


class ImportOut(TypedDict):
    """`memory import --json`: memories stored, duplicates skipped, lines read, the batch."""

    imported: int
    duplicates: int
    lines: int
    batch: int | None


class CheckOut(TypedDict):
    """`memory check --json`."""

    ok: bool
    live: int
    problems: list[str]
    vectors: NotRequired[CoverageOut]


# What the command line reads of a recall to print it: the attributes of
# recall/response.py's `Recalled` and `Hit` and of recall/ranking.py's `Candidate`.


class _Ranked(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def weak(self) -> bool: ...


class HitView(_Ranked, Protocol):
    @property
    def project(self) -> str | None: ...
    @property
    def source(self) -> str: ...
    @property
    def sourceabridged(self) -> bool: ...
    @property
    def body(self) -> str: ...
    @property
    def abridged(self) -> bool: ...
    @property
    def bytes(self) -> int: ...
    @property
    def author(self) -> str | None: ...


class CandidateView(_Ranked, Protocol):
    @property
    def porter(self) -> int | None: ...
    @property
    def trigram(self) -> int | None: ...
    @property
    def held(self) -> tuple[str, ...]: ...
    @property
    def verdict(self) -> str: ...
    @property
    def why_weak(self) -> str: ...


class RecalledView(Protocol):
    @property
    def hits(self) -> Sequence[HitView]: ...
    @property
    def drift(self) -> Sequence[dict[str, Any]]: ...
    @property
    def searched(self) -> int: ...
    @property
    def cut_floor(self) -> int: ...
    @property
    def cut_limit(self) -> int: ...
    @property
    def cut_budget(self) -> int: ...
    @property
    def cut_weak(self) -> int: ...
    @property
    def candidates(self) -> Sequence[CandidateView]: ...
    @property
    def notes(self) -> Sequence[str]: ...
    @property
    def semantic(self) -> str | None: ...


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
