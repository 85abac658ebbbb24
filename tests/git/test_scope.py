"""Scope (docs/store.md): the project of a folder is its repository's main worktree; a folder
sees global memory plus its own project's, nothing else."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from support import git, run_cli

from synapse_git.errors import BadInput, NotFound
from synapse_git.git import project_scope
from synapse_git.service import Synapse
from synapse_git.store import database, memories


def test_any_folder_inside_a_repository_resolves_to_its_root(repo: Path) -> None:
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    found = project_scope.resolve(deep)
    assert found.project == os.path.realpath(repo)
    assert found.checkout == found.main_worktree == Path(os.path.realpath(repo))
    assert found.folder == Path(os.path.realpath(deep))
    assert found.note is None


def test_the_key_is_the_realpath_of_the_repository(repo: Path, tmp_path: Path) -> None:
    link = tmp_path / "link-to-repo"
    link.symlink_to(repo)
    assert (
        project_scope.resolve(link).project
        == project_scope.resolve(repo).project
        == os.path.realpath(repo)
    )


def test_a_linked_worktree_shares_the_main_worktrees_project(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(linked))
    found = project_scope.resolve(linked / ".")
    assert found.project == os.path.realpath(repo)
    assert found.main_worktree == Path(os.path.realpath(repo))
    assert found.checkout == Path(os.path.realpath(linked))
    assert project_scope.head(found).branch == "feature"


def test_a_folder_outside_git_has_no_project(outside: Path) -> None:
    found = project_scope.resolve(outside)
    assert found.project is None and found.projects == ()
    assert found.note is not None and "not inside a git repository" in found.note


def test_a_bare_repository_has_no_project(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    found = project_scope.resolve(bare)
    assert found.project is None
    assert found.note is not None and "bare repository" in found.note


def test_a_missing_folder_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="is not a folder"):
        project_scope.resolve(tmp_path / "nowhere")


def test_head_before_the_first_commit_has_a_branch_but_no_commit(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    git(tmp_path, "init", "-q", "-b", "trunk", str(fresh))
    found = project_scope.resolve(fresh)
    assert project_scope.head(found) == project_scope.Head(None, "trunk")
    assert project_scope.root_commit(found) is None


def test_root_commit_is_the_first_commit(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    (repo / "more.txt").write_text("more\n")
    git(repo, "add", "more.txt")
    git(repo, "commit", "-q", "-m", "more")
    assert project_scope.root_commit(project_scope.resolve(repo)) == first


# -- isolation -----------------------------------------------------------------


@pytest.fixture
def two_projects(repo_factory: Callable[..., Path]) -> tuple[Path, Path, int, int]:
    """Projects A and B, each with one memory, and one global memory."""
    a, b = repo_factory("a"), repo_factory("b")
    svc = Synapse()
    secret = svc.remember("project A's secret handshake", svc.scope(a)).id
    svc.remember("project B's own note", svc.scope(b))
    shared = svc.remember("a global habit", svc.scope(a), is_global=True).id
    return a, b, secret, shared


@pytest.mark.parametrize("where", ["other project", "outside git"])
def test_another_projects_memory_is_invisible(
    two_projects: tuple[Path, Path, int, int], outside: Path, where: str
) -> None:
    _a, b, secret, shared = two_projects
    svc = Synapse()
    there = svc.scope(b if where == "other project" else outside)
    listed = svc.list_memories(there)
    assert secret not in [m.id for m in listed.memories]
    assert shared in [m.id for m in listed.memories]
    assert listed.total == (2 if where == "other project" else 1)
    assert svc.list_memories(there, contains="handshake").total == 0
    assert svc.read(secret, there) is None
    for owner_command in (svc.history, svc.forget, svc.restore):
        with pytest.raises(NotFound, match=f"no memory {secret} is visible from here"):
            owner_command(secret, there)
    with pytest.raises(NotFound):
        svc.edit(secret, there, body="overwritten")
    with pytest.raises(NotFound):
        svc.remember("a correction", there, is_global=True, supersedes=secret)
    assert svc.read(secret, svc.scope(two_projects[0])) is not None


def test_a_linked_worktree_sees_its_projects_memory(
    two_projects: tuple[Path, Path, int, int], tmp_path: Path
) -> None:
    a, _b, secret, shared = two_projects
    linked = tmp_path / "a-linked"
    git(a, "worktree", "add", "-q", "-b", "topic", str(linked))
    svc = Synapse()
    there = svc.scope(linked)
    assert {m.id for m in svc.list_memories(there).memories} == {secret, shared}
    page = svc.read(secret, there)
    assert page is not None and page.body == "project A's secret handshake"
    # What a linked worktree remembers belongs to the same project.
    added = svc.remember("written from the linked worktree", there)
    assert added.project == os.path.realpath(a)
    assert svc.read(added.id, svc.scope(a)) is not None


def test_a_bare_repository_sees_global_memory_only(
    two_projects: tuple[Path, Path, int, int], tmp_path: Path
) -> None:
    a, _b, _secret, shared = two_projects
    bare = tmp_path / "a.git"
    git(tmp_path, "clone", "-q", "--bare", str(a), str(bare))
    svc = Synapse()
    there = svc.scope(bare)
    assert [m.id for m in svc.list_memories(there).memories] == [shared]
    with pytest.raises(BadInput, match=r"bare repository.*--global"):
        svc.remember("cannot go to a project", there)


def test_cli_isolation_and_the_outside_note_said_once(
    two_projects: tuple[Path, Path, int, int], outside: Path
) -> None:
    _a, b, secret, _shared = two_projects
    from_b = run_cli("memory", "read", str(secret), "--json", cwd=b)
    assert (from_b.returncode, from_b.stdout.strip()) == (0, '{"memory": null}')
    listed = run_cli("memory", "list", cwd=outside)
    assert listed.returncode == 0
    assert "handshake" not in listed.stdout and "a global habit" in listed.stdout
    assert listed.stderr.count("only global memory is visible") == 1
    assert listed.stderr.count("\n") == 1
    refused = run_cli("memory", "list", "--since", "someday", cwd=outside)
    assert refused.returncode == 2
    # A filter refused is its one line of error, with no note about the scope before it.
    assert refused.stderr.count("\n") == 1 and "only global" not in refused.stderr


def test_history_elsewhere_does_not_name_a_replacement_from_another_project(
    two_projects: tuple[Path, Path, int, int],
) -> None:
    a, b, _secret, shared = two_projects
    svc = Synapse()
    # Stores written before a project memory was refused as a global one's replacement.
    replacement = svc.remember("a project-specific habit", svc.scope(a)).id
    with svc.connection() as conn, database.transaction(conn):
        old = memories.require(conn, shared, [])
        memories.set_state(conn, old, "superseded", replacement, f"superseded by {replacement}")
    from_a = svc.history(shared, svc.scope(a))
    assert (from_a.memory.superseded_by, from_a.chain) == (replacement, [shared, replacement])
    from_b = svc.history(shared, svc.scope(b))
    assert from_b.memory.state == "superseded"
    assert from_b.memory.superseded_by is None and from_b.chain == [shared]
    assert [(v.superseded_by, v.change) for v in from_b.versions] == [(None, "superseded")]


def test_a_project_memory_cannot_supersede_a_global_one(
    two_projects: tuple[Path, Path, int, int], isolated_store: Path
) -> None:
    a, b, _secret, shared = two_projects
    svc = Synapse()
    own = svc.remember("a project-specific habit", svc.scope(a)).id
    before = (isolated_store / "memory.db").read_bytes()
    with pytest.raises(BadInput, match=f"memory {shared} is global"):
        svc.remember("a project correction", svc.scope(a), supersedes=shared)
    with pytest.raises(BadInput, match=f"memory {shared} is global"):
        svc.supersede(shared, own, svc.scope(a))
    done = run_cli("memory", "remember", "yet another", "--supersedes", str(shared), cwd=a)
    assert done.returncode == 2 and "is global" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    done = run_cli("memory", "supersede", str(shared), "--by", str(own), cwd=a)
    assert done.returncode == 2 and "is global" in done.stderr
    assert (isolated_store / "memory.db").read_bytes() == before
    # What project B sees is untouched; a global correction stays possible.
    assert shared in [m.id for m in svc.list_memories(svc.scope(b)).memories]
    fixed = svc.remember("a better habit", svc.scope(a), is_global=True, supersedes=shared).id
    assert [m.id for m in svc.list_memories(svc.scope(b)).memories if m.project is None] == [fixed]
