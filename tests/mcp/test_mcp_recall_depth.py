"""An explicit `limit` at the full budget over MCP answers up to that many hits, the
extra ones marked weak (docs/recall.md, "Conversations")."""

from __future__ import annotations

from pathlib import Path

from mcp_harness import mcp_session
from support import make_repo

from synapse_git.service import Synapse
from synapse_git.settings import Config

TURNS = [
    "Alice: I finally adopted a dog last weekend, a beagle called Pepper.",
    "Bob: That's great! I went hiking in the Alps with my sister in May.",
    "Alice: Pepper chews everything, even my running shoes.",
    "Bob: My sister wants a cat, but her landlord says no pets.",
    "Alice: I started a pottery class on Tuesday evenings.",
    "Bob: I am learning to bake sourdough bread at home.",
    "Alice: My brother is moving to Lisbon for a new job.",
    "Bob: The Alps trip was cold; we slept in a mountain hut.",
    "Alice: The pottery teacher says my bowls are lopsided.",
    "Bob: I bought a new bike for commuting to the office.",
    "Alice: I am reading a novel about a lighthouse keeper.",
    "Bob: My sister got engaged to her partner last month.",
]


def test_an_explicit_limit_over_mcp_is_as_deep(tmp_path: Path) -> None:
    data, repo = tmp_path / "data", make_repo(tmp_path / "repo")
    svc = Synapse(Config(data_dir=data))
    for body in TURNS:
        svc.remember(body, svc.scope(repo), is_global=True)
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        asked = {"query": "when did Alice adopt her dog", "budget": "full"}
        plain = session.ok("recall", asked)["hits"]
        deep = session.ok("recall", {**asked, "limit": 6})["hits"]
        balanced = session.ok("recall", {**asked, "budget": "balanced", "limit": 6})["hits"]
    assert len(plain) < 6 and len(deep) == 6 and len(balanced) == len(plain)
    assert [hit["id"] for hit in deep[: len(plain)]] == [hit["id"] for hit in plain]
    assert all(hit.get("weak") for hit in deep[len(plain) :])
