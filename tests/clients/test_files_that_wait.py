"""A client's settings file in a repository may be a link to a file that waits for
something to read (/proc/kmsg, for root): `synapse status` and a marked shared hook
read what is there without waiting, and carry on."""

from __future__ import annotations

import os
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
