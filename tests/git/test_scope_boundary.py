"""Scope is a security boundary: no crafted id, path, symlink, nesting or worktree makes one
project's memory visible from another."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support import git, make_repo, run_cli

from synapse_git.errors import BadInput, NotFound
from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse

SECRET = "alpha secret: the staging password lives in vault/alpha"


def assert_sealed(svc: Synapse, here: Scope, secret_id: int) -> None:
    """Nothing about memory `secret_id` (another project's) is reachable from `here`."""
    assert svc.read(secret_id, here) is None
    assert svc.read(secret_id, here, project=os.path.realpath("/"), check_project=True) is None
    listing = svc.list_memories(here)
    assert secret_id not in {m.id for m in listing.memories}
    assert svc.list_memories(here, contains="staging password").total == 0
    for call in (svc.forget, svc.restore, svc.history):
        with pytest.raises(NotFound):
            call(secret_id, here)
    with pytest.raises(NotFound):
        svc.edit(secret_id, here, body="overwritten from elsewhere")
    with pytest.raises(NotFound):
        svc.remember("a correction", here, supersedes=secret_id, is_global=here.project is None)
    own = svc.remember(f"own memory {here.folder}", here, is_global=here.project is None)
    for old, new in ((secret_id, own.id), (own.id, secret_id)):
        with pytest.raises(NotFound):
            svc.supersede(old, new, here)
    recall = getattr(svc, "recall", None)
    if recall is not None:
        result = recall("staging password vault alpha", here)
        hits = result.as_json()["hits"] if hasattr(result, "as_json") else result["hits"]
        assert secret_id not in {hit["id"] for hit in hits}
    # And the memory itself is untouched, live, in its own project.
    with svc.connection() as conn:
        row = conn.execute("SELECT body, state FROM memories WHERE id = ?", (secret_id,)).fetchone()
    assert tuple(row) == (SECRET, "live")


@pytest.fixture
def alpha(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "alpha")


@pytest.fixture
def secret(alpha: Path) -> int:
    svc = Synapse()
    return svc.remember(SECRET, svc.scope(alpha)).id


def test_crafted_ids_reach_nothing_from_another_project(
    tmp_path: Path, alpha: Path, secret: int
) -> None:
    beta = make_repo(tmp_path / "beta")
    svc = Synapse()
    assert_sealed(svc, svc.scope(beta), secret)
    for crafted in (0, -1, -secret, 2**63 - 1, 2**63, -(2**63) - 1, 10**30):
        assert svc.read(crafted, svc.scope(beta)) is None
        with pytest.raises(NotFound):
            svc.forget(crafted, svc.scope(beta))


@pytest.mark.parametrize("crafted", ["1", "99999999999999999999999", "-1", "0x1"])
def test_crafted_ids_on_the_command_line(
    tmp_path: Path, alpha: Path, secret: int, crafted: str
) -> None:
    beta = make_repo(tmp_path / "beta")
    read = run_cli("memory", "read", "--json", "--", crafted, cwd=beta)
    assert "Traceback" not in read.stderr and "internal error" not in read.stderr
    assert SECRET not in read.stdout
    if read.returncode == 0:
        assert json.loads(read.stdout) == {"memory": None}
    forget = run_cli("memory", "forget", "--", crafted, cwd=beta)
    assert forget.returncode == 2 and "Traceback" not in forget.stderr
    assert Synapse().read(secret, Synapse().scope(alpha)) is not None


def test_paths_with_dot_dot_resolve_to_where_they_lead(
    tmp_path: Path, alpha: Path, secret: int
) -> None:
    beta = make_repo(tmp_path / "beta")
    (beta / "sub").mkdir()
    svc = Synapse()
    # beta/sub/../.. /beta names beta, whatever the spelling; it never reaches alpha.
    crafted = beta / "sub" / ".." / ".." / "beta" / "sub" / ".."
    here = svc.scope(crafted)
    assert here.project == os.path.realpath(beta)
    assert_sealed(svc, here, secret)
    listed = run_cli("memory", "list", "--json", "-C", str(crafted), cwd=tmp_path)
    assert SECRET not in listed.stdout
    # An explicit project argument spelled with `..` does not unlock another project.
    page = svc.read(secret, here, project=f"{beta}/../alpha", check_project=True)
    assert page is None
    page = svc.read(secret, here, project=str(alpha), check_project=True)
    assert page is None


def test_an_imported_project_path_with_dot_dot_is_normalized(tmp_path: Path) -> None:
    svc = Synapse()
    line = json.dumps(
        {"body": "for a repository not cloned yet", "project": f"{tmp_path}/x/../gone"}
    )
    svc.import_lines([line])
    with svc.connection() as conn:
        (key,) = conn.execute("SELECT project FROM memories").fetchone()
    assert key == os.path.realpath(tmp_path / "gone")


def test_a_symlink_into_another_repository_is_that_repository_not_this_one(
    tmp_path: Path, alpha: Path, secret: int
) -> None:
    beta = make_repo(tmp_path / "beta")
    (beta / "vendor-alpha").symlink_to(alpha, target_is_directory=True)
    (tmp_path / "beta-link").symlink_to(beta, target_is_directory=True)
    svc = Synapse()
    # Standing in beta, or in beta through a symlink, alpha stays sealed.
    assert_sealed(svc, svc.scope(beta), secret)
    assert_sealed(svc, svc.scope(tmp_path / "beta-link"), secret)
    # The symlink's target is alpha's own checkout: that is alpha, not beta.
    assert svc.scope(beta / "vendor-alpha").project == os.path.realpath(alpha)
    beta_id = svc.remember("beta only", svc.scope(beta)).id
    assert svc.read(beta_id, svc.scope(beta / "vendor-alpha")) is None


def test_a_repository_inside_another_is_its_own_project(tmp_path: Path) -> None:
    outer = make_repo(tmp_path / "outer")
    inner = make_repo(outer / "libs" / "inner")
    svc = Synapse()
    inner_id = svc.remember("inner secret", svc.scope(inner)).id
    outer_id = svc.remember("outer secret", svc.scope(outer)).id
    assert svc.scope(inner / ".").project == os.path.realpath(inner)
    assert_sealed_pair(svc, svc.scope(outer), inner_id)
    assert_sealed_pair(svc, svc.scope(outer / "libs"), inner_id)
    assert_sealed_pair(svc, svc.scope(inner), outer_id)
    deep = inner / "src"
    deep.mkdir()
    assert_sealed_pair(svc, svc.scope(deep), outer_id)


def assert_sealed_pair(svc: Synapse, here: Scope, other_id: int) -> None:
    assert svc.read(other_id, here) is None
    assert other_id not in {m.id for m in svc.list_memories(here).memories}
    with pytest.raises(NotFound):
        svc.history(other_id, here)


def test_a_worktree_of_another_repository_sees_only_that_repository(
    tmp_path: Path, alpha: Path, secret: int
) -> None:
    beta = make_repo(tmp_path / "beta")
    svc = Synapse()
    beta_id = svc.remember("beta secret", svc.scope(beta)).id
    # alpha's linked worktree placed inside beta's folder: it belongs to alpha.
    inside_beta = beta / "alpha-wt"
    git(alpha, "worktree", "add", "-q", "-b", "wt", str(inside_beta))
    wt = svc.scope(inside_beta)
    assert wt.project == os.path.realpath(alpha)
    assert svc.read(secret, wt) is not None
    assert_sealed_pair(svc, wt, beta_id)
    # beta, around it, still cannot see alpha.
    assert_sealed(svc, svc.scope(beta), secret)
    # A worktree of beta elsewhere sees beta's memory and never alpha's.
    beta_wt = tmp_path / "beta-wt"
    git(beta, "worktree", "add", "-q", "-b", "other", str(beta_wt))
    assert svc.read(beta_id, svc.scope(beta_wt)) is not None
    assert_sealed(svc, svc.scope(beta_wt), secret)


def test_project_keys_that_share_a_prefix_stay_apart(tmp_path: Path) -> None:
    svc = Synapse()
    app = make_repo(tmp_path / "app")
    app2 = make_repo(tmp_path / "app2")
    odd = make_repo(tmp_path / "a%_p")
    ids = {
        folder: svc.remember(f"memory of {folder.name}", svc.scope(folder)).id
        for folder in (app, app2, odd)
    }
    for folder, own in ids.items():
        here = svc.scope(folder)
        assert {m.id for m in svc.list_memories(here).memories} == {own}


def test_outside_git_and_bare_repositories_see_global_only(
    tmp_path: Path, alpha: Path, secret: int, outside: Path
) -> None:
    svc = Synapse()
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(alpha), str(bare))
    for folder in (outside, bare):
        here = svc.scope(folder)
        assert here.projects == ()
        assert_sealed(svc, here, secret)


def test_a_folder_that_is_not_there_is_bad_input_not_another_scope(tmp_path: Path) -> None:
    with pytest.raises(BadInput):
        Synapse().scope(tmp_path / "alpha" / ".." / "missing")
