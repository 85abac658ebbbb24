"""`synapse memory drift` and `remember --json` as real processes."""

from __future__ import annotations

import json
from pathlib import Path

from support import git, make_repo, run_cli

from synapse_git.service import Synapse


def test_drift_table_json_and_exit_codes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/app.py": "x\n", "README.md": "r\n"})
    assert run_cli("memory", "drift", cwd=repo).returncode == 0  # no store yet: clean
    svc = Synapse()  # seeding in-process; the drift and `remember --json` runs are real processes
    svc.remember("The app starts in src/app.py", svc.scope(repo))
    svc.remember("The request timeout is 30 s.", svc.scope(repo))
    added = run_cli("memory", "remember", "The request timeout is 60 s.", "--json", cwd=repo)
    assert json.loads(added.stdout)["drift"][0]["kind"] == "conflict"
    clean = run_cli("memory", "drift", str(repo), "--kind", "stale")
    assert clean.returncode == 0, clean.stderr
    assert "no drift" in clean.stdout

    git(repo, "rm", "-q", "src/app.py")
    git(repo, "commit", "-q", "-m", "drop app")
    table = run_cli("memory", "drift", cwd=repo)
    assert table.returncode == 1, table.stderr
    assert "stale" in table.stdout and "conflict" in table.stdout
    assert "settle: synapse memory supersede 2 --by 3" in table.stdout
    assert "settle: synapse memory forget 1" in table.stdout

    as_json = run_cli("memory", "drift", "--json", "--kind", "conflict,duplicate", cwd=repo)
    assert as_json.returncode == 1
    data = json.loads(as_json.stdout)
    assert set(data) == {"folder", "project", "checked", "findings"}
    assert data["checked"] == 3
    [finding] = data["findings"]
    assert (finding["kind"], finding["newer"], finding["older"]) == ("conflict", 3, 2)


def test_unverified_alone_exits_clean_and_bad_kinds_exit_2(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    run_cli("memory", "remember", "The plan goes in docs/plan.md", cwd=repo)
    quiet = run_cli("memory", "drift", cwd=repo)
    assert quiet.returncode == 0, quiet.stdout
    assert "unverified" in quiet.stdout
    bad = run_cli("memory", "drift", "--kind", "stale,bogus", cwd=repo)
    assert bad.returncode == 2
    assert "bogus" in bad.stderr and "Traceback" not in bad.stderr
    missing = run_cli("memory", "drift", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
