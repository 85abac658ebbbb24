"""Over MCP too, an agent in one project cannot hide a global memory from every
other project by superseding it with a project memory."""

from __future__ import annotations

from pathlib import Path

from mcp_harness import mcp_session
from support import make_repo

from synapse_git.service import Synapse


def test_an_agent_cannot_supersede_a_global_memory_with_a_project_one(
    tmp_path: Path, isolated_store: Path
) -> None:
    repo, other = make_repo(tmp_path / "a"), make_repo(tmp_path / "b", {"b.txt": "b\n"})
    svc = Synapse()
    shared = svc.remember("the user prefers tabs", svc.scope(repo), is_global=True).id
    with mcp_session(isolated_store, cwd=tmp_path, args=["--project", str(repo)]) as session:
        own = session.ok("remember", {"body": "this repository uses spaces"})["id"]
        before = svc.list_memories(svc.scope(repo)).total
        said = session.error("supersede", {"id": shared, "by": own})
        assert f"memory {shared} is global" in said
        said = session.error("remember", {"body": "spaces here", "supersedes": shared})
        assert f"memory {shared} is global" in said
        assert svc.list_memories(svc.scope(repo)).total == before
    assert svc.history(shared, svc.scope(other)).memory.state == "live"
    assert shared in [m.id for m in svc.list_memories(svc.scope(other)).memories]
