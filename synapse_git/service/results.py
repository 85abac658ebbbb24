"""What the service answers with: values that serialize to the shapes of docs/json.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from synapse_git.git.project_scope import Scope
from synapse_git.store.memories import Memory, Version

if TYPE_CHECKING:
    from synapse_git.answers import HistoryOut, RememberOut, ShownOut, SupersedeOut


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
