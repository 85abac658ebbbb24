"""`synapse memory import --from claude-md FILE`: a client's memory file's bullet points
become memories sourced FILE:LINE, in the file's project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support import run_cli, run_unwaited

CLAUDE_MD = """# Shop

Prose is not a memory.

## Testing
- Run `make test` before pushing
- Integration tests need Docker
  running on the host
  - nested: use `make db-up` first

```sh
- a line of code, not a bullet
```
<!--
- a hidden note
-->
1. Deploys go out on Tuesdays
* [x] Releases are tagged vX.Y.Z
"""


def listed(repo: Path) -> dict[str, str]:
    done = run_cli("memory", "list", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return {m["body"]: m["source"] for m in json.loads(done.stdout)["memories"]}


def test_bullets_become_project_memories_with_their_source(repo: Path) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "CLAUDE.md").write_text(CLAUDE_MD)
    done = run_cli("memory", "import", "--from", "claude-md", "docs/CLAUDE.md", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["imported"] == 5
    assert listed(repo) == {
        "Run `make test` before pushing": "docs/CLAUDE.md:6",
        "Integration tests need Docker running on the host": "docs/CLAUDE.md:7",
        "nested: use `make db-up` first": "docs/CLAUDE.md:9",
        "Deploys go out on Tuesdays": "docs/CLAUDE.md:17",
        "Releases are tagged vX.Y.Z": "docs/CLAUDE.md:18",
    }
    again = run_cli("memory", "import", "--from", "agents-md", "docs/CLAUDE.md", cwd=repo)
    assert "imported 0 memories (5 duplicates skipped)" in again.stdout
    recalled = run_cli("memory", "recall", "when do deploys go out", "--json", cwd=repo)
    hit = json.loads(recalled.stdout)["hits"][0]
    assert hit["body"] == "Deploys go out on Tuesdays" and hit["project"] == str(repo.resolve())


def test_a_file_outside_git_gives_global_memories(outside: Path, repo: Path) -> None:
    (outside / "AGENTS.md").write_text("- Prefer ripgrep over grep\n")
    done = run_cli("memory", "import", "--from", "agents-md", str(outside / "AGENTS.md"))
    assert done.returncode == 0, done.stderr
    assert listed(repo) == {"Prefer ripgrep over grep": f"{outside / 'AGENTS.md'}:1"}


def test_bad_input_is_one_line_and_stores_nothing(repo: Path, isolated_store: Path) -> None:
    (repo / "bad.md").write_bytes(b"- caf\xe9\n")
    for args in (
        ["--from", "claude-md", "bad.md"],
        ["--from", "claude-md", "missing.md"],
        ["--from", "yaml", "bad.md"],
    ):
        done = run_cli("memory", "import", *args, cwd=repo)
        assert done.returncode == 2, done.stdout
        assert len(done.stderr.strip().splitlines()) == 1
    assert not (isolated_store / "memory.db").exists()
    (repo / "empty.md").write_text("# Only a heading\n")
    done = run_cli("memory", "import", "--from", "markdown", "empty.md", cwd=repo)
    assert done.returncode == 0 and "imported 0 memories" in done.stdout


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "device", "folder"])
def test_a_memory_file_that_is_not_regular_is_refused_unread(
    repo: Path, isolated_store: Path, kind: str
) -> None:
    # A FIFO named CLAUDE.md would hold the import for ever; a link to /dev/zero would
    # be read without end. Neither is a memory file: one line, nothing stored.
    target = repo / "CLAUDE.md"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "link to a fifo":
        os.mkfifo(repo / "pipe")
        target.symlink_to(repo / "pipe")
    elif kind == "device":
        target.symlink_to("/dev/zero")
    else:
        target.mkdir()
    done = run_unwaited(["synapse", "memory", "import", "--from", "claude-md", "CLAUDE.md"], repo)
    assert done.returncode == 2, done.stdout
    said = "cannot read CLAUDE.md: Is a directory" if kind == "folder" else None
    said = said or "CLAUDE.md is not a regular file: not a memory file"
    assert done.stderr.strip().splitlines() == [f"synapse: {said}"]
    assert not (isolated_store / "memory.db").exists()
