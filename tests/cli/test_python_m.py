"""`python -m synapse_git` is the console script: the same fast paths, the same output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cli_process

from synapse_git.service import Synapse

SLOW = ("typer", "click", "pydantic")


def python_m(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -X importtime -m synapse_git ARGS`: its output, and on stderr each module
    it imported (the import lines are taken out of the stderr returned)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "synapse_git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=False,
    )
    lines = done.stderr.splitlines(keepends=True)
    imported = {line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")}
    rest = "".join(line for line in lines if not line.startswith("import time:"))
    assert not imported & set(SLOW), f"python -m synapse_git {args} imported {imported & set(SLOW)}"
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, rest)


@pytest.fixture
def seeded(repo: Path) -> Path:
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember("The deploy script lives in scripts/deploy.sh.", scope)
    svc.remember("Integration tests need make db-up first; they use port 5433.", scope)
    return repo


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["memory", "read", "1"],
        ["memory", "list", "--json"],
        ["memory", "recall", "deploy script"],
        ["memory", "read", "99"],
        ["hook", "session", "--format", "claude"],
    ],
)
def test_python_m_takes_the_console_scripts_fast_path(seeded: Path, args: list[str]) -> None:
    fast = python_m(*args, cwd=seeded)
    script = run_cli_process(*args, cwd=seeded)
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        script.returncode,
        script.stdout,
        script.stderr,
    )


def test_python_m_hook_prompt_answers_as_the_console_script(seeded: Path) -> None:
    # Each session is answered once: the two runs are two sessions.
    prompt = '{"prompt": "where is the deploy script?", "session_id": "%s"}'
    fast = subprocess.run(
        [sys.executable, "-m", "synapse_git", "hook", "prompt"],
        cwd=seeded,
        input=prompt % "s1",
        capture_output=True,
        text=True,
        check=False,
    )
    script = run_cli_process("hook", "prompt", cwd=seeded, stdin=prompt % "s2")
    assert fast.returncode == script.returncode == 0
    assert fast.stdout == script.stdout and "scripts/deploy.sh" in fast.stdout
