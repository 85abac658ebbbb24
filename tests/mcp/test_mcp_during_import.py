"""Writers that meet a large import, from the CLI and over MCP, wait for it and succeed
instead of failing with "database is locked"; the import stays all or nothing."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from mcp_harness import mcp_session
from support import run_cli

from synapse_git.store import database


def count(store: Path) -> int:
    with closing(sqlite3.connect(store)) as conn:
        return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])


def test_writers_during_a_large_import_wait_for_it_and_succeed(
    repo: Path, isolated_store: Path, tmp_path: Path
) -> None:
    store = isolated_store / "memory.db"
    assert run_cli("memory", "remember", "a first fact", cwd=repo).returncode == 0
    lines = tmp_path / "import.jsonl"
    with lines.open("w", encoding="utf-8") as out:
        for n in range(3000):
            body = f"imported fact {n}: service {n} talks to queue q{n % 97} and retries"
            out.write(json.dumps({"body": body, "project": None}) + "\n")
    exe = str(Path(sys.executable).with_name("synapse"))
    importer = subprocess.Popen(
        [exe, "memory", "import", str(lines)],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while not database.long_write_held(store):
        assert importer.poll() is None, importer.communicate()
        time.sleep(0.01)
    # Both writers start while the import holds the store.
    writer = subprocess.Popen(
        [exe, "memory", "remember", "written from the CLI during the import"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with mcp_session(isolated_store, cwd=repo) as session:
        made = session.ok("remember", {"body": "written over MCP during the import"})
    out, err = writer.communicate()
    assert writer.returncode == 0, err
    imported, import_err = importer.communicate()
    assert importer.returncode == 0, import_err
    assert "imported 3000 memories" in imported
    assert made["id"] > 0
    assert count(store) == 3003
