"""`synapse project show | move` as a real process."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path

from conftest import git, run_cli

from synapse_git.service import Synapse


def test_show_prints_key_checkout_main_worktree_and_counts(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    svc.remember("one", svc.scope(repo))
    svc.remember("everywhere", svc.scope(repo), is_global=True)
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "topic", str(linked))
    done = run_cli("project", "show", "--json", cwd=linked)
    assert done.returncode == 0, done.stderr
    key = os.path.realpath(repo)
    assert json.loads(done.stdout) == {
        "folder": os.path.realpath(linked),
        "project": key,
        "checkout": os.path.realpath(linked),
        "main_worktree": key,
        "note": None,
        "memories": {"live": 1, "superseded": 0, "forgotten": 0},
        "global": {"live": 1, "superseded": 0, "forgotten": 0},
        "moved_from": [],
    }
    text = run_cli("project", "show", str(linked))
    assert text.stdout.splitlines() == [
        f"project        {key}",
        f"checkout       {os.path.realpath(linked)}",
        f"main worktree  {key}",
        "memories       1 live, 0 superseded, 0 forgotten",
        "global         1 live, 0 superseded, 0 forgotten",
    ]


def test_show_outside_git_says_so(outside: Path) -> None:
    done = run_cli("project", "show", cwd=outside)
    assert done.returncode == 0
    assert done.stdout.startswith(f"no project: {os.path.realpath(outside)} is not inside a git")


def test_a_moved_repository_gets_a_hint_and_move_rekeys_it(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    memory_id = svc.remember("travels with the repo", svc.scope(repo)).id
    old = os.path.realpath(repo)
    new = tmp_path / "new-home"
    shutil.move(repo, new)
    shown = run_cli("project", "show", cwd=new)
    assert shown.returncode == 0
    hint = shown.stdout.splitlines()[-1]
    assert hint == (
        f"hint: {old} no longer exists and has this repository's root commit; "
        f"run: {shlex.join(['synapse', 'project', 'move', old, os.path.realpath(new)])}"
    )
    listed = run_cli("memory", "list", cwd=new)
    assert (listed.stdout, listed.stderr) == ("no memories yet\n", hint + "\n")
    moved = run_cli("project", "move", old, str(new), "--json")
    assert moved.returncode == 0, moved.stderr
    assert json.loads(moved.stdout) == {"moved": 1, "project": os.path.realpath(new)}
    assert [m.id for m in svc.list_memories(svc.scope(new)).memories] == [memory_id]
    again = run_cli("project", "move", old, str(new))
    assert again.returncode == 2
    assert again.stderr == f"synapse: no memory belongs to project {old}\n"
