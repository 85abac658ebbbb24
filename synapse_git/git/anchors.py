"""The commit a memory stored before anchors were recorded was written at, inferred
(docs/store.md, "Anchors").

The reflog of HEAD says which commit the checkout was at at any moment it
covers: the last entry at or before the memory's `created_at` is it. Before the
reflog's first entry (or with none), it is the newest first-parent commit of
HEAD made at or before that moment. Only commits that still exist are given.
"""

from __future__ import annotations

import bisect
import os
from datetime import datetime
from pathlib import Path

from synapse_git.git.git_command import git


class _Repository:
    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.reflog: list[tuple[int, str]] = []
        self.mainline: list[tuple[int, str]] = []
        found = git(["rev-parse", "--path-format=absolute", "--git-dir"], folder)
        if found.returncode != 0:
            return
        logs = Path(found.stdout.decode("utf-8", "surrogateescape").strip()) / "logs" / "HEAD"
        try:
            text = logs.read_text("utf-8", "surrogateescape")
        except OSError:
            text = ""
        for line in text.splitlines():
            head, _, _ = line.partition("\t")
            fields = head.split(" ")
            # <old> <new> <name…> <email> <seconds> <zone>: the time is second from the end.
            if len(fields) >= 4 and fields[-2].isdigit() and len(fields[1]) >= 40:
                self.reflog.append((int(fields[-2]), fields[1]))
        self.reflog.sort(key=lambda entry: entry[0])
        done = git(["log", "--first-parent", "--format=%ct %H", "HEAD"], folder)
        if done.returncode == 0:
            for line in done.stdout.decode().splitlines():
                seconds, _, commit = line.partition(" ")
                self.mainline.append((int(seconds), commit))
        self.mainline.reverse()  # oldest first; committer times on one line mostly grow
        self._exists: dict[str, bool] = {}

    def exists(self, commit: str) -> bool:
        if commit not in self._exists:
            done = git(["cat-file", "-e", f"{commit}^{{commit}}"], self.folder)
            self._exists[commit] = done.returncode == 0
        return self._exists[commit]

    def at(self, seconds: int) -> str | None:
        if self.reflog and self.reflog[0][0] <= seconds:
            place = bisect.bisect_right(self.reflog, (seconds, "\U0010ffff"))
            for _, commit in reversed(self.reflog[:place]):
                if commit.strip("0") and self.exists(commit):
                    return commit
        place = bisect.bisect_right(self.mainline, (seconds, "\U0010ffff"))
        return self.mainline[place - 1][1] if place else None


class Inferrer:
    """`infer(project, created_at)`, reading each project's reflog and history once."""

    def __init__(self) -> None:
        self._repositories: dict[str, _Repository | None] = {}

    def __call__(self, project: str | None, created_at: str | None) -> str | None:
        if not project or not created_at:
            return None
        if project not in self._repositories:
            self._repositories[project] = _Repository(project) if os.path.isdir(project) else None
        repository = self._repositories[project]
        if repository is None:
            return None
        try:
            seconds = int(datetime.fromisoformat(created_at).timestamp())
        except ValueError:
            return None
        return repository.at(seconds)
