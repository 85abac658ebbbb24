"""The path history index written from `git log`, a batch of commits per transaction
that also moves the tips, so that an interrupted build resumes where it stopped
(drift/path_history.py; docs/drift.md, "The path history").

No pygit2 here: hooks import this module.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import IO

from synapse_git.drift import history_log
from synapse_git.git import git_command

BATCH = 2000  # commits per transaction while building


def index(
    conn: sqlite3.Connection, checkout: Path, new: list[str], tips: list[str], limit: int | None
) -> bool:
    """Index what the `new` ref commits reach and `tips` do not; True when done."""
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('complete', '0')")
    args = [
        "-c",
        "diff.renames=true",
        "log",
        "--topo-order",
        "--reverse",
        "-M",
        "--no-rename-empty",
        "--name-status",
        "-z",
        "--no-color",
        "--no-ext-diff",
        "--format=%x01%H %ct %P",
        "--stdin",
    ]
    stdin = "".join(f"{commit}\n" for commit in new) + "".join(f"^{tip}\n" for tip in tips)
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    with subprocess.Popen(
        ["git", *git_command.NO_PROGRAMS, *args],
        cwd=checkout,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
        finished = _consume(conn, proc.stdout, set(tips), limit)
        if not finished:
            proc.kill()
        code = proc.wait()
    return finished and code == 0


def _consume(
    conn: sqlite3.Connection, stream: IO[bytes], tips: set[str], limit: int | None
) -> bool:
    """Read `git log` output commit by commit, writing a batch at a time; False
    when `limit` stopped it first."""
    (last,) = conn.execute("SELECT coalesce(max(seq), 0) FROM commits").fetchone()
    pending: list[history_log.Commit] = []
    for count, commit in enumerate(history_log.commits(stream), start=1):
        pending.append(commit)
        if len(pending) >= BATCH:
            last = _write(conn, pending, last, tips)
            pending = []
        if limit is not None and count >= limit:
            break
    else:
        _write(conn, pending, last, tips)
        return True
    _write(conn, pending, last, tips)
    return False


def _write(
    conn: sqlite3.Connection, commits: list[history_log.Commit], last: int, tips: set[str]
) -> int:
    """One transaction: the commits, their changes, and the tips after them."""
    if not commits:
        return last
    ids: dict[str, int] = {}

    def path_id(path: str) -> int:
        if path not in ids:
            conn.execute("INSERT OR IGNORE INTO paths (path) VALUES (?)", (path,))
            (ids[path],) = conn.execute("SELECT id FROM paths WHERE path = ?", (path,)).fetchone()
        return ids[path]

    conn.execute("BEGIN IMMEDIATE")
    try:
        rows: list[tuple[int, int, str, int | None]] = []
        for commit in commits:
            last += 1
            conn.execute("INSERT INTO commits VALUES (?, ?, ?)", (last, commit.id, commit.time))
            for kind, path, other in commit.changes:
                if kind == "R" and other is not None:
                    old, new = path_id(path), path_id(other)
                    rows += [(old, last, "R", new), (new, last, "N", old)]
                else:
                    rows.append((path_id(path), last, kind, None))
            tips.difference_update(commit.parents)
            tips.add(commit.id)
        conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
        conn.execute("DELETE FROM tips")
        conn.executemany("INSERT INTO tips VALUES (?)", [(tip,) for tip in sorted(tips)])
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return last
