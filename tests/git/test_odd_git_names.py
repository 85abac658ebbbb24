"""Names git takes as any bytes, branch names and file names that are not UTF-8: the
commands that meet them answer, and show the odd bytes written out."""

from __future__ import annotations

import json
import os
from pathlib import Path

from support import git, make_repo, run_cli

LATIN1 = os.fsdecode(b"caf\xe9")  # "caf\udce9": the byte 0xe9 as Python reads it


def test_a_memory_is_remembered_on_a_branch_whose_name_is_not_utf8(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"src/app.py": "a\n"})
    git(repo, "checkout", "-q", "-b", LATIN1)
    done = run_cli("memory", "remember", "src/app.py serves deploys", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    memory = json.loads(done.stdout)["id"]
    shown = run_cli("memory", "show", str(memory), "--json", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["branch"] == "caf\\xe9"


def test_blame_reads_a_history_with_names_that_are_not_utf8(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"src/app.py": "a\n"})
    (repo / "src" / f"{LATIN1}.py").write_text("b\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a file named in Latin-1")
    git(repo, "mv", f"src/{LATIN1}.py", "src/cafe.py")
    git(repo, "commit", "-q", "-m", "renamed to ASCII")
    git(repo, "branch", LATIN1)  # a ref that is not UTF-8 either
    done = run_cli("memory", "remember", "src/app.py and src/cafe.py serve deploys", cwd=repo)
    assert done.returncode == 0, done.stderr
    for path in ("src/app.py", "src/cafe.py"):
        blamed = run_cli("memory", "blame", path, "--json", cwd=repo)
        assert blamed.returncode == 0, blamed.stderr
        assert "serve deploys" in blamed.stdout
    # The renamed file's history goes back through its Latin-1 name, written out.
    assert "caf\\\\xe9.py" in run_cli("memory", "blame", "src/cafe.py", "--json", cwd=repo).stdout
