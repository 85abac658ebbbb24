"""`rm -rf repo; git init repo` at the same path: the old project's memories are not
taken over silently; the stored root commit is compared and a note says what to do."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support import git, make_repo, run_cli


def reinit(repo: Path, *, commit: bool) -> None:
    shutil.rmtree(repo)
    make_repo(repo, {"other.txt": "another project\n"}, commit=commit)


def test_a_new_repository_at_the_same_path_is_noted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "old")
    old_root = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    assert (
        run_cli("memory", "remember", "Deploys go through the blue pipeline", cwd=repo).returncode
        == 0
    )
    quiet = run_cli("project", "show", cwd=repo)
    assert quiet.returncode == 0 and "note:" not in quiet.stdout
    reinit(repo, commit=True)
    new_root = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()

    shown = run_cli("project", "show", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert f"first commit is {old_root[:12]}" in shown.stdout
    assert f"this one's is {new_root[:12]}" in shown.stdout
    assert "synapse project move" in shown.stdout
    data = json.loads(run_cli("project", "show", "--json", cwd=repo).stdout)
    assert data["other_history"] == {"stored_root": old_root, "root": new_root}
    listed = run_cli("memory", "list", cwd=repo)
    assert listed.returncode == 0 and "blue pipeline" in listed.stdout
    assert "perhaps a new repository at the same path" in listed.stderr

    # Keeping them here records this repository's root: the note goes away.
    kept = run_cli("project", "move", str(repo), str(repo), cwd=repo)
    assert kept.returncode == 0, kept.stderr
    assert "note:" not in run_cli("project", "show", cwd=repo).stdout
    assert "note:" not in run_cli("memory", "list", cwd=repo).stderr


def test_a_new_repository_without_commits_is_noted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "old")
    assert run_cli("memory", "remember", "The cache is redis", cwd=repo).returncode == 0
    reinit(repo, commit=False)
    shown = run_cli("project", "show", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert "this one has no commit yet" in shown.stdout
