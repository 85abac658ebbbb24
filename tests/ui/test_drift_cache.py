"""The drift page's checks (ui/drift_cache.py): a slow one runs as a process of its own
while the page shows the last, a quick one is made while the page waits, and the kept
check outlives the run."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from support import git, make_repo

from synapse_git.service import Synapse
from synapse_git.ui.drift_cache import DriftChecks, Shown, start_worker


def stocked(tmp_path: Path) -> tuple[Synapse, Path]:
    repo = make_repo(tmp_path / "repo", {"src/a.py": "x = 1\n", "src/b.py": "y = 2\n"})
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember("Settings are read in src/b.py at start", scope)
    svc.remember("The cache timeout is 30 seconds", scope)
    git(repo, "rm", "-q", "src/b.py")
    git(repo, "commit", "-q", "-m", "drop b")
    return svc, repo


class Counted:
    """The real worker process, counting how often it was started."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[subprocess.Popen[bytes]] = []

    def __call__(self) -> subprocess.Popen[bytes]:
        self.started.append(start_worker(str(self.folder)))
        return self.started[-1]

    def finish(self) -> None:
        for process in self.started:
            process.wait(timeout=120)


def settled(checks: DriftChecks) -> Shown:
    end = time.monotonic() + 120
    while (shown := checks.get()).refreshing:
        assert time.monotonic() < end
        time.sleep(0.05)
    return shown


def kinds(shown: Shown) -> list[str]:
    assert shown.check is not None
    return [f["kind"] for f in shown.check["report"]["findings"]]


def test_a_first_check_runs_beside_the_page_and_is_kept_for_the_next_run(
    tmp_path: Path,
) -> None:
    svc, repo = stocked(tmp_path)
    scope = svc.scope(repo)
    spawn = Counted(repo)
    checks = DriftChecks(svc, scope, spawn=spawn)
    first = checks.get()
    assert first.check is None and first.refreshing and len(spawn.started) == 1
    # Asked again while it runs: no second process.
    checks.get()
    assert len(spawn.started) == 1
    spawn.finish()
    done = settled(checks)
    assert kinds(done) == ["stale"] and len(spawn.started) == 1
    assert done.check == svc.kept_drift(scope)
    # Another run with nothing changed shows the kept check and starts nothing.
    again = Counted(repo)
    later = DriftChecks(svc, scope, spawn=again)
    assert later.get() == Shown(done.check, False) and again.started == []


def test_a_change_shows_the_last_check_until_the_new_one_is_done(tmp_path: Path) -> None:
    svc, repo = stocked(tmp_path)
    scope = svc.scope(repo)
    spawn = Counted(repo)
    # sync=0: every check is expected slow, so each runs as a process.
    checks = DriftChecks(svc, scope, spawn=spawn, sync=0)
    spawn.finish()
    old = settled(checks)
    svc.forget(1, scope)
    checks.written([1])
    during = checks.get()
    assert during.refreshing and during.check == old.check and 1 in during.touched
    spawn.finish()
    after = settled(checks)
    assert kinds(after) == [] and after.touched == frozenset() and len(spawn.started) == 2


def test_a_quick_check_is_made_while_the_page_waits(tmp_path: Path) -> None:
    svc, repo = stocked(tmp_path)
    scope = svc.scope(repo)
    spawn = Counted(repo)
    checks = DriftChecks(svc, scope, spawn=spawn, sync=3600)
    spawn.finish()
    settled(checks)
    svc.forget(1, scope)
    shown = checks.get()
    assert not shown.refreshing and kinds(shown) == [] and len(spawn.started) == 1
    assert checks.get(fresh=True).check != shown.check  # worked out again when asked
    assert len(spawn.started) == 1


def test_a_check_that_fails_is_one_line_on_the_page(tmp_path: Path) -> None:
    svc, repo = stocked(tmp_path)
    checks = DriftChecks(svc, svc.scope(repo), spawn=Counted(tmp_path / "gone"))
    checks.get()
    end = time.monotonic() + 120
    while not (shown := checks.get()).error:
        assert time.monotonic() < end
        time.sleep(0.05)
    assert shown.check is None and "gone" in shown.error and "\n" not in shown.error


def test_a_purge_removes_the_kept_check_which_quotes_memories(tmp_path: Path) -> None:
    svc, repo = stocked(tmp_path)
    scope = svc.scope(repo)
    kept = svc.keep_drift(scope)
    assert kept["report"]["findings"] and svc.kept_drift(scope) == kept
    svc.purge([1], scope)
    assert svc.kept_drift(scope) is None
    assert not list((svc.config.data_dir / "sessions").glob("*.check.json"))
