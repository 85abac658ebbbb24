"""`remember` over MCP records the commit the memory was written at (its anchor)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from mcp_harness import mcp_session
from support import git, make_repo


def _anchors(data: Path) -> list[tuple[str, str | None, int]]:
    with closing(sqlite3.connect(data / "memory.db")) as conn:
        rows = conn.execute("SELECT body, head_commit, anchor_inferred FROM memories ORDER BY id")
        return [(str(a), b, int(c)) for a, b, c in rows]


def test_remember_over_mcp_records_the_commit(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    data = tmp_path / "data"
    data.mkdir()
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        session.ok("remember", {"body": "The cache lives in var/cache"})
    assert _anchors(data) == [
        ("The cache lives in var/cache", git(repo, "rev-parse", "HEAD").strip(), 0)
    ]
