"""MCP `remember` with `share: true`: the memory goes into the team file, what sharing
warns about reaches the model, and a secret-shaped memory is refused whole."""

from __future__ import annotations

import os
from pathlib import Path

from mcp_harness import mcp_session
from support import make_repo

TEAM_FILE = ".synapse/memories.jsonl"


def test_remember_with_share_writes_the_team_file_and_refuses_a_secret(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    data = tmp_path / "data"
    home = os.environ["HOME"].rstrip("/")
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        shared = session.ok("remember", {"body": "The build uses Bazel 7.", "share": True})
        assert "warnings" not in shared
        homely = session.ok(
            "remember", {"body": f"Bazel caches sit in {home}/.cache/bazel.", "share": True}
        )
        assert "home folder" in homely["warnings"][0]
        refused = session.error("remember", {"body": f"The bot token is {token}.", "share": True})
        assert "GitHub token" in refused
        listed = session.ok("recall", {"query": "bot token"})
    lines = (repo / TEAM_FILE).read_text("utf-8").splitlines()
    assert len(lines) == 2 and "Bazel 7" in "".join(lines)
    assert token not in "".join(lines)
    assert not listed["hits"]


def test_remember_and_supersede_over_mcp_keep_to_the_worktree_and_check_secrets(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "repo")
    other = tmp_path / "other.jsonl"
    other.write_text("")
    data = tmp_path / "data"
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        shared = session.ok("remember", {"body": "The build uses Bazel 7.", "share": True})
        before = (repo / TEAM_FILE).read_bytes()
        refused = session.error("supersede", {"id": shared["id"], "body": f"Token {token}."})
        assert "GitHub token" in refused
        assert (repo / TEAM_FILE).read_bytes() == before
        (repo / TEAM_FILE).unlink()
        (repo / TEAM_FILE).symlink_to(other)
        linked = session.error("remember", {"body": "The cache is remote.", "share": True})
        assert "symlink" in linked and "\n" not in linked.strip()
        assert not session.ok("recall", {"query": "cache remote"})["hits"]
    assert other.read_text() == ""
