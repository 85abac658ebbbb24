"""`synapse memory purge`: a memory deleted for good leaves no copy of its text in the
store's files (the database, its write-ahead log, session snapshots), and nothing
else is lost."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from support import git, run_cli

SECRET = "zebraquartz991"


def store_bytes(data: Path) -> bytes:
    """Every file in the data folder, as one blob to search."""
    return b"".join(path.read_bytes() for path in sorted(data.rglob("*")) if path.is_file())


def remember(repo: Path, text: str) -> int:
    done = run_cli("memory", "remember", text, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def test_a_purged_memory_leaves_no_trace_in_the_store_files(
    repo: Path, isolated_store: Path
) -> None:
    leaked = remember(repo, f"The staging token is {SECRET}, do not share")
    kept = remember(repo, "Deploys go out with make ship")
    assert (
        run_cli("memory", "edit", str(leaked), f"Token {SECRET}X rotated", cwd=repo).returncode == 0
    )
    assert run_cli("hook", "session", cwd=repo).returncode == 0  # a snapshot quoting it
    assert run_cli("memory", "forget", str(leaked), cwd=repo).returncode == 0
    with closing(sqlite3.connect(isolated_store / "memory.db")) as conn:
        conn.execute(
            "INSERT INTO vectors (memory_id, model, body_hash, vector) VALUES (?, 'm', 'h', x'00')",
            (leaked,),
        )
        conn.commit()
    assert SECRET.encode() in store_bytes(isolated_store)

    done = run_cli("memory", "purge", str(leaked), "--yes", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert f"purged {leaked}" in done.stdout and "backups made before now" in done.stderr
    assert SECRET.encode() not in store_bytes(isolated_store)
    assert SECRET.upper().encode() not in store_bytes(isolated_store).upper()
    with closing(sqlite3.connect(isolated_store / "memory.db")) as conn:
        for table in ("memories", "history", "vectors"):
            column = "id" if table == "memories" else "memory_id"
            found = conn.execute(f"SELECT count(*) FROM {table} WHERE {column} = ?", (leaked,))
            assert found.fetchone()[0] == 0, table
    history = run_cli("memory", "history", str(leaked), cwd=repo)
    assert history.returncode == 2 and f"no memory {leaked}" in history.stderr
    assert run_cli("memory", "recall", "staging token", "--json", cwd=repo).returncode == 0
    listed = json.loads(run_cli("memory", "list", "--json", cwd=repo).stdout)
    assert [m["id"] for m in listed["memories"]] == [kept]
    check = run_cli("memory", "check", "--json", cwd=repo)
    assert json.loads(check.stdout)["ok"], check.stdout
    assert "Deploys go out with make ship" in run_cli("hook", "session", cwd=repo).stdout


def test_purge_without_yes_and_without_a_terminal_changes_nothing(
    repo: Path, isolated_store: Path
) -> None:
    memory = remember(repo, f"The staging token is {SECRET}")
    before = (isolated_store / "memory.db").read_bytes()
    done = run_cli("memory", "purge", str(memory), cwd=repo, stdin=b"y\n")
    assert done.returncode == 2 and "pass --yes" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert (isolated_store / "memory.db").read_bytes() == before
    missing = run_cli("memory", "purge", "999", "--yes", cwd=repo)
    assert missing.returncode == 2 and "no memory 999" in missing.stderr


def test_a_shared_memory_is_unshared_first(repo: Path, isolated_store: Path) -> None:
    git(repo, "commit", "-q", "--allow-empty", "-m", "start")
    memory = remember(repo, "Releases are cut on Tuesdays")
    assert run_cli("memory", "share", str(memory), cwd=repo).returncode == 0
    refused = run_cli("memory", "purge", str(memory), "--yes", cwd=repo)
    assert refused.returncode == 2 and f"unshare {memory}" in refused.stderr
    assert run_cli("memory", "read", str(memory), cwd=repo).returncode == 0


def test_purging_one_link_of_a_chain_keeps_the_others_readable(repo: Path) -> None:
    old = remember(repo, "CI runs on Jenkins")
    new = remember(repo, "CI runs on GitHub Actions")
    assert run_cli("memory", "supersede", str(old), "--by", str(new), cwd=repo).returncode == 0
    assert run_cli("memory", "purge", str(new), "--yes", cwd=repo).returncode == 0
    shown = json.loads(run_cli("memory", "show", str(old), "--json", cwd=repo).stdout)
    assert shown["state"] == "superseded" and shown["superseded_by"] is None
    assert run_cli("memory", "restore", str(old), cwd=repo).returncode == 0
    assert run_cli("memory", "read", str(old), cwd=repo).stdout == "CI runs on Jenkins"
