"""The conflict tests' steps through the real command: remember a note in a
repository, and the pairs of memory ids `synapse memory drift` says contradict."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_cli


def remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", "--json", "--", body, cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def conflict_pairs(repo: Path) -> set[tuple[int, ...]]:
    """The ids of each conflict the drift check finds in `repo`, as it orders them."""
    done = run_cli("memory", "drift", "--json", "--kind", "conflict", cwd=repo)
    return {tuple(f["ids"]) for f in json.loads(done.stdout)["findings"]}
