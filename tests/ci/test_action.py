"""The composite action of action.yml runs `synapse ci check` as documented (docs/ci.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from support import git, make_repo

from synapse_git.team import records

ROOT = Path(__file__).resolve().parents[2]


def steps() -> list[dict[str, object]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    found: list[dict[str, object]] = action["runs"]["steps"]
    return found


def test_no_expression_is_pasted_into_a_script() -> None:
    """Inputs and event fields reach the scripts as environment variables only: a
    branch name or input cannot become shell code."""
    for step in steps():
        assert "${{" not in str(step["run"])
        assert step["shell"] == "bash"
    install, check = steps()
    assert '"$GITHUB_ACTION_PATH"' in str(install["run"])
    base = dict(check["env"])["SYNAPSE_BASE"]  # type: ignore[call-overload]
    assert "inputs.base" in base and "github.event.pull_request.base.sha" in base


def test_the_action_runs_the_check_and_annotates_the_line(tmp_path: Path) -> None:
    """The check step's own script, run by bash as the runner runs it, with the
    synapse the install step would have put in $RUNNER_TEMP."""
    line = records.Record(
        "a1", "Deploys follow docs/deploy.md.", "", "Ann <a@example.com>",
        "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", None, "live",
    ).line()  # fmt: skip
    other = line.replace('"a1"', '"a0"').replace("docs/deploy.md", "the runbook")
    repo = make_repo(
        tmp_path / "repo",
        {"docs/deploy.md": "# Deploy\n", records.FILE: f"{other}\n{line}\n"},
    )
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "pr")
    git(repo, "rm", "-q", "docs/deploy.md")
    git(repo, "commit", "-q", "-m", "drop the notes")
    runner = tmp_path / "runner"
    (runner / "synapse" / "bin").mkdir(parents=True)
    os.symlink(Path(sys.executable).with_name("synapse"), runner / "synapse" / "bin" / "synapse")
    summary = tmp_path / "summary.md"
    _, check = steps()
    done = subprocess.run(
        ["bash", "-e", "-c", str(check["run"])],
        cwd=repo,
        env={
            **os.environ,
            "RUNNER_TEMP": str(runner),
            "SYNAPSE_BASE": base,
            "GITHUB_STEP_SUMMARY": str(summary),
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(f"::error file={records.FILE},line=2,title=Synapse stale")
    assert "| 2 | error | stale |" in summary.read_text(encoding="utf-8")
