"""`synapse setup` on client files as a user's machine leaves them: read-only, in a
folder it cannot write, with a byte order mark, with comments, in a linked worktree.
Each ends in a correct merged file or one line that changes nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support import run_cli


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("CODEX_HOME", str(folder / ".codex"))
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    """Every file and folder below `folder` but git's own, with each file's bytes."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if ".git" not in path.relative_to(folder).parts:
            found[name] = path.read_bytes() if path.is_file() else b"<folder>"
    return found


def setup(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("setup", *args, cwd=repo)


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr


def test_a_file_that_cannot_be_written_stops_setup_before_any_file_changes(
    repo: Path, isolated_store: Path
) -> None:
    # The settings file's new text cannot be written beside it (a folder holds its
    # place), so .mcp.json, planned first, must not be written either.
    (repo / ".claude" / ".settings.json.synapse-new").mkdir(parents=True)
    before = tree(repo)
    done = setup(repo, "claude")
    refused(done, "cannot write", "settings.json", "nothing was written")
    assert tree(repo) == before
    assert not (isolated_store / "setup.json").exists()


def test_a_read_only_file_is_refused_not_replaced(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    settings.chmod(0o444)
    before = tree(repo)
    done = setup(repo, "claude")
    refused(done, "read-only", str(settings))
    assert tree(repo) == before and settings.stat().st_mode & 0o777 == 0o444
    settings.chmod(0o644)
    assert setup(repo, "claude").returncode == 0
