"""The counts of drift findings each refresh found, kept beside the snapshot for the
viewer's "over time" picture (synapse_git/session/drift_log.py)."""

from __future__ import annotations

from pathlib import Path

from support import git, make_repo, run_cli

from synapse_git import settings
from synapse_git.service import Synapse
from synapse_git.session import drift_log
from synapse_git.session.snapshot_file import snapshot_path


def test_each_refresh_adds_a_point_and_a_repeat_adds_none(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/a.py": "x\n", "src/b.py": "y\n"})
    svc = Synapse()
    svc.remember("Parsing lives in src/a.py", svc.scope(repo))
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    run_cli("hook", "session", cwd=repo)
    git(repo, "checkout", "-q", "-b", "side")
    git(repo, "rm", "-q", "src/a.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "drop a")
    for branch in ("main", "side", "main", "side"):
        git(repo, "checkout", "-q", branch)
    log = drift_log.log_path(snapshot_path(settings.load().data_dir, str(repo)))
    points = drift_log.read(log)
    # The switch to main at the commit of the session start repeats its point.
    assert [p.counts.get("stale", 0) for p in points] == [0, 1, 0, 1]
    assert points[-1].head == git(repo, "rev-parse", "HEAD").strip()
    run_cli("hook", "session", cwd=repo)  # same commit, same counts: no new point
    assert len(drift_log.read(log)) == 4
    assert "Parsing" not in log.read_text(encoding="utf-8")  # counts only, never text


def test_the_log_is_bounded_and_a_damaged_one_is_read_past(tmp_path: Path) -> None:
    snapshot = tmp_path / "sessions" / "x.json"
    snapshot.parent.mkdir()
    log = drift_log.log_path(snapshot)
    log.write_text('not json\n{"at": 5}\n{"at": "t", "counts": {"stale": -1, "x": "y"}}\n')
    for n in range(drift_log.LIMIT + 3):
        drift_log.record(snapshot, f"{n:040x}", [{"kind": "stale"}] * (n % 3))
    points = drift_log.read(log)
    assert drift_log.KEEP <= len(points) <= drift_log.LIMIT
    assert points[-1].head == f"{drift_log.LIMIT + 2:040x}"
    log.write_bytes(b"x" * (drift_log.READ_BYTES * 3))  # a huge file is read from its end only
    assert drift_log.read(log) == []
