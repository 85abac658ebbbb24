"""A repository whose own files (packed-refs, HEAD, config, commondir, index, shallow)
are a FIFO: git and libgit2 open them with a waiting open(2), so every command and
hook would wait for ever. Synapse refuses such a repository in one line before either
is asked; a hook says so and lets git (or the agent) go on. A link to a device there:
tests/git/test_odd_git_files.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support import git, make_repo, run_unwaited

HOOK_RUNS = (
    ["synapse", "hook", "session"],
    ["synapse", "hook", "prompt"],
    ["synapse-drift-hook"],
    ["synapse", "hook", "post-checkout", "0" * 40, "0" * 40, "1"],
)


def hostile(tmp_path: Path, name: str) -> Path:
    repo = make_repo(tmp_path / "repo")
    git(repo, "pack-refs", "--all")  # the branch's tip now in packed-refs alone
    # A store to read, so the prompt hook goes as far as asking git for the project.
    assert (
        run_unwaited(["synapse", "memory", "remember", "We deploy on Tuesdays"], repo).returncode
        == 0
    )
    target = repo / ".git" / name
    if target.exists():
        target.unlink()
    os.mkfifo(target)
    return repo


@pytest.mark.parametrize(
    "name",
    ["packed-refs", "HEAD", "config", "commondir", "index", "shallow", "objects/info/alternates"],
)
def test_a_command_refuses_the_repository_in_one_line(tmp_path: Path, name: str) -> None:
    repo = hostile(tmp_path, name)
    for command in (["synapse", "memory", "recall", "deploy"], ["synapse", "memory", "list"]):
        done = run_unwaited(command, repo)
        assert done.returncode == 2, done.stdout
        said = done.stderr.splitlines()
        assert len(said) == 1 and f"its {name} is not a regular file" in said[0], said


@pytest.mark.parametrize("name", ["packed-refs", "HEAD", "config", "index"])
def test_a_hook_says_one_line_and_passes(tmp_path: Path, name: str) -> None:
    # git itself waits on these files (`git commit`, `git checkout` never reach their
    # hooks); an agent's hooks run without git first, and must not hold the agent.
    repo = hostile(tmp_path, name)
    for command in HOOK_RUNS:
        done = run_unwaited(command, repo, '{"prompt": "how do we deploy", "session_id": "s"}')
        assert done.returncode == 0, (command, done.stderr)
        said = done.stderr.splitlines()
        assert len(said) == 1 and f"its {name} is not a regular file" in said[0], (command, said)
