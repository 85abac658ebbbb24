"""The git command's answers (drift/git_paths.py) against pygit2's (staleness.py):
a real repository with short names, files gone since the memory's commit, a
pattern and paths never seen; every question asked of both, the same states."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import git, make_repo

from synapse_git.drift.git_paths import GitCheckoutPaths
from synapse_git.drift.meant import Said
from synapse_git.drift.staleness import CheckoutPaths
from synapse_git.git import project_scope

FILES = {
    "src/app/db.py": "POOL = 5\n",
    "lib/db.py": "def connect_legacy():\n    pass\n",
    "docs/old.md": "# old\n",
    "docs/guide.md": "# guide\n",
    "README.md": "hello\n",
    "tests/README.md": "tests\n",
    "MANIFEST.in": "include README.md\n",
    "pkg/MANIFEST.in": "include x\n",
}
ASKED = [
    "db.py",
    "lib/db.py",
    "app/db.py",
    "docs/old.md",
    "docs/",
    "docs/*.md",
    "old/*.md",
    "README.md",
    "MANIFEST.in",
    "src/app/",
    "nothing.py",
    "src/app/db.py:12",
    "lib/",
    "never/seen/here.txt",
]


def _repo(tmp_path: Path) -> tuple[Path, str]:
    repo = make_repo(tmp_path / "repo", FILES)
    anchor = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "rm", "-q", "-r", "lib", "docs/old.md", "MANIFEST.in")
    git(repo, "mv", "docs/guide.md", "docs/manual.md")
    git(repo, "commit", "-q", "-m", "tidy")
    return repo, anchor


def test_the_git_command_answers_as_pygit2_does(tmp_path: Path) -> None:
    repo, anchor = _repo(tmp_path)
    scope = project_scope.resolve(repo)
    by_pygit2 = CheckoutPaths(scope)
    by_git = GitCheckoutPaths(scope)
    said = Said("connect_legacy opens connections, see db.py and MANIFEST.in", ("db.py",))
    for commit in (anchor, None, "0" * 40, "not-a-commit"):
        for path in ASKED:
            expected = by_pygit2.check(path, commit, said=said)
            assert by_git.check(path, commit, said=said) == expected, (path, commit)
    absolute = str(repo.resolve() / "lib" / "db.py")
    assert by_git.check(absolute, anchor) == by_pygit2.check(absolute, anchor)
    assert by_git.check("lib/db.py", anchor).status == "stale"


def test_the_git_command_reads_a_file_at_a_commit_as_pygit2_does(tmp_path: Path) -> None:
    repo, anchor = _repo(tmp_path)
    scope = project_scope.resolve(repo)
    by_git = GitCheckoutPaths(scope)
    assert by_git._blob(anchor, "lib/db.py") == CheckoutPaths(scope)._blob(anchor, "lib/db.py")
    assert by_git._blob(anchor, "lib/db.py") == FILES["lib/db.py"].encode()
    assert by_git._blob(anchor, "lib") is None  # a folder
    assert by_git._blob(anchor, "nothing.py") is None


def test_a_staged_rename_is_found_by_git(tmp_path: Path) -> None:
    repo, anchor = _repo(tmp_path)
    git(repo, "mv", "src/app/db.py", "src/app/pool.py")
    state = GitCheckoutPaths(project_scope.resolve(repo)).check("src/app/db.py", anchor)
    assert (state.status, state.renamed_to) == ("stale", "src/app/pool.py")


def test_the_git_command_paths_never_load_pygit2(tmp_path: Path) -> None:
    repo, anchor = _repo(tmp_path)
    code = (
        "import sys; from synapse_git.drift.git_paths import GitCheckoutPaths;"
        "from synapse_git.git import project_scope;"
        "paths = GitCheckoutPaths(project_scope.resolve('.'), wait=False);"
        f"a = '{anchor}';"
        "print(paths.check('lib/db.py', a).status, paths.check('db.py', a).status);"
        "print('LOADED', 'pygit2' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
    )
    assert done.stdout.split("\n")[:2] == ["stale unverified", "LOADED False"], done.stderr
