"""The merge check: a merge git concludes by itself runs pre-merge-commit, not pre-commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import git, make_repo, run_cli, run_git


def remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", body, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


@pytest.fixture
def diverged(tmp_path: Path) -> Path:
    """`side` deletes scripts/deploy.sh; main moves on elsewhere, so the merge is clean."""
    repo = make_repo(
        tmp_path / "repo", {"scripts/deploy.sh": "echo deploy\n", "src/app.py": "print()\n"}
    )
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    main = git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "rm", "-q", "scripts/deploy.sh")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop the deploy script")
    git(repo, "checkout", "-q", main)
    (repo / "src" / "app.py").write_text("print('main')\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "main moves on")
    return repo


def test_a_clean_merge_deleting_a_named_path_is_blocked(diverged: Path) -> None:
    memory = remember(diverged, "Deploys go out with scripts/deploy.sh")
    head = git(diverged, "rev-parse", "HEAD")
    merged = run_git(diverged, "merge", "-m", "merge side", "side")
    assert merged.returncode != 0, merged.stdout + merged.stderr
    assert "scripts/deploy.sh is deleted" in merged.stdout
    assert f"synapse memory forget {memory}" in merged.stdout
    assert git(diverged, "rev-parse", "HEAD") == head, "no merge commit was made"
    # Settled, the merge is concluded as git says: with `git commit`.
    assert run_cli("memory", "forget", str(memory), cwd=diverged).returncode == 0
    concluded = run_git(diverged, "commit", "--no-edit")
    assert concluded.returncode == 0, concluded.stdout + concluded.stderr
    assert not (diverged / "scripts" / "deploy.sh").exists()


def test_a_clean_merge_touching_no_named_path_goes_through(diverged: Path) -> None:
    remember(diverged, "The entry point is src/app.py")
    merged = run_git(diverged, "merge", "-m", "merge side", "side")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert len(git(diverged, "log", "-1", "--format=%P").split()) == 2
