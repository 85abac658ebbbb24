"""The commit hook and `synapse memory drift` follow one rule for a memory that
names a file by a shorter form (`app/db.py` for `src/app/db.py`): both are run,
for real, on the same fixtures and must give the same verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import git, make_repo, run_cli, run_git

FILES = {
    "src/app/db.py": "pool = 1\n",
    "src/app/models.py": "models = 1\n",
    "tools/db.py": "tool = 1\n",
    "docs/guide.md": "guide\n",
    "MANIFEST.in": "include README.md\n",
    "tests/data/one/MANIFEST.in": "include x\n",
    "README.md": "the project\n",
    "pins/README.md": "extra pins\n",
    "pins/extra.in": "pytest\n",
    "web/views/layout.erb": "<html></html>\n",
    "lib/gem/web/application.rb": "class Application; end\n",
}

# (memory body, what the commit does, whether the memory is broken by it, where it went)
CASES = [
    # a shorter form of the only file it can name: broken by the deletion
    ("The pool is set up in app/db.py", ("rm", "-q", "src/app/db.py"), True, None),
    ("The pool is set up in `src/app/db.py`", ("rm", "-q", "src/app/db.py"), True, None),
    # `db.py` still names tools/db.py: not broken
    ("Connections live in db.py", ("rm", "-q", "src/app/db.py"), False, None),
    # another file of the same name elsewhere does not keep `app/db.py` alive
    ("The pool is set up in app/db.py", ("rm", "-q", "tools/db.py"), False, None),
    # renamed: broken, and the new name is the full path
    (
        "The pool is set up in app/db.py",
        ("mv", "src/app/db.py", "src/app/pool.py"),
        True,
        "src/app/pool.py",
    ),
    # a folder named by a shorter form, emptied
    (
        "Models and the pool are in app/",
        ("rm", "-q", "-r", "src/app"),
        True,
        None,
    ),
    # rooted at a top-level folder that exists: names that place only
    ("The guide is docs/guide.md", ("rm", "-q", "docs/guide.md"), True, None),
    # a bare name of a root file is that file, whatever test data keep their own
    ("MANIFEST.in lists what the sdist ships", ("rm", "-q", "MANIFEST.in"), True, None),
    (
        "MANIFEST.in lists what the sdist ships",
        ("rm", "-q", "tests/data/one/MANIFEST.in"),
        False,
        None,
    ),
    # a top-level folder's name starting a path the root never held (`web/` of templates
    # beside `lib/gem/web/`): the end of the longer path, broken when it goes
    (
        "The Rack app is built in web/application.rb",
        ("rm", "-q", "lib/gem/web/application.rb"),
        True,
        None,
    ),
    (
        "The Rack app is built in web/application.rb",
        ("rm", "-q", "web/views/layout.erb"),
        False,
        None,
    ),
    # a folder the memory names picks the file of that name inside it
    ("pins/ holds extra pins; see its README.md", ("rm", "-q", "pins/README.md"), True, None),
]


def _stale(repo: Path, memory: int) -> dict[str, object] | None:
    done = run_cli("memory", "drift", "--json", "--kind", "stale", cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    for finding in json.loads(done.stdout)["findings"]:
        if memory in finding["ids"]:
            return dict(finding)
    return None


@pytest.mark.parametrize(("body", "change", "broken", "new"), CASES)
def test_the_commit_hook_and_drift_agree_on_shorter_forms(
    tmp_path: Path, body: str, change: tuple[str, ...], broken: bool, new: str | None
) -> None:
    repo = make_repo(tmp_path / "repo", FILES)
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    added = run_cli("memory", "remember", body, "--json", cwd=repo)
    memory = int(json.loads(added.stdout)["id"])
    assert _stale(repo, memory) is None  # fine before the commit
    git(repo, *change)
    done = run_git(repo, "commit", "-m", "change")
    assert (done.returncode != 0) == broken, done.stdout
    if broken:
        assert f"memory {memory}:" in done.stdout
        if new is not None:
            assert f"is renamed to {new}" in done.stdout
        git(repo, "commit", "-q", "--no-verify", "-m", "change anyway")
    finding = _stale(repo, memory)
    assert (finding is not None) == broken, finding
    if finding is not None and new is not None:
        assert finding["renamed"] == {body.rsplit(" ", 1)[-1]: new}
