"""A client's settings file in a repository may be a link to a file that waits for
something to read (/proc/kmsg, for root): `synapse status` and a marked shared hook
read what is there without waiting, and carry on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli

WAITS = Path("/proc/kmsg")
pytestmark = pytest.mark.skipif(
    not os.access(WAITS, os.R_OK), reason="no readable file that waits (/proc/kmsg is root's)"
)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def linked_local_settings(repo: Path) -> None:
    (repo / ".claude").mkdir(exist_ok=True)
    (repo / ".claude" / "settings.local.json").symlink_to(WAITS)


def test_status_carries_on_past_a_settings_file_that_waits(repo: Path) -> None:
    linked_local_settings(repo)
    done = run_cli("status", cwd=repo)
    assert done.returncode == 0, done.stderr


def test_a_marked_hook_does_not_wait_on_the_users_settings(repo: Path) -> None:
    assert run_cli("setup", "claude", cwd=repo).returncode == 0
    linked_local_settings(repo)
    shared = json.loads((repo / ".claude" / "settings.json").read_text())
    command = shared["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(repo)}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    done = subprocess.run(
        command,
        shell=True,
        cwd=repo,
        env=env,
        input="{}",
        capture_output=True,
        text=True,
        check=False,
        timeout=30,  # Claude Code's own is 10 seconds
    )
    assert done.returncode == 0, done.stderr
    assert "Synapse memory" in done.stdout
