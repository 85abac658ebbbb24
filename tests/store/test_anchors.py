"""Every memory records the commit it was written at (its anchor): `remember` (over MCP:
tests/mcp/test_mcp_anchors.py), `import` (the line's `head_commit`, else HEAD);
memories stored before anchors were recorded get one inferred from the reflog or by
date."""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support import git, make_repo, old_store, run_cli

from synapse_git.store import database, schema

START = 1_700_000_000


def _anchors(data: Path) -> list[tuple[str, str | None, int]]:
    with closing(sqlite3.connect(data / "memory.db")) as conn:
        rows = conn.execute("SELECT body, head_commit, anchor_inferred FROM memories ORDER BY id")
        return [(str(a), b, int(c)) for a, b, c in rows]


def _dated_repo(path: Path) -> tuple[Path, list[str]]:
    """Three commits an hour apart, made by real `git commit`: the reflog has them."""
    repo = make_repo(path, {"a.txt": "a\n"}, commit=False)
    commits = []
    for n in range(3):
        (repo / "a.txt").write_text(f"{n}\n")
        git(repo, "add", "a.txt")
        stamp = f"@{START + 3600 * n} +0000"
        os.environ["GIT_COMMITTER_DATE"] = os.environ["GIT_AUTHOR_DATE"] = stamp
        try:
            git(repo, "commit", "-q", "-m", f"c{n}")
        finally:
            del os.environ["GIT_COMMITTER_DATE"], os.environ["GIT_AUTHOR_DATE"]
        commits.append(git(repo, "rev-parse", "HEAD").strip())
    return repo, commits


def test_remember_and_import_record_the_commit(repo: Path, isolated_store: Path) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    assert run_cli("memory", "remember", "Deploys go through make", cwd=repo).returncode == 0
    older = "1" * 40
    lines = [
        {"body": "Imported with its own commit", "project": str(repo), "head_commit": older},
        {"body": "Imported without one", "project": str(repo)},
        {"body": "Imported global", "project": None},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    done = run_cli("memory", "import", "-", cwd=repo, stdin=text)
    assert done.returncode == 0, done.stderr
    assert _anchors(isolated_store) == [
        ("Deploys go through make", head, 0),
        ("Imported with its own commit", older, 0),
        ("Imported without one", head, 0),
        ("Imported global", None, 0),
    ]
    exported = [
        json.loads(line) for line in run_cli("memory", "export", cwd=repo).stdout.splitlines()
    ]
    assert [line.get("head_commit") for line in exported] == [head, older, head, None]


@pytest.mark.parametrize("value", ["abc", 7, "G" * 40, "1" * 41])
def test_a_bad_head_commit_stops_the_import(repo: Path, value: object) -> None:
    line = json.dumps({"body": "x", "project": str(repo), "head_commit": value})
    done = run_cli("memory", "import", "-", cwd=repo, stdin=line + "\n")
    assert done.returncode == 2
    assert 'line 1: "head_commit" must be a full commit id' in done.stderr


def _stamp(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="microseconds")


@pytest.mark.parametrize("reflog", [True, False])
def test_older_memories_get_an_inferred_anchor(tmp_path: Path, reflog: bool) -> None:
    repo, commits = _dated_repo(tmp_path / "repo")
    if not reflog:
        (repo / ".git" / "logs" / "HEAD").unlink()  # then by date, on the first-parent line
    path = tmp_path / "memory.db"
    key = os.path.realpath(repo)
    with closing(old_store(path, 8)) as conn:
        rows = [
            ("written between the second and third commit", key, START + 3600 + 10, None),
            ("written before any commit", key, START - 10, None),
            ("already anchored", key, START + 10, commits[2]),
            ("global", None, START + 10, None),
        ]
        for body, project, seconds, anchor in rows:
            conn.execute(
                "INSERT INTO memories (body, project, created_at, updated_at, norm, head_commit)"
                " VALUES (?, ?, ?, ?, 0, ?)",
                (body, project, _stamp(seconds), _stamp(seconds), anchor),
            )
    with closing(database.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        found = conn.execute(
            "SELECT body, head_commit, anchor_inferred FROM memories ORDER BY id"
        ).fetchall()
    assert found == [
        ("written between the second and third commit", commits[1], 1),
        ("written before any commit", None, 0),
        ("already anchored", commits[2], 0),
        ("global", None, 0),
    ]
