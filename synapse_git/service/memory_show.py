"""What `memory show` answers (service/inspection.py): a memory with what git and the
team know about it. Apart from the service's parts, which every command loads, so that
only `memory show` makes these classes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from synapse_git.service.results import History


@dataclass(frozen=True)
class PathNow:
    """A path a memory names, as the checkout has it now, and what changed in it since
    the memory was written."""

    path: str
    state: str  # present, stale, unverified, skipped (never called missing), outside
    renamed_to: str | None = None
    deleted: str | None = None  # the commit that deleted it and when
    note: str | None = None
    file: str | None = None  # the tracked file it names now (a shorter form resolved)
    commits: int | None = None  # commits since the anchor touching `file`
    lines: int | None = None  # lines they added and removed

    def as_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass(frozen=True)
class TeamStatus:
    uid: str
    author: str
    origin: str  # here: shared from this store; team: came from a teammate's line
    in_file: bool | None  # this checkout's team file holds its line (None: unreadable)
    file_state: str | None  # the state that line gives it

    def as_json(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass(frozen=True)
class MemoryPage:
    """`memory show`: one memory with what git and the team know about it."""

    history: History
    anchor_inferred: bool
    paths: list[PathNow]
    team: TeamStatus | None

    def as_json(self) -> dict[str, Any]:
        memory = self.history.memory
        return {
            **memory.as_json(),
            "commit": memory.head_commit,
            "branch": memory.branch,
            "anchor_inferred": self.anchor_inferred,
            "supersedes": self.history.supersedes,
            "chain": self.history.chain,
            "versions": len(self.history.versions) + 1,
            "paths": [path.as_json() for path in self.paths],
            "team": None if self.team is None else self.team.as_json(),
        }
