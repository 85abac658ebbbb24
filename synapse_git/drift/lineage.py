"""Where one path went after a commit: its own renames, followed through the path
history index (docs/drift.md, "Where a path went").

A removal counts when its commit is in the history that leads to HEAD and not in
the history of the memory's commit (`anchor..HEAD`, as git would list it): a
rename made on a branch merged since is one, wherever the topological order put
it. After a rename, only the new name's removals at or after that commit count,
so a file later given the old name is never taken for the one renamed.
"""

from __future__ import annotations

import datetime
from typing import Any, NamedTuple

from synapse_git.drift.path_history import Event, PathHistory

LONGEST_CHAIN = 100  # renames followed; a longer chain is cut there


class Followed(NamedTuple):
    """The last name the path had (`name`), and the event that deleted it (`deleted`),
    None when it was not deleted after its last rename."""

    name: str
    deleted: Event | None
    renamed: bool


def when(event: Event) -> str:
    """`0123456789 (2024-05-01)`: the commit id, shortened to 10 digits, and its committer date."""
    day = datetime.datetime.fromtimestamp(event.time, datetime.UTC).date().isoformat()
    return f"{event.commit[:10]} ({day})"


class Lineage:
    def __init__(self, history: PathHistory, repo: Any, head: str | None) -> None:
        self.history = history
        self.repo = repo
        self.head = head
        self._below: dict[tuple[str, str], bool] = {}

    def _descends(self, commit: str, ancestor: str) -> bool:
        """Whether `commit` is `ancestor` or has it in its history."""
        if commit == ancestor:
            return True
        key = (commit, ancestor)
        if key not in self._below:
            try:
                self._below[key] = bool(self.repo.descendant_of(commit, ancestor))
            except (KeyError, ValueError):
                self._below[key] = False
        return self._below[key]

    def _counts(self, event: Event, anchor: str | None, after: Event | None) -> bool:
        if self.head is None or not self._descends(self.head, event.commit):
            return False
        if anchor is not None and self._descends(anchor, event.commit):
            return False
        return after is None or (
            event.seq >= after.seq and self._descends(event.commit, after.commit)
        )

    def follow(self, path: str, anchor: str | None) -> Followed:
        """`path` from `anchor` (None: the newest removal in HEAD's history) through
        its renames to its last name."""
        name, after, renamed = path, None, False
        seen = {path}
        for _ in range(LONGEST_CHAIN):
            gone = [
                event
                for event in self.history.events(name)
                if event.kind in "RD" and self._counts(event, anchor, after)
            ]
            if not gone:
                return Followed(name, None, renamed)
            event = gone[-1] if anchor is None and after is None else gone[0]
            if event.kind == "D" or event.other is None or event.other in seen:
                return Followed(name, event, renamed)
            name, after, renamed = event.other, event, True
            seen.add(name)
        return Followed(name, None, renamed)

    def moved_folder(self, folder: str, anchor: str | None) -> dict[str, str]:
        """Renames of files inside `folder` in `anchor..HEAD`: old path -> new path."""
        moves: dict[str, str] = {}
        for event in self.history.events_under(folder):
            if event.kind == "R" and event.other and self._counts(event, anchor, None):
                moves.setdefault(event.path, event.other)
        return moves
