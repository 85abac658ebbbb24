"""`synapse project show | move` as a real process."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from support import git, run_cli

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
        "other_history": None,
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


def _root_row(key: str) -> object:
    with Synapse().connection() as conn:
        row = conn.execute("SELECT root_commit FROM projects WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def _two_histories(repo_factory: Callable[..., Path]) -> tuple[Path, Path, Synapse]:
    """Two repositories with different root commits; A holds one memory."""
    a = repo_factory("a", {"a.txt": "project a\n"})
    b = repo_factory("b", {"b.txt": "project b, another history\n"})
    svc = Synapse()
    svc.remember("project A's own note", svc.scope(a))
    return a, b, svc


def test_move_never_merges_two_live_projects(
    repo_factory: Callable[..., Path], isolated_store: Path
) -> None:
    a, b, svc = _two_histories(repo_factory)
    secret = svc.remember("B's password is hunter2", svc.scope(b)).id
    a_root = _root_row(os.path.realpath(a))
    before = (isolated_store / "memory.db").read_bytes()
    done = run_cli("project", "move", str(b), str(a), cwd=a)
    assert done.returncode == 2 and "never two live projects" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert (isolated_store / "memory.db").read_bytes() == before
    assert svc.read(secret, svc.scope(a)) is None
    assert [m.id for m in svc.list_memories(svc.scope(b)).memories] == [secret]
    assert _root_row(os.path.realpath(a)) == a_root is not None


def test_a_gone_project_moves_without_touching_the_targets_root_row(
    repo_factory: Callable[..., Path],
) -> None:
    a, b, svc = _two_histories(repo_factory)
    note = svc.remember("B's note", svc.scope(b)).id
    a_root, b_key = _root_row(os.path.realpath(a)), os.path.realpath(b)
    shutil.rmtree(b)
    done = run_cli("project", "move", b_key, str(a), cwd=a)
    assert done.returncode == 0, done.stderr
    assert _root_row(os.path.realpath(a)) == a_root
    assert _root_row(b_key) is None
    assert note in [m.id for m in svc.list_memories(svc.scope(a)).memories]


def test_a_live_copy_of_the_same_repository_moves_and_its_snapshot_follows(
    repo_factory: Callable[..., Path], tmp_path: Path
) -> None:
    first = repo_factory("first", {"x.txt": "x\n"})
    copy = tmp_path / "copy"
    git(tmp_path, "clone", "-q", str(first), str(copy))
    svc = Synapse()
    svc.remember("a note the copy carries about deploys", svc.scope(copy))
    seen = run_cli("hook", "session", cwd=copy)
    assert "a note the copy carries" in seen.stdout
    done = run_cli("project", "move", str(copy), str(first), cwd=first)
    assert done.returncode == 0, done.stderr
    after = run_cli("hook", "session", cwd=copy)
    assert after.returncode == 0 and "a note the copy carries" not in after.stdout
    assert "a note the copy carries" in run_cli("hook", "session", cwd=first).stdout
    history = svc.history(svc.list_memories(svc.scope(first)).memories[0].id, svc.scope(first))
    assert history.versions[-1].change == f"moved from {os.path.realpath(copy)}"
