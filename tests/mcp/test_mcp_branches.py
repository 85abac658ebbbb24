"""Over MCP: `remember` with `everywhere`, and `recall` with `at` (docs/branches.md)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from mcp_harness import mcp_session
from support import git, make_repo


def test_everywhere_and_at_over_mcp(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"src/app.py": "print('app')\n"})
    first = git(repo, "rev-parse", "HEAD").strip()
    data = tmp_path / "data"
    data.mkdir()
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        old = session.ok("remember", {"body": "The cache is warmed in src/app.py"})["id"]
        git(repo, "checkout", "-q", "-b", "feature")
        (repo / "src" / "cache.py").write_text("CACHE = {}\n", encoding="utf-8")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "cache")
        new = session.ok("remember", {"body": "The cache lives in src/cache.py"})["id"]
        kept = session.ok(
            "remember", {"body": "The cache is never shared between tests", "everywhere": True}
        )["id"]
        everything = session.ok("recall", {"query": "cache"})
        assert {hit["id"] for hit in everything["hits"]} == {old, new, kept}
        at_first = session.ok("recall", {"query": "cache", "at": first})
        assert {hit["id"] for hit in at_first["hits"]} == {old}
        assert at_first["drift"] == []
        refused = session.error("recall", {"query": "cache", "at": "no-such-branch"})
        assert "names no commit" in refused
        git(repo, "checkout", "-q", "main")
        labelled = session.ok("recall", {"query": "cache"})
        unmerged = [f for f in labelled["drift"] if f["kind"] == "unmerged"]
        assert [(f["ids"], f["branch"]) for f in unmerged] == [([new], "feature")]
    with closing(sqlite3.connect(data / "memory.db")) as conn:
        marked = dict(conn.execute("SELECT id, everywhere FROM memories"))
    assert marked == {old: 0, new: 0, kept: 1}
