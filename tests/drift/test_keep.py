"""`synapse memory keep`: a finding judged still true leaves drift and session start
until one of its memories changes (docs/drift.md#keep)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from support import git, make_repo, run_cli

from synapse_git.service import Synapse


def _drift(repo: Path) -> dict[str, object]:
    done = run_cli("memory", "drift", "--json", cwd=repo)
    assert done.returncode in (0, 1), done.stderr
    data: dict[str, object] = json.loads(done.stdout)
    return data


def _kinds(repo: Path) -> list[tuple[str, list[int]]]:
    findings = _drift(repo)["findings"]
    assert isinstance(findings, list)
    return [(f["kind"], f["ids"]) for f in findings]


def _stale_repo(tmp_path: Path) -> tuple[Path, Synapse]:
    repo = make_repo(tmp_path / "r", {"src/old.py": "x\n", "src/app.py": "y\n"})
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember("The 2019 exports were read by src/old.py, which parsed fixed-width text.", scope)
    svc.remember("Deploys go out from main.", scope)
    git(repo, "rm", "-q", "src/old.py")
    git(repo, "commit", "-q", "-m", "drop old")
    return repo, svc


def test_a_kept_stale_finding_leaves_drift_and_session_start(tmp_path: Path) -> None:
    repo, _ = _stale_repo(tmp_path)
    assert _kinds(repo) == [("stale", [1])]
    assert "Left out: 1 stale" in run_cli("hook", "session", cwd=repo).stdout

    kept = run_cli("memory", "keep", "1", cwd=repo)
    assert kept.returncode == 0, kept.stderr
    assert "kept stale about 1" in kept.stdout and "src/old.py" in kept.stdout
    after = run_cli("memory", "drift", cwd=repo)
    assert after.returncode == 0, after.stdout
    assert "1 finding kept as still true not shown" in after.stdout
    assert _drift(repo)["kept"] == 1 and _drift(repo)["findings"] == []
    session = run_cli("hook", "session", cwd=repo).stdout
    assert "Left out" not in session and "fixed-width text" in session


def test_a_newly_gone_path_or_an_edit_brings_the_finding_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/old.py": "x\n", "src/app.py": "y\n"})
    svc = Synapse()
    svc.remember("The 2019 exports are read by src/old.py and src/app.py.", svc.scope(repo))
    git(repo, "rm", "-q", "src/old.py")
    git(repo, "commit", "-q", "-m", "drop old")
    assert run_cli("memory", "keep", "1", cwd=repo).returncode == 0
    assert _kinds(repo) == []
    git(repo, "rm", "-q", "src/app.py")
    git(repo, "commit", "-q", "-m", "drop app")
    assert _kinds(repo) == [("stale", [1])]

    assert run_cli("memory", "keep", "1", cwd=repo).returncode == 0
    assert _kinds(repo) == []
    svc.edit(1, svc.scope(repo), body="The 2020 exports are read by src/old.py and src/app.py.")
    assert _kinds(repo) == [("stale", [1])]
    assert run_cli("memory", "keep", "1", cwd=repo).returncode == 0
    undone = run_cli("memory", "keep", "1", "--undo", cwd=repo)
    assert undone.returncode == 0 and "took back 1 kept finding" in undone.stdout
    assert _kinds(repo) == [("stale", [1])]


def test_a_kept_conflict_stays_kept_from_either_side_until_one_changes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember("The request timeout is 30 s in the API.", scope)
    svc.remember("The request timeout is 60 s in the API.", scope)
    assert _kinds(repo) == [("conflict", [2, 1])]
    done = run_cli("memory", "keep", "2", "--kind", "conflict", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in json.loads(done.stdout)["kept"]] == ["conflict"]
    assert _kinds(repo) == []
    # Taken back from the other memory of the pair.
    assert run_cli("memory", "keep", "1", "--undo", cwd=repo).returncode == 0
    assert _kinds(repo) == [("conflict", [2, 1])]
    assert run_cli("memory", "keep", "1", cwd=repo).returncode == 0
    svc.edit(2, scope, body="The request timeout is 90 s in the API.")
    assert [kind for kind, _ in _kinds(repo)] == ["conflict"]


def test_nothing_to_keep_and_bad_input_change_nothing(tmp_path: Path, isolated_store: Path) -> None:
    repo, _ = _stale_repo(tmp_path)
    calm = run_cli("memory", "keep", "2", cwd=repo)
    assert calm.returncode == 0 and "no drift finding about memory 2 to keep" in calm.stdout
    for args, words in [
        (("99",), "no memory 99 is visible"),
        (("1", "--kind", "bogus"), "unknown drift kind bogus"),
        (("1", "--kind", ","), "--kind needs at least one"),
    ]:
        done = run_cli("memory", "keep", *args, cwd=repo)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    with closing(sqlite3.connect(isolated_store / "memory.db")) as conn:
        assert conn.execute("SELECT count(*) FROM kept").fetchone()[0] == 0


def test_a_purge_takes_the_kept_rows_with_it(tmp_path: Path, isolated_store: Path) -> None:
    repo, _ = _stale_repo(tmp_path)
    assert run_cli("memory", "keep", "1", cwd=repo).returncode == 0
    assert run_cli("memory", "purge", "1", "--yes", cwd=repo).returncode == 0
    with closing(sqlite3.connect(isolated_store / "memory.db")) as conn:
        assert conn.execute("SELECT count(*) FROM kept").fetchone()[0] == 0


def test_with_keeps_only_the_pair_named(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    for seconds in (30, 60, 90):
        svc.remember(f"The request timeout is {seconds} s in the API.", scope)
    before = _kinds(repo)
    assert ("conflict", [2, 1]) in before and ("conflict", [3, 1]) in before
    done = run_cli("memory", "keep", "1", "--kind", "conflict", "--with", "2", cwd=repo)
    assert done.returncode == 0, done.stderr
    after = _kinds(repo)
    assert ("conflict", [2, 1]) not in after and ("conflict", [3, 1]) in after


def test_list_by_state(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember("Deploys go out from main.", scope)
    svc.remember("Deploys go out from the release branch.", scope)
    svc.forget(1, scope)
    listed = run_cli("memory", "list", "--state", "forgotten", "--json", cwd=repo)
    assert [m["id"] for m in json.loads(listed.stdout)["memories"]] == [1]
    both = run_cli("memory", "list", "deploys", "--state", "any", "--json", cwd=repo)
    assert sorted(m["id"] for m in json.loads(both.stdout)["memories"]) == [1, 2]
    bad = run_cli("memory", "list", "--state", "gone", cwd=repo)
    assert bad.returncode == 2 and "unknown state 'gone'" in bad.stderr
