"""The viewer's fixtures: a stocked repository, and the real `synapse ui` serving it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support import git, make_repo
from support.viewer import HOSTILE, Viewer, start, stop

from synapse_git.service import Synapse


@pytest.fixture
def stocked(tmp_path: Path) -> Path:
    """A repository whose store holds a hostile body, a memory naming a file the last
    commit removed (stale), a conflicting pair and a plain one."""
    repo = make_repo(
        tmp_path / "repo", {"src/deploy.py": "x = 1\n", "src/old_config.py": "y = 2\n"}
    )
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember(HOSTILE, scope, source="ticket <b>42</b>")
    svc.remember("Settings are read in src/old_config.py at start", scope)
    svc.remember("The test suite runs with pytest -q", scope)
    svc.remember("The cache timeout is 30 seconds", scope)
    svc.remember("The cache timeout is 90 seconds", scope)
    git(repo, "rm", "-q", "src/old_config.py")
    git(repo, "commit", "-q", "-m", "drop the old config")
    return repo


@pytest.fixture
def viewer(stocked: Path) -> Iterator[Viewer]:
    running = start(stocked)
    try:
        # The first drift check runs beside the pages: the tests start once it is done.
        running.enter()
        running.drift()
        running.cookie = ""
        yield running
    finally:
        err = stop(running)
        assert "Traceback" not in err, err
