"""The published `.pre-commit-hooks.yaml`, run by the real pre-commit framework.

pre-commit installs this repository into its own virtualenv, exactly as a user's
`repo:` entry would: once for the installed config, and once per `try-repo` run (it
always builds in a fresh temporary store).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import GIT_ENV, checkout_copy, git, make_repo, run_cli

# Real installs of the published hooks: minutes on a busy machine.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PRE_COMMIT = str(Path(sys.executable).with_name("pre-commit"))


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, Path]]:
    """This repository's files as they are now, committed in a copy (pre-commit
    clones a repository at a commit), and a pre-commit cache shared by the tests."""
    copy = checkout_copy(tmp_path_factory.mktemp("synapse-published"))
    git(copy, "init", "-q", "-b", "main")
    git(copy, "add", "-A")
    git(copy, "commit", "-q", "-m", "published")
    rev = git(copy, "rev-parse", "HEAD").strip()
    yield copy, rev, tmp_path_factory.mktemp("pre-commit-home")


def pc_env(home: Path) -> dict[str, str]:
    # `try-repo` builds its hook environment in a fresh store each run, so the build is not
    # shared; virtualenv's seed-wheel cache (under the per-test XDG_DATA_HOME otherwise) is.
    return {
        **os.environ,
        **GIT_ENV,
        "PRE_COMMIT_HOME": str(home),
        "VIRTUALENV_OVERRIDE_APP_DATA": str(home.with_name(home.name + "-virtualenv")),
    }


def run(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )


def test_try_repo_blocks_and_passes(tmp_path: Path, published: tuple[Path, str, Path]) -> None:
    copy, rev, home = published
    env = pc_env(home)
    repo = make_repo(tmp_path / "repo", {"scripts/deploy.sh": "x\n", "app.py": "a\n"})
    assert run_cli("memory", "remember", "Ship with scripts/deploy.sh", cwd=repo).returncode == 0
    git(repo, "rm", "-q", "scripts/deploy.sh")
    blocked = run(repo, env, PRE_COMMIT, "try-repo", str(copy), "synapse-drift", "--ref", rev)
    assert blocked.returncode == 1, blocked.stdout
    assert "scripts/deploy.sh is deleted" in blocked.stdout
    git(repo, "reset", "-q", "--hard")
    (repo / "app.py").write_text("b\n", encoding="utf-8")
    git(repo, "add", "app.py")
    passed = run(repo, env, PRE_COMMIT, "try-repo", str(copy), "synapse-drift", "--ref", rev)
    assert passed.returncode == 0, passed.stdout
    assert "Passed" in passed.stdout


def test_try_repo_runs_the_ci_check_between_two_refs(
    tmp_path: Path, published: tuple[Path, str, Path]
) -> None:
    """`synapse-ci-check` in the manual stage, as docs/ci.md runs it in CI: the refs
    come from `--from-ref`/`--to-ref`, and no store is made."""
    from synapse_git.team import records

    copy, rev, home = published
    env = pc_env(home)
    line = records.Record(
        "a1", "Ship with scripts/deploy.sh.", "", "Ann <a@example.com>",
        "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", None, "live",
    ).line()  # fmt: skip
    repo = make_repo(tmp_path / "repo", {"scripts/deploy.sh": "x\n", records.FILE: line + "\n"})
    git(repo, "checkout", "-q", "-b", "pr")
    git(repo, "rm", "-q", "scripts/deploy.sh")
    git(repo, "commit", "-q", "-m", "drop the script")
    args = ["--hook-stage", "manual", "--from-ref", "main", "--to-ref", "HEAD"]
    done = run(
        repo, env, PRE_COMMIT, "try-repo", str(copy), "synapse-ci-check", "--ref", rev, *args
    )
    assert done.returncode == 1, done.stdout
    assert f"{records.FILE}:1: error [stale]" in done.stdout
    assert "scripts/deploy.sh is deleted" in done.stdout
    assert not Path(os.environ["SYNAPSE_DATA"], "memory.db").exists()


def test_installed_config_blocks_a_real_commit_and_refreshes_on_checkout(
    tmp_path: Path, published: tuple[Path, str, Path], isolated_store: Path
) -> None:
    copy, rev, home = published
    env = pc_env(home)
    repo = make_repo(tmp_path / "repo", {"docs/deploy.md": "x\n", "app.py": "a\n"})
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {copy}\n  rev: {rev}\n  hooks:\n"
        "  - id: synapse-drift\n  - id: synapse-refresh\n",
        encoding="utf-8",
    )
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "--no-verify", "-m", "config")
    installed = run(
        repo,
        env,
        PRE_COMMIT,
        "install",
        "--hook-type",
        "pre-commit",
        "--hook-type",
        "pre-merge-commit",
        "--hook-type",
        "post-checkout",
    )
    assert installed.returncode == 0, installed.stdout
    memory = run_cli("memory", "remember", "Deploy steps: docs/deploy.md", cwd=repo)
    assert memory.returncode == 0

    git(repo, "mv", "docs/deploy.md", "docs/release.md")
    blocked = run(repo, env, "git", "commit", "-m", "rename")
    assert blocked.returncode != 0, blocked.stdout
    assert "docs/deploy.md is renamed to docs/release.md" in blocked.stdout
    assert "synapse memory edit 1 -- 'Deploy steps: docs/release.md'" in blocked.stdout

    git(repo, "reset", "-q", "--hard")
    (repo / "app.py").write_text("b\n", encoding="utf-8")
    git(repo, "add", "app.py")
    passed = run(repo, env, "git", "commit", "-m", "edit")
    assert passed.returncode == 0, passed.stdout

    switched = run(repo, env, "git", "checkout", "-b", "side")
    assert switched.returncode == 0, switched.stdout
    assert "synapse: checked 1 memory" in switched.stdout
    assert list((isolated_store / "sessions").glob("*.json"))

    # A merge without conflicts runs pre-merge-commit, not pre-commit.
    git(repo, "rm", "-q", "docs/deploy.md")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop the deploy notes")
    # Back to main without the hooks: the refresh on checkout is asserted above.
    git(repo, "-c", "core.hooksPath=/dev/null", "checkout", "-q", "-")
    head = git(repo, "rev-parse", "HEAD")
    merged = run(repo, env, "git", "merge", "--no-ff", "-m", "merge side", "side")
    assert merged.returncode != 0, merged.stdout
    assert "docs/deploy.md is deleted" in merged.stdout
    assert git(repo, "rev-parse", "HEAD") == head, "no merge commit was made"
