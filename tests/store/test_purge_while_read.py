"""`memory purge` while another process reads the store: an MCP server keeps its
connection open (so the write-ahead log is not emptied when a write ends), and a
recall or an export under way reads the store as it was before the purge. The
purge empties the log into the zeroed file only once no reader needs the old state:
it waited the busy timeout once, found the log busy, did not look at the answer,
and said "purged" with the text still in the log. Real services over one store; a
second real connection holds a read of the old state and lets go a moment later."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from support import short_busy_timeout

from synapse_git.errors import StoreError
from synapse_git.service import Synapse

SECRET = "zebraquartz991"
HELD_S = 1.0


def store_bytes(data: Path) -> bytes:
    return b"".join(path.read_bytes() for path in sorted(data.rglob("*")) if path.is_file())


def test_a_purge_empties_the_log_once_a_reader_of_the_old_store_lets_go(
    outside: Path, isolated_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short_busy_timeout(monkeypatch)
    server = Synapse(long_lived=True)  # as `synapse mcp`: its connection stays open
    scope = server.scope(outside)
    leaked = server.remember(f"The staging token is {SECRET}.", scope, is_global=True).id
    server.remember("Deploys go out with make ship.", scope, is_global=True)
    assert SECRET.encode() in store_bytes(isolated_store)
    reader = sqlite3.connect(
        isolated_store / "memory.db", isolation_level=None, check_same_thread=False
    )
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()
    lets_go = threading.Timer(HELD_S, reader.execute, ("COMMIT",))
    lets_go.start()
    try:
        cli = Synapse()
        assert [memory.id for memory in cli.purge([leaked], cli.scope(outside))] == [leaked]
    finally:
        lets_go.join()
        reader.close()
    assert SECRET.encode() not in store_bytes(isolated_store)


def test_a_purge_says_so_when_a_reader_never_lets_go(
    outside: Path, isolated_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short_busy_timeout(monkeypatch, 0.1)
    server = Synapse(long_lived=True)
    scope = server.scope(outside)
    leaked = server.remember(f"The staging token is {SECRET}.", scope, is_global=True).id
    server.session_snapshot(scope)  # a snapshot quoting it
    assert list((isolated_store / "sessions").glob("*.json"))
    reader = sqlite3.connect(isolated_store / "memory.db", isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()
    try:
        cli = Synapse()
        with pytest.raises(StoreError, match=r"memory\.db-wal until it lets go"):
            cli.purge([leaked], cli.scope(outside))
    finally:
        reader.close()
    assert cli.list_memories(cli.scope(outside)).memories == []
    # The snapshots quoting it are gone all the same.
    assert not list((isolated_store / "sessions").glob("*.json"))
