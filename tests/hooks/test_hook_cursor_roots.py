"""Cursor's session hook started outside the project: the project is the first of the
input's `workspace_roots` that is an absolute path to a folder, else the hook's own
folder, as before. A real hook process, a real repository, a real store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import make_repo

from synapse_git.service import Synapse

HOOK = [str(Path(sys.executable).with_name("synapse")), "hook", "session", "--format", "cursor"]
FACT = "Deploys go out with scripts/ship.sh"


def told(cwd: Path, roots: object, *, stdin: str | None = None) -> str:
    """What the hook tells Cursor, run in `cwd` with `roots` as workspace_roots."""
    given = {"hook_event_name": "sessionStart", "conversation_id": "c", "workspace_roots": roots}
    done = subprocess.run(
        HOOK,
        cwd=cwd,
        input=json.dumps(given) if stdin is None else stdin,
        capture_output=True,
        text=True,
        timeout=120,  # a guard against waiting, not a measure
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    context = json.loads(done.stdout)["additional_context"]
    assert isinstance(context, str)
    return context


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    svc = Synapse()
    svc.remember(FACT, svc.scope(repo))
    return repo


def test_the_project_is_the_workspace_root_cursor_names(repo: Path, outside: Path) -> None:
    assert FACT not in told(outside, None)  # the hook's own folder, as before
    assert FACT in told(outside, [str(repo)])
    # The first root that is a folder; one inside the repository finds the repository.
    (repo / "src").mkdir()
    assert FACT in told(outside, [str(outside / "gone"), str(repo / "src"), str(outside)])


def test_a_hostile_root_is_passed_over(repo: Path, outside: Path, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "file").write_text("x")
    other = make_repo(tmp_path / "other")
    for roots in (
        ["repo"],  # relative: to what, the hook does not know
        [str(repo) + "\x00"],
        [str(tmp_path / "fifo")],  # never opened, so never waited on
        [str(tmp_path / "file")],
        [str(repo)[:-1] + "\ud800"],
        [17, {"path": str(repo)}],
        str(repo),
        ["/" + "a" * 5000],
    ):
        assert FACT not in told(outside, roots), roots
        assert FACT in told(repo, roots), roots  # the hook's own folder, as before
    # Another repository named as a root is that workspace, with its own memories.
    assert FACT not in told(repo, [str(other)])
    for stdin in ("", "not json", "[1]", json.dumps({"workspace_roots": [str(repo)] * 10**5})):
        assert FACT in told(repo, None, stdin=stdin)
