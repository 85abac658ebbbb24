"""Where one path went after a commit: its own renames, followed through the path
history index (docs/drift.md, "Where a path went").

A removal counts when its commit is in the history that leads to HEAD and not in
the history of the memory's commit (`anchor..HEAD`, as git would list it): a
rename made on a branch merged since is one, wherever the topological order put
it. After a rename, only the new name's removals at or after that commit count,
so a file later given the old name is never taken for the one renamed.
"""

from __future__ import annotations

import bisect
import datetime
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from synapse_git.drift import carried
from synapse_git.drift.path_history import Event, PathHistory
from synapse_git.git import git_command

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
    """Follows paths through `history` towards `head`. Which commits are in HEAD's
    history and the anchor's is listed by git once each (`rev-list`), and asked
    only where the topological order cannot answer alone: a commit indexed after
    another is never its ancestor."""

    def __init__(self, history: PathHistory, checkout: Path, head: str | None) -> None:
        self.history = history
        self.checkout = checkout
        self.head = head
        self._below: dict[tuple[str, str], bool] = {}
        self._seqs: dict[str, int | None] = {}
        self._histories: dict[str, frozenset[str]] = {}
        self._ranges: dict[str, frozenset[str]] = {}

    def _history_of(self, commit: str) -> frozenset[str]:
        """Every commit in `commit`'s history, listed by git once per commit asked:
        one walk instead of one ancestry walk per change looked at."""
        if commit not in self._histories:
            self._histories[commit] = self._listed(commit)
        return self._histories[commit]

    def _since(self, anchor: str) -> frozenset[str]:
        """The commits in `anchor..HEAD`: in HEAD's history and not in the anchor's.
        Listed once per anchor; a few hundred commits where HEAD's whole history is
        tens of thousands."""
        if anchor not in self._ranges:
            self._ranges[anchor] = self._listed(f"{anchor}..{self.head}")
        return self._ranges[anchor]

    def _listed(self, commits: str) -> frozenset[str]:
        """The commits `git rev-list` lists for `commits` (none when git refuses it)."""
        done = subprocess.run(
            ["git", *git_command.NO_PROGRAMS, "rev-list", commits],
            cwd=self.checkout,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
        return frozenset(done.stdout.split())

    def _after_anchor(self, event: Event, anchor: str) -> bool:
        """Whether the commit of `event` is in `anchor..HEAD`."""
        assert self.head is not None
        seq = self._seq(self.head)
        if seq is not None and event.seq > seq:
            return False  # parents come first in the index: a later commit is no ancestor
        return event.commit in self._since(anchor)

    def _within(self, event: Event, tip: str) -> bool:
        """Whether the commit of `event` is in `tip`'s history."""
        seq = self._seq(tip)
        if seq is not None and event.seq > seq:
            return False  # parents come first in the index: a later commit is no ancestor
        return event.commit in self._history_of(tip)

    def _seq(self, commit: str) -> int | None:
        if commit not in self._seqs:
            self._seqs[commit] = self.history.seq_of(commit)
        return self._seqs[commit]

    def _descends(self, commit: str, ancestor: str, ancestor_seq: int | None = None) -> bool:
        """Whether `commit` is `ancestor` or has it in its history."""
        if commit == ancestor:
            return True
        seq = self._seq(commit)
        if seq is not None and ancestor_seq is not None and ancestor_seq > seq:
            return False  # parents come first in the index: a later commit is no ancestor
        key = (commit, ancestor)
        if key not in self._below:
            done = subprocess.run(
                ["git", *git_command.NO_PROGRAMS, "merge-base", "--is-ancestor", ancestor, commit],
                cwd=self.checkout,
                capture_output=True,
                check=False,
                env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
            )
            self._below[key] = done.returncode == 0
        return self._below[key]

    def _counts(self, event: Event, anchor: str | None, after: Event | None) -> bool:
        if self.head is None:
            return False
        if anchor is not None:
            if not self._after_anchor(event, anchor):
                return False
        elif not self._within(event, self.head):
            return False
        return after is None or event.seq > after.seq

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
            if after is not None and len(gone) > 1:
                # The new name's own removal descends from the rename; one on a branch
                # that never had the rename removed another file of that name.
                gone = [e for e in gone if self._descends(e.commit, after.commit, after.seq)]
            if not gone:
                return Followed(name, None, renamed)
            event = gone[-1] if anchor is None and after is None else gone[0]
            if event.kind == "D" or event.other is None or event.other in seen:
                return Followed(name, event, renamed)
            name, after, renamed = event.other, event, True
            seen.add(name)
        return Followed(name, None, renamed)

    def around(self, path: str, anchor: str) -> tuple[Event | None, Event | None]:
        """For a path not there at `anchor`: the last removal of it in the anchor's
        history, and the first arrival of it after the anchor in HEAD's."""
        before: Event | None = None
        after: Event | None = None
        for event in self.history.events(path):
            if event.kind in "RD" and self._within(event, anchor):
                before = event
            elif (
                after is None
                and event.kind in "AN"
                and self.head is not None
                and self._after_anchor(event, anchor)
            ):
                after = event
        return before, after

    def moved_folder(self, folder: str, anchor: str | None) -> dict[str, str]:
        """Renames of files inside `folder` in `anchor..HEAD`: old path -> new path."""
        moves: dict[str, str] = {}
        for event in self.history.events_under(folder):
            if event.kind == "R" and event.other and self._counts(event, anchor, None):
                moves.setdefault(event.path, event.other)
        return moves

    def former(self, path: str) -> list[Former]:
        """The names `path` had before, newest first: each rename in HEAD's history
        that brought the file to its next name, followed back through earlier ones."""
        found: list[Former] = []
        name, before, seen = path, None, {path}
        for _ in range(LONGEST_CHAIN):
            arrivals = [
                event
                for event in self.history.events(name)
                if event.kind == "N"
                and event.other is not None
                and (before is None or event.seq < before.seq)
                and self.head is not None
                and self._within(event, self.head)
            ]
            if not arrivals:
                break
            event = arrivals[-1]
            assert event.other is not None
            if event.other in seen:
                break
            # The old name given to another file after the rename is no longer this one.
            reused = any(
                later.kind in "AN"
                and later.seq > event.seq
                and self.head is not None
                and self._within(later, self.head)
                for later in self.history.events(event.other)
            )
            found.append(Former(event.other, event, reused))
            seen.add(event.other)
            name, before = event.other, event
        return found

    def written_before(self, anchor: str, event: Event) -> bool:
        """Whether a memory anchored at `anchor` was written before `event`'s commit
        (the commit is not in the anchor's history)."""
        return not self._descends(anchor, event.commit, event.seq)

    def replacement(
        self, path: str, deleted: Event, anchor: str | None, fits: Callable[[str], bool]
    ) -> Event | None:
        """The file that took the place of `path`, deleted by `deleted`, where git pairs
        none: one file beside it with its name in another format of the same kind
        (`CHANGES.rst` and `CHANGES.md`, `icon.png` and `icon.svg`) that `fits` (there
        now, not there at the anchor: else it is a sibling), added after the anchor
        within `REPLACED_WITHIN` seconds of the deletion (the same commit, or the next
        ones of that change); else a file of a longer name that took its code
        (`_renamed_longer`); else the one file beside it that took its lines
        (`_carried`). None when there is no such file or more than one."""
        stem, dot, extension = path.rpartition(".")
        family = _family(extension)
        if not dot or not family or "/" in extension:
            return self._renamed_longer(path, deleted, anchor, fits) or self._carried(
                path, deleted, fits
            )
        names = self.history.names()
        start = bisect.bisect_left(names, stem + ".")
        found: list[Event] = []
        for name in names[start:]:
            if not name.startswith(stem + "."):
                break
            other = name[len(stem) + 1 :]
            if other == extension or "/" in other or _family(other) != family:
                continue
            if not fits(name):
                continue
            arrivals = [
                event
                for event in self.history.events(name)
                if event.kind in "AN" and self._counts(event, anchor, None)
            ]
            near = [e for e in arrivals if abs(e.time - deleted.time) <= REPLACED_WITHIN]
            if near:
                found.append(near[0])
        if not found:
            return self._renamed_longer(path, deleted, anchor, fits) or self._carried(
                path, deleted, fits
            )
        return found[0] if len(found) == 1 else None

    def _renamed_longer(
        self, path: str, deleted: Event, anchor: str | None, fits: Callable[[str], bool]
    ) -> Event | None:
        """The file the commit that deleted `path` added beside it, of its kind, with
        `path`'s name as one word of its own (`parse.go` by `command_parse.go`,
        `utils.js` by `string-utils.js`): where the code went when a change split a
        file or gave it a longer name and git paired nothing, the text having moved
        too much. None when there is no such file or more than one (`utils.py` by
        `file_utils.py` and `text_utils.py` is a split with no one successor)."""
        folder, _, name = path.rpartition("/")
        stem, dot, extension = name.rpartition(".")
        if not dot or len(stem) < MIN_WORD:
            return None
        prefix = f"{folder}/" if folder else ""
        names = self.history.names()
        found: list[Event] = []
        for other in names[bisect.bisect_left(names, prefix) :]:
            if not other.startswith(prefix):
                break
            rest = other[len(prefix) :]
            other_stem, other_dot, other_extension = rest.rpartition(".")
            if "/" in rest or rest == name or not other_dot or other_extension != extension:
                continue
            if stem not in _WORDS.split(other_stem) or not fits(other):
                continue
            found += [
                event
                for event in self.history.events(other)
                if event.kind in "AN"
                and event.commit == deleted.commit
                and self._counts(event, anchor, None)
            ][:1]
        return found[0] if len(found) == 1 else None

    def _carried(self, path: str, deleted: Event, fits: Callable[[str], bool]) -> Event | None:
        """The one file of `path`'s kind that the commit deleting it added beside it
        holding half its lines at least (carried.py): two workflows merged into
        `ci.yml`. Only beside it: a page whose text went into a page of a new folder
        (`examples/timestamp-flag.md` into `examples/flags/basics.md`) is a new layout
        the drift sets call a deletion."""
        folder, _, name = path.rpartition("/")
        kind = _kind(name)
        if kind is None:
            return None
        added = [
            event
            for event in self.history.added_beside(folder, deleted.seq)
            if _kind(event.path.rpartition("/")[2]) == kind
        ]
        into = carried.carried_into(
            self.checkout, deleted.commit, path, [event.path for event in added]
        )
        return next((event for event in added if event.path == into and fits(into)), None)


class Former(NamedTuple):
    """A name a path had: `name`, the rename that left it (`renamed`, the event at the
    newer name), and whether another file has had the name since (`reused`)."""

    name: str
    renamed: Event
    reused: bool


def reborn(lineage: Lineage, path: str) -> Event | None:
    """The arrival (added, or renamed in) that began `path`'s present life in HEAD's
    history, when an earlier file of that name had gone before it; else None."""
    events = [
        event
        for event in lineage.history.events(path)
        if lineage.head is not None and lineage._within(event, lineage.head)
    ]
    arrivals = [event for event in events if event.kind in "AN"]
    if not arrivals:
        return None
    last = arrivals[-1]
    ended = any(event.kind in "RD" and event.seq < last.seq for event in events)
    return last if ended else None


# A file's name as a word of a longer one: `parse` in `command_parse`; shorter names
# (`io`, `db`) are words of too many others.
MIN_WORD = 4
_WORDS = re.compile(r"[_\-.]")

# How far apart a deletion and the addition that replaces it may be: a change made
# in a few commits (delete, then add) lands within days, not months.
REPLACED_WITHIN = 14 * 24 * 3600

# Kinds of file one is replaced by another of (`.rst` by `.md`, `.png` by `.svg`);
# a file of another kind beside it (`setup.py` and `setup.cfg`) replaces nothing.
_FAMILIES = (
    frozenset({"rst", "md", "markdown", "txt", "adoc", "asciidoc", "org"}),
    frozenset({"png", "svg", "jpg", "jpeg", "gif", "ico", "webp", "bmp"}),
    frozenset({"yml", "yaml"}),
    frozenset({"ini", "cfg", "toml"}),
    frozenset({"json", "json5", "jsonc"}),
    frozenset({"js", "mjs", "cjs", "ts", "mts", "cts"}),
    frozenset({"jsx", "tsx"}),
)


def _kind(name: str) -> frozenset[str] | str | None:
    """A file name's kind: the family of its extension, else the extension itself;
    None for a name with none (`Makefile`, `.gitignore`)."""
    stem, dot, extension = name.rpartition(".")
    if not dot or not stem:
        return None
    return _family(extension) or extension.lower()


def _family(extension: str) -> frozenset[str] | None:
    lowered = extension.lower()
    return next((family for family in _FAMILIES if lowered in family), None)
