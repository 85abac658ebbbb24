"""What the service answers with: values that serialize to the shapes of docs/json.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from synapse_git.git.project_scope import Scope
from synapse_git.store.memories import Memory, Version

if TYPE_CHECKING:
    from synapse_git.answers import (
        CheckOut,
        HistoryOut,
        ImportOut,
        ListedOut,
        ListingOut,
        ProjectOut,
        RememberOut,
        ShownOut,
        SupersedeOut,
    )
    from synapse_git.recall import evaluation
    from synapse_git.semantic.engine import EmbedReport
    from synapse_git.semantic.vectors import Coverage
    from synapse_git.store.integrity import CheckReport
    from synapse_git.store.transfer import ImportReport

# What `memory list --json` leaves out of each memory: the listing picked the state.
HIDDEN_KEYS = ("state", "superseded_by")


@dataclass(frozen=True)
class Remembered:
    id: int
    project: str | None
    duplicate_of: int | None
    drift: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> RememberOut:
        answer: RememberOut = {
            "id": self.id,
            "project": self.project,
            "duplicate_of": self.duplicate_of,
            "drift": self.drift,
        }
        if self.warnings:
            answer["warnings"] = self.warnings
        return answer


@dataclass(frozen=True)
class Replaced:
    """A supersession: the old memory after it, and the memory that now says it."""

    old: Memory
    new: Remembered

    def as_json(self) -> SupersedeOut:
        return {**self.new.as_json(), "supersedes": self.old.id}


@dataclass(frozen=True)
class History:
    memory: Memory
    versions: list[Version]
    supersedes: list[int]
    chain: list[int]

    def as_json(self) -> HistoryOut:
        """`memory history --json`."""
        return {
            "memory": self.memory.as_json(),
            "versions": [
                {
                    "body": v.body,
                    "source": v.source,
                    "state": v.state,
                    "superseded_by": v.superseded_by,
                    "changed_at": v.changed_at,
                    "change": v.change,
                }
                for v in self.versions
            ],
            "supersedes": self.supersedes,
            "chain": self.chain,
        }

    def shown_json(self) -> ShownOut:
        """`memory show --json`: the memory, the commit it was written at, its links."""
        memory = self.memory
        return {
            **memory.as_json(),
            "commit": memory.head_commit,
            "branch": memory.branch,
            "supersedes": self.supersedes,
            "versions": len(self.versions) + 1,
        }


@dataclass(frozen=True)
class Listing:
    project: str | None
    total: int
    memories: list[Memory]
    moved_from: list[str] = field(default_factory=list)
    # (root commit stored, this repository's) when they differ: another repository
    # now stands where the project's memories were written (docs/store.md).
    other_history: tuple[str, str | None] | None = None
    # Memories written on another line of work (docs/branches.md): id -> the branch
    # that holds them, None when no branch does any more.
    elsewhere: dict[int, str | None] = field(default_factory=dict)
    # Narrowed by a filter of `memory list` (scope, source, author, age, state).
    filtered: bool = False

    def as_json(self) -> ListingOut:
        """`memory list --json`."""
        return {"project": self.project, "total": self.total, "memories": self._listed()}

    def _listed(self) -> list[ListedOut]:
        listed = []
        for memory in self.memories:
            shown = {k: v for k, v in memory.as_json().items() if k not in HIDDEN_KEYS}
            if memory.id in self.elsewhere:
                shown["elsewhere"] = {"branch": self.elsewhere[memory.id]}
            listed.append(cast("ListedOut", shown))
        return listed


def elsewhere_note(branch: str | None) -> str:
    """How a memory from another line of work is labelled where it is listed."""
    if branch is None:
        return "from a line of work no branch reaches any more"
    return f"from branch {branch}, not merged here"


@dataclass(frozen=True)
class ProjectInfo:
    scope: Scope
    counts: dict[str, int]
    global_counts: dict[str, int]
    moved_from: list[str]
    other_history: tuple[str, str | None] | None = None

    def as_json(self) -> ProjectOut:
        """`project show --json`."""
        scope, other = self.scope, self.other_history
        return {
            "folder": str(scope.folder),
            "project": scope.project,
            "checkout": None if scope.checkout is None else str(scope.checkout),
            "main_worktree": None if scope.main_worktree is None else str(scope.main_worktree),
            "note": scope.note,
            "memories": self.counts,
            "global": self.global_counts,
            "moved_from": self.moved_from,
            "other_history": None if other is None else {"stored_root": other[0], "root": other[1]},
        }


@dataclass(frozen=True)
class StoreCheck:
    """`memory check`: the two indexes against the rows, and the vectors' coverage
    (None when semantic recall is not installed and no vector is stored)."""

    report: CheckReport
    vectors: Coverage | None

    def as_json(self) -> CheckOut:
        report = self.report
        data: CheckOut = {"ok": report.ok, "live": report.live, "problems": list(report.problems)}
        if self.vectors is not None:
            data["vectors"] = self.vectors.as_json()
        return data


@dataclass(frozen=True)
class Imported:
    """`memory import`: what was stored, and the vectors computed for it after (None
    when nothing was stored or semantic recall is not installed)."""

    report: ImportReport
    embedded: EmbedReport | None

    def as_json(self) -> ImportOut:
        return self.report.as_json()


@dataclass(frozen=True)
class CiRendered:
    """`ci check`: the report in the chosen format, the job summary for GitHub (None in
    other formats), and how many findings block the change."""

    text: str
    summary: str | None
    blocking: int


@dataclass(frozen=True)
class Kept:
    """What `keep` recorded: each finding kept, as drift words it."""

    findings: list[dict[str, Any]]
    undone: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"kept": self.findings, "undone": self.undone}


@dataclass(frozen=True)
class EvalRun:
    """One `memory eval` run: the report, and what the run did around it."""

    report: evaluation.Report
    # The notes the cases file names and how many went into the temporary store that
    # scored them; None when the cases were scored on the user's own store.
    sample: tuple[Path, int] | None
    baseline_written: Path | None
    regressions: list[str]
