"""Two `synapse hook install` at once on one hooks folder (two worktrees of one
repository share it, and a global core.hooksPath is shared by every repository).
Each one plans from what the folder holds, then renames a foreign hook aside and
writes its script: the second one's plan, made from the folder as it was, must not
be carried out over the first one's writes. Two services in two threads over one
real repository; the first one is slowed between its plan and its writes, so the
second certainly runs in that moment."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import git, run_cli, run_git

from synapse_git.git import hook_scripts
from synapse_git.service import Synapse

SLOW_S = 0.5
MINE = "#!/bin/sh\necho my-own-hook-ran\nexit 0\n"
BLOCKS = "#!/bin/sh\necho my-own-hook-blocks\nexit 1\n"


@pytest.fixture
def first_write_slowed(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Set once the thread named "first" has planned every hook and chained the first
    one's foreign hook, whose script it then writes SLOW_S later."""
    writing = threading.Event()
    real = hook_scripts._write

    def slowed(target: Path, text: str) -> None:
        if target.name == "pre-commit" and threading.current_thread().name == "first":
            writing.set()
            time.sleep(SLOW_S)
        real(target, text)

    monkeypatch.setattr(hook_scripts, "_write", slowed)
    yield writing


def test_two_installs_at_once_keep_the_hook_they_chain(
    repo: Path, first_write_slowed: threading.Event
) -> None:
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in ("pre-commit", "post-checkout"):
        (hooks / name).write_text(MINE, encoding="utf-8")
        (hooks / name).chmod(0o755)
    one, other = Synapse(), Synapse()
    names = ["pre-commit", "post-checkout"]
    failed: list[BaseException] = []

    def first() -> None:
        try:
            one.install_hooks(one.scope(repo), names, None)
        except BaseException as exc:  # reported by the assertion below
            failed.append(exc)

    thread = threading.Thread(target=first, name="first")
    thread.start()
    assert first_write_slowed.wait(30), "the first install never reached its write"
    other.install_hooks(other.scope(repo), names, None)
    thread.join()
    assert failed == []
    for name in names:
        assert (hooks / f"{name}.synapse-chained").read_text(encoding="utf-8") == MINE
        assert hook_scripts.installed(hooks)[name] == "synapse"
    assert sorted(p.name for p in hooks.iterdir() if not p.name.endswith(".sample")) == sorted(
        [*names, *(f"{name}.synapse-chained" for name in names)]
    )


def test_a_commit_during_an_install_still_runs_the_hook_it_chains(
    repo: Path, first_write_slowed: threading.Event
) -> None:
    # git runs whatever hook is in place: between the foreign hook's move aside and
    # Synapse's script taking its name there must be no moment without a hook.
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "pre-commit").write_text(BLOCKS, encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    one = Synapse()
    thread = threading.Thread(
        target=lambda: one.install_hooks(one.scope(repo), ["pre-commit"], None), name="first"
    )
    thread.start()
    assert first_write_slowed.wait(30), "the install never reached its write"
    committed = run_git(repo, "commit", "-m", "made while the hooks are installed")
    thread.join()
    # run_git gives git's standard error within its standard output.
    assert committed.returncode != 0, committed.stdout
    assert "my-own-hook-blocks" in committed.stdout
    assert (hooks / "pre-commit.synapse-chained").read_text(encoding="utf-8") == BLOCKS


def test_an_install_while_git_writes_the_config_says_the_driver_is_not_set(repo: Path) -> None:
    # git holds config.lock while it writes the repository's config (another `git
    # config`, `git remote add`, an editor's git integration): the merge driver's
    # setting cannot be written then, and an install must not pass that over.
    lock = repo / ".git" / "config.lock"
    lock.write_text("", encoding="utf-8")
    try:
        done = run_cli("hook", "install", cwd=repo)
    finally:
        lock.unlink()
    driver = git(repo, "config", "--get", "merge.synapse.driver", check=False)
    assert done.returncode == 2, (done.stdout, done.stderr, driver)
    assert len(done.stderr.splitlines()) == 1 and "merge driver" in done.stderr
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    assert "synapse hook merge-file" in git(repo, "config", "--get", "merge.synapse.driver")
