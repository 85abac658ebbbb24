"""The lifecycle (docs/store.md) through the service API: remember, duplicates, edit, supersede,
forget, restore, history; what project memories record; project info and move."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support import git

from synapse_git.errors import BadInput, NotFound
from synapse_git.service import Synapse
from synapse_git.store import memories


@pytest.fixture
def svc() -> Synapse:
    return Synapse()


def visible_ids(svc: Synapse, folder: Path) -> list[int]:
    return [m.id for m in svc.list_memories(svc.scope(folder)).memories]


# -- remember and duplicates -------------------------------------------------------


def test_remember_stores_in_the_project_by_default(svc: Synapse, repo: Path) -> None:
    done = svc.remember("Deploys go out from main", svc.scope(repo), source="docs/deploy.md")
    assert done.project == os.path.realpath(repo)
    assert done.duplicate_of is None and done.drift == []
    page = svc.read(done.id, svc.scope(repo))
    assert page is not None
    assert (page.body, page.source, page.project) == (
        "Deploys go out from main",
        "docs/deploy.md",
        done.project,
    )


def test_project_memories_record_the_head_commit_and_branch(svc: Synapse, repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature/login")
    commit = git(repo, "rev-parse", "HEAD").strip()
    here = svc.scope(repo)
    own = svc.remember("login uses OAuth", here).id
    shared = svc.remember("global habit", here, is_global=True).id
    with svc.connection() as conn:
        mine = memories.require(conn, own, here.projects)
        other = memories.require(conn, shared, here.projects)
    assert (mine.head_commit, mine.branch) == (commit, "feature/login")
    assert (other.head_commit, other.branch) == (None, None)


def test_a_detached_head_records_the_commit_without_a_branch(svc: Synapse, repo: Path) -> None:
    commit = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "--detach")
    here = svc.scope(repo)
    with svc.connection() as conn:
        row = memories.require(conn, svc.remember("detached", here).id, here.projects)
    assert (row.head_commit, row.branch) == (commit, None)


@pytest.mark.parametrize(
    "again",
    [
        "use the CAFÉ wifi",  # case
        "  use   the\tcafé\n wifi ",  # whitespace
        "use the cafe\u0301 wifi",  # NFD spelling of the same text
    ],
)
def test_an_exact_duplicate_returns_the_existing_id(svc: Synapse, repo: Path, again: str) -> None:
    here = svc.scope(repo)
    first = svc.remember("Use the café wifi", here)
    second = svc.remember(again, here)
    assert (second.id, second.duplicate_of) == (first.id, first.id)
    assert visible_ids(svc, repo) == [first.id]


def test_near_duplicates_and_other_scopes_are_stored(svc: Synapse, repo: Path) -> None:
    here = svc.scope(repo)
    first = svc.remember("timeout is 30 s", here)
    assert svc.remember("timeout is 60 s", here).duplicate_of is None
    assert svc.remember("timeout is 30 s", here, is_global=True).duplicate_of is None
    svc.forget(first.id, here)
    assert svc.remember("timeout is 30 s", here).duplicate_of is None


def test_outside_git_remember_needs_global(svc: Synapse, outside: Path) -> None:
    there = svc.scope(outside)
    with pytest.raises(BadInput, match="--global"):
        svc.remember("where would this go", there)
    assert svc.remember("global it is", there, is_global=True).project is None


# -- edit, supersede, forget, restore, history ----------------------------------------


def test_edit_keeps_the_previous_version(svc: Synapse, repo: Path) -> None:
    here = svc.scope(repo)
    memory_id = svc.remember("port 8080", here, source="a.md").id
    svc.edit(memory_id, here, body="port 8081")
    edited = svc.edit(memory_id, here, source="b.md")
    assert (edited.body, edited.source, edited.created_at < edited.updated_at) == (
        "port 8081",
        "b.md",
        True,
    )
    found = svc.history(memory_id, here)
    assert [(v.body, v.source, v.change) for v in found.versions] == [
        ("port 8080", "a.md", "edit"),
        ("port 8081", "a.md", "edit"),
    ]
    assert found.memory.body == "port 8081"
    with pytest.raises(BadInput, match="nothing to change"):
        svc.edit(memory_id, here)


def test_supersede_hides_restore_shows_history_has_both_and_the_chain(
    svc: Synapse, repo: Path
) -> None:
    here = svc.scope(repo)
    old = svc.remember("Python 3.11 is the floor", here).id
    new = svc.remember("Python 3.12 is the floor", here, supersedes=old).id
    assert visible_ids(svc, repo) == [new]
    assert svc.read(old, here) is None
    newest = svc.remember("Python 3.13 is the floor", here, supersedes=new).id

    found = svc.history(old, here)
    assert found.memory.state == "superseded" and found.memory.superseded_by == new
    assert [v.body for v in found.versions] == ["Python 3.11 is the floor"]
    assert found.versions[0].change == f"superseded by {new}"
    assert found.chain == [old, new, newest]
    middle = svc.history(new, here)
    assert (middle.supersedes, middle.chain) == ([old], [old, new, newest])

    restored = svc.restore(old, here)
    assert (restored.state, restored.superseded_by) == ("live", None)
    assert set(visible_ids(svc, repo)) == {old, newest}
    page = svc.read(old, here)
    assert page is not None and page.body == "Python 3.11 is the floor"
    assert [v.change for v in svc.history(old, here).versions] == [
        f"superseded by {new}",
        "restored",
    ]


def test_supersede_by_an_existing_memory(svc: Synapse, repo: Path) -> None:
    here = svc.scope(repo)
    old = svc.remember("branch main deploys", here).id
    new = svc.remember("branch release deploys", here).id
    assert svc.supersede(old, new, here).superseded_by == new
    assert visible_ids(svc, repo) == [new]
    with pytest.raises(BadInput, match="cannot supersede itself"):
        svc.supersede(new, new, here)
    with pytest.raises(BadInput, match=f"memory {old} is superseded; `restore {old}` first"):
        svc.supersede(old, new, here)


def test_superseding_with_text_already_stored_points_at_that_memory(
    svc: Synapse, repo: Path
) -> None:
    here = svc.scope(repo)
    old = svc.remember("the cache is memcached", here).id
    current = svc.remember("the cache is redis", here).id
    again = svc.remember("The cache is Redis", here, supersedes=old)
    assert (again.id, again.duplicate_of) == (current, current)
    assert svc.history(old, here).memory.superseded_by == current
    with pytest.raises(BadInput, match="already says exactly this"):
        svc.remember("the cache is redis", here, supersedes=current)


def test_forget_hides_and_restore_brings_back(svc: Synapse, repo: Path) -> None:
    here = svc.scope(repo)
    memory_id = svc.remember("ask before force-pushing", here).id
    assert svc.forget(memory_id, here).state == "forgotten"
    assert visible_ids(svc, repo) == []
    assert svc.read(memory_id, here) is None
    assert svc.history(memory_id, here).memory.state == "forgotten"  # owners still see it
    assert svc.restore(memory_id, here).state == "live"
    assert visible_ids(svc, repo) == [memory_id]
    assert [v.change for v in svc.history(memory_id, here).versions] == ["forgotten", "restored"]


def test_unknown_ids_are_not_found_and_change_nothing(svc: Synapse, repo: Path) -> None:
    here = svc.scope(repo)
    svc.remember("only memory", here)
    for command in (svc.history, svc.forget, svc.restore):
        with pytest.raises(NotFound, match="no memory 404 is visible from here"):
            command(404, here)
    with pytest.raises(NotFound):
        svc.edit(404, here, body="x")
    with pytest.raises(NotFound):
        svc.remember("replacement", here, supersedes=404)
    assert len(visible_ids(svc, repo)) == 1


def test_listing_filters_by_text_ignoring_case_and_bounds_the_output(
    svc: Synapse, repo: Path
) -> None:
    here = svc.scope(repo)
    ids = [svc.remember(f"note {n} about ÉCOLE", here).id for n in range(5)]
    svc.remember("unrelated", here, source="école.md")
    assert svc.list_memories(here, contains="école").total == 6
    limited = svc.list_memories(here, contains="ÉCOLE", limit=2)
    assert limited.total == 6 and len(limited.memories) == 2
    assert [m.id for m in svc.list_memories(here, contains="note").memories] == ids[::-1]


# -- projects ------------------------------------------------------------------------


def test_project_info_counts_by_state(svc: Synapse, repo: Path) -> None:
    here = svc.scope(repo)
    first = svc.remember("one", here).id
    svc.remember("two", here, supersedes=first)
    forgotten = svc.remember("three", here).id
    svc.forget(forgotten, here)
    svc.remember("everywhere", here, is_global=True)
    info = svc.project_info(here)
    assert info.counts == {"live": 1, "superseded": 1, "forgotten": 1}
    assert info.global_counts == {"live": 1, "superseded": 0, "forgotten": 0}
    assert info.moved_from == []


def test_a_moved_repository_is_recognised_and_moved(
    svc: Synapse, repo: Path, tmp_path: Path
) -> None:
    old_key = os.path.realpath(repo)
    memory_id = svc.remember("lives with the repo", svc.scope(repo)).id
    new_place = tmp_path / "elsewhere" / "repo"
    new_place.parent.mkdir()
    shutil.move(repo, new_place)
    here = svc.scope(new_place)
    assert visible_ids(svc, new_place) == []
    assert svc.project_info(here).moved_from == [old_key]
    assert svc.list_memories(here).moved_from == [old_key]

    moved, key = svc.move_project(old_key, str(new_place))
    assert (moved, key) == (1, os.path.realpath(new_place))
    assert visible_ids(svc, new_place) == [memory_id]
    info = svc.project_info(here)
    assert (info.moved_from, info.counts["live"]) == ([], 1)
    with pytest.raises(NotFound, match="no memory belongs to project"):
        svc.move_project(old_key, str(new_place))


def test_an_unrelated_repository_gets_no_move_hint(
    svc: Synapse, repo: Path, tmp_path: Path
) -> None:
    svc.remember("lives with the repo", svc.scope(repo))
    shutil.move(repo, tmp_path / "gone")
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "-b", "main", str(other))
    (other / "f").write_text("different history\n")
    git(other, "add", "f")
    git(other, "commit", "-q", "-m", "unrelated")
    assert svc.project_info(svc.scope(other)).moved_from == []


def test_move_to_a_folder_outside_git_is_bad_input(svc: Synapse, outside: Path) -> None:
    with pytest.raises(BadInput, match="not inside a git repository"):
        svc.move_project("/old/place", str(outside))
