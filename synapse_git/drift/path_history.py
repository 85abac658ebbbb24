"""The life of every path in a repository's history, read from git once
(docs/drift.md, "The path history").

One SQLite file per repository, in the data folder (`paths/<key>.db`, never in
the repository), keyed by the repository's common git folder so every linked
worktree shares it. It holds every commit reachable from any ref (all branches,
tags and remote branches, in topological order: parents before children) and,
per commit, the paths it added, deleted and renamed, as `git log -M` reads each
commit against its first parent. Merges show no changes of their own: a rename
made on a merged branch is read at that branch's commit, where it is a rename,
not at the merge, where it would look like a deletion and an addition.

Empty files are never paired by content (`--no-rename-empty`: every empty file
has the same blob), and a module turned into a package in one commit
(`exceptions.py` deleted, `exceptions/__init__.py` added) is a rename.

Built once, then brought up to date with only the commits added since (`git log
--all ^tip…`); the tips are the indexed commits no other indexed commit has as
parent. A checkout that moves only HEAD, between commits refs point at and the
index holds, costs one `git show-ref`. Commits are written in batches, each
batch one transaction that also moves the tips, so an interrupted build
resumes where it stopped. History rewritten (a tip no ref reaches any more:
`commit --amend`, a reset, a branch deleted unmerged) makes the next update
start again from nothing.

No pygit2 here: hooks import this module.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from synapse_git import exit_codes
from synapse_git.data_folder import data_dir
from synapse_git.drift import history_log, history_write
from synapse_git.store import database

VERSION = "3"  # 3: documents rewritten in another format keep their lineage
# Commits left to index that a caller that may not wait still indexes itself: about
# a second of `git log` on 2 cores (docs/drift.md has the figures). More than that
# is built in the background. A count, not a clock: the same repository gives the
# same answer on a quiet and a loaded machine.
SMALL_HISTORY = 5_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS commits (
    seq     INTEGER PRIMARY KEY,
    id      TEXT NOT NULL UNIQUE,
    time    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
-- kind: A added, D deleted, R renamed away (other: the new path), N arrived by a
-- rename (other: the old path).
CREATE TABLE IF NOT EXISTS events (
    path  INTEGER NOT NULL,
    seq   INTEGER NOT NULL,
    kind  TEXT NOT NULL,
    other INTEGER
);
CREATE INDEX IF NOT EXISTS events_path ON events (path, seq);
CREATE TABLE IF NOT EXISTS tips (id TEXT PRIMARY KEY);
"""


class Event(NamedTuple):
    """One change of one path: at commit `commit` (its topological `seq`, its
    committer `time`), `kind` A, D, R (renamed to `other`) or N (from `other`)."""

    path: str
    seq: int
    commit: str
    time: int
    kind: str
    other: str | None


class Status(NamedTuple):
    commits: int
    complete: bool  # False: a build is under way or was interrupted


def store_path(common_dir: Path, folder: Path | None = None) -> Path:
    """Where the index of the repository whose common git folder is `common_dir` lives."""
    key = hashlib.sha256(os.path.realpath(common_dir).encode("utf-8", "surrogateescape"))
    return (folder or data_dir()) / "paths" / f"{key.hexdigest()[:24]}.db"


class PathHistory:
    """The index of one repository. `update()` builds or extends it; the readers
    answer from what is indexed."""

    def __init__(self, checkout: Path, common_dir: Path, folder: Path | None = None) -> None:
        self.checkout = checkout
        self.common_dir = common_dir
        self.path = store_path(common_dir, folder)
        self._conn: sqlite3.Connection | None = None
        self._names: list[str] | None = None

    # -- the file ------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            # Another process may be making the file (two checks at once in two
            # worktrees): switching to WAL then fails at once, busy timeout or not.
            database.execute_when_free(conn, "PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.executescript(_SCHEMA)
            found = conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
            if found is None or found[0] != VERSION:
                _clear(conn)
            self._conn = conn
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def status(self) -> Status:
        """How much is indexed, and whether the index has reached every ref's history
        as it was at the end of the last update."""
        if not self.path.exists():
            return Status(0, False)
        conn = self._open()
        (count,) = conn.execute("SELECT count(*) FROM commits").fetchone()
        return Status(count, self.complete())

    def complete(self) -> bool:
        """`status().complete` without counting the commits (a hook asks on every checkout)."""
        if not self.path.exists():
            return False
        done = self._open().execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        return done is not None and done[0] == "1"

    # -- building ------------------------------------------------------------------

    @contextlib.contextmanager
    def _lock(self, wait: bool) -> Iterator[bool]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            yield True

    def update(self, *, wait: bool = True, limit: int | None = None) -> bool:
        """Index the commits of every ref not indexed yet, rebuilding from nothing
        when indexed history was rewritten. Returns False when another process is
        updating and `wait` is False. With `limit`, stops after that many commits
        (the index stays incomplete and the next update goes on)."""
        with self._lock(wait) as held:
            if not held:
                return False
            conn = self._open()
            digest, others, head = history_log.digests(self.checkout)
            done = conn.execute("SELECT value FROM meta WHERE key = 'refs'").fetchone()
            if done is not None and done[0] == digest and self.complete():
                return True  # no ref moved since the last complete update
            if self._head_moved_only(conn, digest, others, head):
                return True
            refs = history_log.commit_refs(self.checkout)
            tips = [row[0] for row in conn.execute("SELECT id FROM tips ORDER BY id")]
            if tips and self._rewritten(conn, tips, refs):
                _clear(conn)
                tips = []
            self._names = None
            known = {
                commit
                for commit in set(refs.values())
                if conn.execute("SELECT 1 FROM commits WHERE id = ?", (commit,)).fetchone()
            }
            new = sorted(set(refs.values()) - known)
            if not new or history_write.index(conn, self.checkout, new, tips, limit):
                # What the refs were when this update began: one that moved during it
                # is caught by the next update.
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany(
                    "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                    [
                        ("complete", "1"),
                        ("refs", digest),
                        ("refmap", json.dumps(refs)),
                        ("others", others),
                    ],
                )
                conn.execute("COMMIT")
            return True

    def ensure(self, *, wait: bool) -> bool:
        """Bring the index up to date; without `wait`, a first build (or the rest of
        an interrupted one) of more than SMALL_HISTORY commits is started in the
        background instead. True when the index is complete afterwards."""
        if wait or self.complete():
            self.update(wait=wait)
        else:
            done = history_log.git(["rev-list", "--count", *history_log.REFS], self.checkout)
            left = int(done.stdout.strip() or 0) - self.status().commits
            if left <= SMALL_HISTORY:
                self.update(wait=True)
            else:
                build_in_background(self.checkout)
        return self.complete()

    def _head_moved_only(
        self, conn: sqlite3.Connection, digest: str, others: str, head: str | None
    ) -> bool:
        """After a complete update, only HEAD moved (a checkout of a branch or tag), from
        a commit a ref still points at to one indexed: what a whole update would find
        (nothing new, nothing rewritten) without asking git again. Records HEAD's place
        as that update would; False when the whole update is needed."""
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        if head is None or meta.get("others") != others or meta.get("complete") != "1":
            return False
        refmap: dict[str, str] = json.loads(meta.get("refmap", "{}"))
        before = refmap.get("HEAD")
        if before is None or before not in {c for name, c in refmap.items() if name != "HEAD"}:
            return False  # it left a commit only HEAD may have held: ask git
        if conn.execute("SELECT 1 FROM commits WHERE id = ?", (head,)).fetchone() is None:
            return False
        refmap["HEAD"] = head
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)",
            [("refs", digest), ("refmap", json.dumps(refmap))],
        )
        conn.execute("COMMIT")
        return True

    def _rewritten(
        self, conn: sqlite3.Connection, tips: Sequence[str], refs: dict[str, str]
    ) -> bool:
        """Whether some indexed commit is no longer in the history of any ref. Only
        the commits refs pointed at when last indexed are asked about, and a ref that
        moved forward costs one ancestry check; after an interrupted build, every
        tip is."""
        found = conn.execute("SELECT value FROM meta WHERE key = 'refmap'").fetchone()
        if found is None:
            asked = list(tips)
        else:
            before: dict[str, str] = json.loads(found[0])
            asked = []
            for name, commit in sorted(before.items()):
                now = refs.get(name)
                if now == commit:
                    continue
                if now is not None and self._ancestor(commit, now):
                    continue
                asked.append(commit)
        if not asked:
            return False
        done = history_log.git(
            ["rev-list", "-n", "1", "--stdin", "--not", *history_log.REFS],
            self.checkout,
            stdin="\n".join(asked) + "\n",
        )
        return done.returncode != 0 or bool(done.stdout.strip())

    def _ancestor(self, commit: str, of: str) -> bool:
        done = history_log.git(["merge-base", "--is-ancestor", commit, of], self.checkout)
        return done.returncode == 0

    # -- reading -------------------------------------------------------------------

    def events(self, path: str) -> list[Event]:
        """Every change of `path`, oldest first."""
        conn = self._open()
        rows = conn.execute(
            "SELECT p.path, e.seq, c.id, c.time, e.kind, o.path FROM events e"
            " JOIN paths p ON p.id = e.path JOIN commits c ON c.seq = e.seq"
            " LEFT JOIN paths o ON o.id = e.other WHERE p.path = ? ORDER BY e.seq, e.kind",
            (path,),
        )
        return [Event(*row) for row in rows]

    def events_under(self, folder: str) -> list[Event]:
        """Every change of a path inside `folder`, oldest first."""
        conn = self._open()
        prefix = folder.rstrip("/") + "/"
        rows = conn.execute(
            "SELECT p.path, e.seq, c.id, c.time, e.kind, o.path FROM paths p"
            " JOIN events e ON e.path = p.id JOIN commits c ON c.seq = e.seq"
            " LEFT JOIN paths o ON o.id = e.other"
            " WHERE p.path >= ? AND p.path < ? ORDER BY e.seq, p.path, e.kind",
            (prefix, prefix[:-1] + "0"),  # "0" sorts right after "/"
        )
        return [Event(*row) for row in rows]

    def added_beside(self, folder: str, seq: int) -> list[Event]:
        """The files the commit at `seq` added straight inside `folder` ("" for the
        root), by path: each path of the folder looked up in the events' own index."""
        prefix = f"{folder}/" if folder else ""
        rows = self._open().execute(
            "SELECT p.path, e.seq, c.id, c.time, e.kind, NULL FROM paths p"
            " JOIN events e ON e.path = p.id AND e.seq = ? AND e.kind = 'A'"
            " JOIN commits c ON c.seq = e.seq"
            " WHERE p.path >= ? AND p.path < ? ORDER BY p.path",
            (seq, prefix, prefix[:-1] + "0" if prefix else "\U0010ffff"),  # "0" sorts after "/"
        )
        return [Event(*row) for row in rows if "/" not in row[0][len(prefix) :]]

    def names(self) -> list[str]:
        """Every path the indexed history has held, sorted."""
        if self._names is None:
            conn = self._open()
            self._names = [row[0] for row in conn.execute("SELECT path FROM paths ORDER BY path")]
        return self._names

    def first_ending(self, suffix: str) -> str | None:
        """The first path, in `names()` order, that ends with `suffix` (one query,
        SQLite's scan rather than every name read into Python)."""
        found = (
            self._open()
            .execute(
                "SELECT path FROM paths WHERE length(path) >= ? AND substr(path, -?) = ?"
                " ORDER BY path LIMIT 1",
                (len(suffix), len(suffix), suffix),
            )
            .fetchone()
        )
        return None if found is None else str(found[0])

    def first_holding(self, part: str) -> str | None:
        """The first path, in `names()` order, that `part` is in once a `/` is put
        before it."""
        found = (
            self._open()
            .execute(
                "SELECT path FROM paths WHERE instr('/' || path, ?) > 0 ORDER BY path LIMIT 1",
                (part,),
            )
            .fetchone()
        )
        return None if found is None else str(found[0])

    def has(self, path: str) -> bool:
        conn = self._open()
        return conn.execute("SELECT 1 FROM paths WHERE path = ?", (path,)).fetchone() is not None

    def seq_of(self, commit: str) -> int | None:
        conn = self._open()
        found = conn.execute("SELECT seq FROM commits WHERE id = ?", (commit,)).fetchone()
        return None if found is None else int(found[0])


def _clear(conn: sqlite3.Connection) -> None:
    conn.executescript(
        "BEGIN; DELETE FROM events; DELETE FROM commits; DELETE FROM paths; DELETE FROM tips;"
        f" DELETE FROM meta; INSERT INTO meta VALUES ('version', '{VERSION}'); COMMIT;"
    )


def build_in_background(checkout: Path) -> None:
    """Start `python -m synapse_git.drift.path_history CHECKOUT` detached, for a hook
    that must not wait; the lock keeps to one builder per repository."""
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "synapse_git.drift.path_history", str(checkout)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def for_checkout(checkout: Path) -> PathHistory | None:
    """The index of the repository `checkout` is a work tree of (None outside git)."""
    done = history_log.git(["rev-parse", "--path-format=absolute", "--git-common-dir"], checkout)
    if done.returncode != 0 or not done.stdout.strip():
        return None
    return PathHistory(checkout, Path(done.stdout.strip()))


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m synapse_git.drift.path_history CHECKOUT", file=sys.stderr)
        return exit_codes.ERROR
    history = for_checkout(Path(argv[0]))
    if history is None:
        print(f"{argv[0]} is not inside a git work tree", file=sys.stderr)
        return exit_codes.NEEDS_ATTENTION
    history.update(wait=False)
    return exit_codes.OK


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
