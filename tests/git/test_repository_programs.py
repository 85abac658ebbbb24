"""A repository's own configuration names programs git would run (core.fsmonitor on
every read of the index): Synapse, which only reads, runs none of them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support import git, make_repo, run_cli

from synapse_git.git import git_command

READING = [
    ("status",),
    ("memory", "list"),
    ("memory", "drift"),
    ("memory", "drift", "--json"),
    ("memory", "blame", "src/app.py"),
    ("memory", "show", "1"),
    ("hook", "session"),
    ("hook", "pre-commit"),
    ("hook", "post-checkout", "HEAD~1", "HEAD", "1"),
    ("ci", "check", "--base", "HEAD~1"),
]


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    repo = make_repo(
        tmp_path / "repo", {"README.md": "r\n", "src/app.py": "a\n", "src/gone.py": "b\n"}
    )
    done = run_cli("memory", "remember", "src/app.py and src/gone.py serve deploys", cwd=repo)
    assert done.returncode == 0, done.stderr
    git(repo, "rm", "-q", "src/gone.py")
    git(repo, "commit", "-q", "-m", "drop gone")
    marker = tmp_path / "ran"
    program = tmp_path / "monitor.sh"
    program.write_text(f"#!/bin/sh\necho \"$@\" >> '{marker}'\n", encoding="utf-8")
    program.chmod(0o755)
    git(repo, "config", "core.fsmonitor", str(program))
    # A staged deletion, so the commit check reads the index too.
    git(repo, "-c", "core.fsmonitor=false", "rm", "-q", "--cached", "src/app.py")
    return repo, marker


@pytest.mark.parametrize("args", READING, ids=" ".join)
def test_reading_commands_run_no_program_the_repository_names(
    planted: tuple[Path, Path], args: tuple[str, ...]
) -> None:
    repo, marker = planted
    done = run_cli(*args, cwd=repo, process=True)
    assert done.returncode in (0, 1), done.stderr
    assert not marker.exists(), f"core.fsmonitor ran for {args}: {marker.read_text()}"


def test_the_staged_changes_are_read_without_the_repositorys_monitor(
    planted: tuple[Path, Path],
) -> None:
    repo, marker = planted
    os.utime(repo / "src" / "app.py")  # a file newer than the index, as git asks about
    assert [c.path for c in git_command.staged_changes(repo)] == ["src/app.py"]
    assert [c.path for c in git_command.StagedChanges(repo).result()] == ["src/app.py"]
    assert git_command.tracked_files(repo) == ["README.md"]
    assert not marker.exists()
