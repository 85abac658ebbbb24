"""The kept read connection (store/reader.py): recall and read reuse one connection,
see every write made meanwhile, block no writer, and open afresh when the store
file is replaced or its schema moves on."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest
from support import run_cli

from synapse_git.errors import StoreVersion
from synapse_git.service import Synapse
from synapse_git.store import database
from synapse_git.store.schema import SCHEMA_VERSION


def _page_body(svc: Synapse, memory_id: int, where: Path) -> str | None:
    page = svc.read(memory_id, svc.scope(where))
    return None if page is None else page.body


def test_reads_share_one_connection_between_calls(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    first = svc.remember("the cache lives in redis", scope, is_global=True).id
    with svc.reading() as one:
        pass
    assert _page_body(svc, first, outside) == "the cache lives in redis"
    assert svc.recall("redis", scope).hits
    with svc.reading() as two:
        assert two is one


def test_the_kept_connection_sees_writes_and_blocks_no_writer(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    svc.remember("first note about kafka", scope, is_global=True)
    assert len(svc.recall("kafka", scope).hits) == 1
    # Another process writes while this one keeps its connection open.
    done = run_cli("memory", "remember", "--global", "second note about kafka", cwd=outside)
    assert done.returncode == 0, done.stderr
    assert len(svc.recall("kafka", scope).hits) == 2
    Synapse().remember("third note about kafka", scope, is_global=True)
    assert len(svc.recall("kafka", scope).hits) == 3


def test_a_replaced_store_is_read_afresh(outside: Path, tmp_path: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    memory_id = svc.remember("original body", scope, is_global=True).id
    assert _page_body(svc, memory_id, outside) == "original body"
    other = tmp_path / "other.db"
    with closing(database.connect(other)) as conn, database.transaction(conn):
        conn.execute(
            "INSERT INTO memories (body, source, created_at, updated_at, norm)"
            " VALUES ('restored body', '', 'x', 'x', 'k')"
        )
    path = svc.config.db_path
    for stale in path.parent.glob(path.name + "-*"):
        stale.unlink()
    shutil.copy(other, tmp_path / "copy.db")
    (tmp_path / "copy.db").replace(path)
    assert _page_body(svc, memory_id, outside) == "restored body"


def test_a_newer_schema_written_meanwhile_is_refused(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    memory_id = svc.remember("a note", scope, is_global=True).id
    assert svc.read(memory_id, scope) is not None
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreVersion):
        svc.read(memory_id, scope)


def test_threads_take_turns_on_the_kept_connection(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    ids = [svc.remember(f"note {n} about grpc", scope, is_global=True).id for n in range(4)]
    failures: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                for memory_id in ids:
                    assert svc.read(memory_id, scope) is not None
                assert svc.recall("grpc", scope).hits
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_a_nested_read_reuses_the_connection_its_caller_holds(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    memory_id = svc.remember("nested note about nginx", scope, is_global=True).id
    with svc.reading() as outer:
        # A write that moves the file on would reopen a fresh use, never a nested one.
        Synapse().remember("another note about nginx", scope, is_global=True)
        assert svc.read(memory_id, scope) is not None
        assert len(svc.recall("nginx", scope).hits) == 2
        with svc.reading() as inner:
            assert inner is outer
        assert outer.execute("SELECT count(*) FROM memories").fetchone()[0] == 2


def _wal_bytes(svc: Synapse) -> int:
    wal = svc.config.db_path.with_name(svc.config.db_path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_a_long_lived_service_does_not_checkpoint_after_every_write(outside: Path) -> None:
    # The last connection to close copies the WAL into the file and empties it.
    one_shot = Synapse()
    scope = one_shot.scope(outside)
    one_shot.remember("written by a one-shot command", scope, is_global=True)
    assert _wal_bytes(one_shot) == 0
    kept = Synapse(long_lived=True)
    first = kept.remember("written by the MCP server", scope, is_global=True).id
    grown = _wal_bytes(kept)
    assert grown > 0, "the write was checkpointed as its connection closed"
    second = kept.remember("written by the MCP server again", scope, is_global=True).id
    assert _wal_bytes(kept) > grown
    # Every reader, in this process or another, sees both writes meanwhile.
    assert sorted(h.id for h in Synapse().recall("MCP server", scope).hits) == [first, second]
    assert _page_body(kept, second, outside) == "written by the MCP server again"
    done = run_cli("memory", "read", str(first), cwd=outside)
    assert done.returncode == 0 and "written by the MCP server" in done.stdout, done.stderr


def test_the_kept_connection_has_the_larger_page_cache(outside: Path) -> None:
    svc = Synapse()
    svc.remember("a note to open the store", svc.scope(outside), is_global=True)
    with svc.reading() as conn:
        assert conn.execute("PRAGMA cache_size").fetchone()[0] == -database.READER_CACHE_KIB
    with closing(database.connect(svc.config.db_path)) as writer:
        # Writers keep SQLite's default: they live for one operation.
        assert writer.execute("PRAGMA cache_size").fetchone()[0] == -2000


def test_the_kept_connection_reads_through_a_memory_map(outside: Path) -> None:
    svc = Synapse()
    found = svc.remember("a note to map", svc.scope(outside), is_global=True)
    with svc.reading() as conn:
        assert conn.execute("PRAGMA mmap_size").fetchone()[0] == database.READER_MMAP_BYTES
    # Mapped or not, what is read is what was written.
    page = svc.read(found.id, svc.scope(outside))
    assert page is not None and page.body == "a note to map"
