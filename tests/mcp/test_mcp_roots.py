"""The server's scope follows the client's MCP roots (both protocol eras), else --project,
else its working folder; it never shows another project's memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_harness import Session, mcp_session
from support import make_repo

from synapse_git.service import Synapse

# The SDK marks roots deprecated as of the 2026-07-28 protocol; clients still offer them.
pytestmark = pytest.mark.filterwarnings("ignore:The roots capability is deprecated")


def remember_in(folder: Path, body: str, *, is_global: bool = False) -> int:
    svc = Synapse()
    return svc.remember(body, svc.scope(folder), is_global=is_global).id


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_roots_choose_the_project_and_a_roots_change_is_honoured(
    tmp_path: Path, isolated_store: Path, mode: str
) -> None:
    data = isolated_store
    alpha = make_repo(tmp_path / "alpha")
    beta = make_repo(tmp_path / "beta")
    plain = tmp_path / "plain"
    plain.mkdir()
    ids = {
        "alpha": remember_in(alpha, "Alpha builds with make."),
        "beta": remember_in(beta, "Beta builds with cargo."),
        "global": remember_in(plain, "The user reads diffs side by side.", is_global=True),
    }
    key = {"alpha": str(alpha.resolve()), "beta": str(beta.resolve()), "global": None}

    def visible(session: Session) -> set[str]:
        """Which of the three memories recall returns; readmemory must agree."""
        found = session.ok("recall", {"query": "builds with make cargo diffs", "budget": "full"})
        returned = {hit["id"] for hit in found["hits"]}
        seen = {name for name, memory_id in ids.items() if memory_id in returned}
        newest = session.ok("recall", {"query": ""})
        assert {hit["project"] for hit in newest["hits"]} <= {found["project"], None}
        # Asked with the right project, so only scope can hide a memory from readmemory.
        readable = {
            name
            for name, memory_id in ids.items()
            if session.ok("readmemory", {"id": memory_id, "project": key[name]})["memory"]
        }
        assert readable == seen
        return seen

    # The server stands in beta, but the client's root is alpha: alpha wins.
    with mcp_session(data, cwd=beta, roots=[plain, alpha], mode=mode) as session:
        assert visible(session) == {"alpha", "global"}
        made = session.ok("remember", {"body": "Alpha's CI is on Fridays."})
        assert made["project"] == key["alpha"]

        # Another project's memory cannot be changed from here either.
        assert "no memory" in session.error("forget", {"id": ids["beta"]})
        assert "no memory" in session.error("supersede", {"id": ids["beta"], "body": "x"})

        session.set_roots([beta])
        assert visible(session) == {"beta", "global"}
        made = session.ok("remember", {"body": "Beta's CI is on Mondays."})
        assert made["project"] == key["beta"]

        # No root inside git: the server's own folder (beta) decides.
        session.set_roots([plain])
        assert visible(session) == {"beta", "global"}


def test_outside_git_only_global_memory_is_served(tmp_path: Path, isolated_store: Path) -> None:
    # The client also fails to list its roots: the server falls back to its own folder.
    alpha = make_repo(tmp_path / "alpha")
    hidden = remember_in(alpha, "Alpha builds with make.")
    plain = tmp_path / "plain"
    plain.mkdir()
    with mcp_session(isolated_store, cwd=plain, roots_fail=True, mode="legacy") as session:
        message = session.error("remember", {"body": "Project fact."})
        assert "not inside a git repository" in message and 'scope "global"' in message
        made = session.ok("remember", {"body": "Global fact.", "scope": "global"})
        assert made["project"] is None
        found = session.ok("recall", {"query": ""})
        assert found["project"] is None
        assert [hit["id"] for hit in found["hits"]] == [made["id"]]
        assert session.ok("readmemory", {"id": hidden, "project": str(alpha.resolve())}) == {
            "memory": None
        }
