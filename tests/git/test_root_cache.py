"""The root commit kept per checkout: the one pygit2 walks to, found again when HEAD
moves, and for a new repository at the same path its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import git, make_repo

from synapse_git.git import project_scope, root_cache


def _root(data: Path, repo: Path) -> str | None:
    return root_cache.root_commit(data, project_scope.resolve(repo))


def test_the_kept_root_is_the_walked_one_until_the_repository_is_another(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    repo = make_repo(tmp_path / "repo")
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    assert _root(data, repo) == first == project_scope.root_commit(project_scope.resolve(repo))
    assert len(list((data / "roots").iterdir())) == 1
    (repo / "more.txt").write_text("more\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    assert _root(data, repo) == first
    # `rm -rf repo; git init repo`: HEAD names another commit, so the root is walked again.
    shutil.rmtree(repo)
    make_repo(repo, {"other.txt": "other\n"})
    other = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    assert other != first
    assert _root(data, repo) == other


def test_a_kept_root_is_read_without_pygit2(tmp_path: Path) -> None:
    data = tmp_path / "data"
    repo = make_repo(tmp_path / "repo")
    first = _root(data, repo)
    code = (
        "import sys; from pathlib import Path;"
        " from synapse_git.git import project_scope as p, root_cache as r;"
        f" print(r.root_commit(Path({str(data)!r}), p.resolve({str(repo)!r})));"
        " print('pygit2' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [first, "False"]


def test_a_shallow_clone_or_an_unborn_branch_is_walked_every_time(tmp_path: Path) -> None:
    data = tmp_path / "data"
    source = make_repo(tmp_path / "source")
    for n in range(3):
        (source / f"f{n}.txt").write_text(f"{n}\n", encoding="utf-8")
        git(source, "add", "-A")
        git(source, "commit", "-q", "-m", f"c{n}")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{source}", str(shallow))
    head = git(shallow, "rev-parse", "HEAD").strip()
    assert _root(data, shallow) == project_scope.root_commit(project_scope.resolve(shallow))
    assert _root(data, shallow) != head
    unborn = make_repo(tmp_path / "unborn", commit=False)
    assert _root(data, unborn) is None
    assert not (data / "roots").exists()
