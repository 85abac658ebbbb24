"""The scope of an ordinary checkout is found without pygit2; it must be exactly the scope
libgit2's discovery gives, and anything less ordinary must still be left to libgit2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support import git, make_repo

from synapse_git.git import project_scope


def _both(folder: Path) -> tuple[project_scope.Scope, project_scope.Scope]:
    return project_scope.resolve(folder), project_scope._discovered(
        Path(project_scope.os.path.realpath(folder))
    )


def _layouts(tmp_path: Path) -> dict[str, Path]:
    """Folders in every kind of place a scope is asked for."""
    main = make_repo(tmp_path / "main", {"src/app.py": "x\n"})
    (main / "src" / "deep").mkdir()
    nested = make_repo(main / "vendor" / "inner")
    git(main, "worktree", "add", "-q", str(tmp_path / "linked"))
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(main), str(bare))
    git(bare, "worktree", "add", "-q", "-b", "side", str(tmp_path / "from-bare"))
    moved = make_repo(tmp_path / "moved-tree")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    git(moved, "config", "core.worktree", str(elsewhere))
    says_bare = make_repo(tmp_path / "says-bare")
    git(says_bare, "config", "core.bare", "true")
    head_file = make_repo(tmp_path / "head-file")
    (head_file / "sub").mkdir()
    (head_file / "sub" / "HEAD").write_text("not git\n", encoding="utf-8")
    broken = tmp_path / "broken-parent"
    make_repo(broken)
    (broken / "child").mkdir()
    (broken / "child" / ".git").mkdir()  # an empty `.git` folder is not a repository
    plain = tmp_path / "plain"
    plain.mkdir()
    link = tmp_path / "link"
    link.symlink_to(main / "src")
    return {
        "root": main,
        "deep": main / "src" / "deep",
        "nested repository": nested,
        "linked worktree": tmp_path / "linked",
        "bare repository": bare,
        "inside a bare repository": bare / "refs",
        "worktree of a bare repository": tmp_path / "from-bare",
        "inside .git": main / ".git" / "objects",
        "core.worktree set": moved,
        "core.bare set": says_bare,
        "a HEAD file on the way": head_file / "sub",
        "an empty .git folder": broken / "child",
        "outside any repository": plain,
        "through a symlink": link,
    }


def test_every_layout_resolves_as_libgit2_discovers_it(tmp_path: Path) -> None:
    for name, folder in _layouts(tmp_path).items():
        fast, slow = _both(folder)
        assert fast == slow, name


def test_a_plain_checkout_is_resolved_without_pygit2(tmp_path: Path) -> None:
    main = make_repo(tmp_path / "main", {"src/app.py": "x\n"})
    found = project_scope._ordinary_checkout(main / "src")
    assert found == main
    code = (
        "import sys; from synapse_git.git import project_scope as p;"
        f" s = p.resolve({str(main / 'src')!r}); print(s.project);"
        " print('pygit2' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(main.resolve()), "False"]


@pytest.mark.parametrize("name", ["a HEAD file on the way", "core.worktree set", "core.bare set"])
def test_unusual_layouts_are_left_to_libgit2(tmp_path: Path, name: str) -> None:
    folder = _layouts(tmp_path)[name]
    assert project_scope._ordinary_checkout(folder.resolve()) is None


def test_head_from_files_is_what_pygit2_reads_or_nothing(tmp_path: Path) -> None:
    # Every layout, and HEAD each way its files can hold it: a loose branch, a packed
    # one, detached, unborn. Where the files answer, pygit2 answers the same.
    layouts = _layouts(tmp_path)
    packed = make_repo(tmp_path / "packed")
    git(packed, "pack-refs", "--all")
    detached = make_repo(tmp_path / "detached")
    git(detached, "checkout", "-q", "--detach")
    nested_branch = make_repo(tmp_path / "nested-branch")
    git(nested_branch, "checkout", "-q", "-b", "feature/x")
    unborn = make_repo(tmp_path / "unborn", commit=False)
    layouts.update(packed=packed, detached=detached, nested_branch=nested_branch, unborn=unborn)
    answered = set()
    for name, folder in layouts.items():
        scope = project_scope.resolve(folder)
        fast = project_scope.head_from_files(scope)
        if fast is not None:
            answered.add(name)
            assert fast == project_scope._head(scope), name
    assert {"root", "deep", "packed", "detached", "nested_branch"} <= answered
    # A linked worktree's refs are its repository's, and an unborn branch has no tip.
    assert not answered & {"linked worktree", "unborn", "outside any repository"}


def test_head_from_files_leaves_what_it_cannot_read_to_pygit2(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    scope = project_scope.resolve(repo)
    head = repo / ".git" / "HEAD"
    for text in ("ref: refs/remotes/origin/main\n", "ref: refs/heads/../../x\n", "garbage\n"):
        head.write_text(text, encoding="utf-8")
        assert project_scope.head_from_files(scope) is None, text
    head.write_text("ref: refs/heads/main\n", encoding="utf-8")
    (repo / ".git" / "refs" / "heads" / "main").write_text("not an id\n", encoding="utf-8")
    assert project_scope.head_from_files(scope) is None
