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
