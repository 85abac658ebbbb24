"""What a command reports is what happened: a write refused by a damaged index left
nothing behind; `memory check` names a read-only store or another writer's lock as
what it is (writers meeting a long import: tests/mcp/test_mcp_during_import.py)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from support import run_cli, short_busy_timeout


def count(store: Path) -> int:
    with closing(sqlite3.connect(store)) as conn:
        return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])


def test_a_write_a_damaged_index_refuses_leaves_nothing_written(
    repo: Path, isolated_store: Path
) -> None:
    for body in ("the cache lives in redis", "the queue lives in rabbitmq"):
        assert run_cli("memory", "remember", body, cwd=repo).returncode == 0
    store = isolated_store / "memory.db"
    with closing(sqlite3.connect(store)) as conn, conn:
        # The stemmed index loses its segments: new rows can still be added to it,
        # but reading it (the drift check of a new memory) fails.
        conn.execute("DELETE FROM memory_data WHERE id > 10")
    done = run_cli("memory", "remember", "the mail goes through postfix", cwd=repo)
    assert done.returncode == 2
    assert "nothing was written" in done.stderr and "--repair" in done.stderr
    assert count(store) == 2
    assert run_cli("memory", "check", "--repair", cwd=repo).returncode == 0
    assert run_cli("memory", "remember", "the mail goes through postfix", cwd=repo).returncode == 0
    assert count(store) == 3


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """`path` made read-only for this user: root writes any file whatever its mode,
    so for root the file is made immutable instead."""
    if os.getuid() != 0:
        path.chmod(0o444)
        yield
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: no way to make a file read-only")
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"chattr +i is not allowed here: {made.stderr!r}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_check_on_a_read_only_store_says_read_only(outside: Path, isolated_store: Path) -> None:
    assert run_cli("memory", "remember", "--global", "a fact", cwd=outside).returncode == 0
    store = isolated_store / "memory.db"
    with closing(sqlite3.connect(store)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for leftover in isolated_store.glob("memory.db-*"):
        leftover.unlink()
    before = store.read_bytes()
    with read_only(store):
        checked = run_cli("memory", "check", cwd=outside)
    assert checked.returncode == 2, (checked.stdout, checked.stderr)
    assert "read-only" in checked.stderr and len(checked.stderr.splitlines()) == 1
    assert "--repair" not in checked.stdout + checked.stderr
    assert "problem" not in checked.stdout
    assert store.read_bytes() == before


HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO tallies (project, live) VALUES ('held', 0)")
print("holding", flush=True)
time.sleep(600)
"""


def test_check_while_another_writer_holds_the_lock_says_locked(
    repo: Path, isolated_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_cli("memory", "remember", "a fact", cwd=repo).returncode == 0
    short_busy_timeout(monkeypatch)  # `memory check` runs in this process
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(isolated_store / "memory.db")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        done = run_cli("memory", "check", cwd=repo)
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "locked by another process" in done.stderr
    assert "--repair" not in done.stdout + done.stderr and "problem" not in done.stdout
