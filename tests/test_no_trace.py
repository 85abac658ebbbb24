"""The test suite leaves no trace in the user's home: the README's test command,
run with a fresh HOME, leaves that HOME as it found it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A subset that reaches what once wrote there: the long-write lock beside the real
# store, and the tools the pre-commit tests start (pre-commit, virtualenv, pip), here
# through the pre-commit test that builds its hook environment once rather than twice.
SUBSET = (
    "tests/test_conftest.py",
    "tests/hooks/test_precommit_framework.py::test_try_repo_runs_the_ci_check_between_two_refs",
    # Collected with onnxruntime imported, whose telemetry writes under ~/.cache.
    "tests/semantic/test_vector_matrix.py",
)
# What CI services set, which onnxruntime reads as "do not collect": a developer's
# machine has none of them, and the run must leave no trace there either.
CI_NAMES = ("CI", "GITHUB_ACTIONS", "TF_BUILD", "GITLAB_CI", "JENKINS_URL", "BUILDKITE")
# What tells tools where a user's files are: a fresh user has none of them set.
USER_PLACES = (
    "SYNAPSE_DATA",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "PRE_COMMIT_HOME",
    "VIRTUALENV_OVERRIDE_APP_DATA",
    "PIP_CACHE_DIR",
)


def tree(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.mark.slow
def test_the_suite_leaves_a_fresh_home_unchanged(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    before = tree(home)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in USER_PLACES and key not in CI_NAMES and not key.startswith("ORT_")
    }
    env["HOME"] = str(home)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(tmp_path / "run"),
            *SUBSET,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert tree(home) == before
