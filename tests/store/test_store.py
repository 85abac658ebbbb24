"""The SQLite store (docs/store.md): connection settings, both FTS5 indexes kept in step with
every write, `check` and `repair`, and refusal of a newer store."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from support import old_store, run_cli

from synapse_git.drift import pair_findings
from synapse_git.errors import StoreVersion
from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse
from synapse_git.settings import Config
from synapse_git.store import database, integrity, memories, schema, substrings
from synapse_git.textrules import norm_key, normalize

# A folder outside any repository: global memories only.
OUTSIDE = Scope(Path("/"), None, None, None, None)


def raw(path: Path, sql: str) -> None:
    """Change the file behind Synapse's back, as a damaged or foreign store would be."""
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(sql)
        conn.commit()


def matches(svc: Synapse, index: str, word: str) -> list[int]:
    with svc.connection() as conn:
        if index == "memorygram":
            # No positions in the trigram index: its candidates are confirmed on the text.
            return list(substrings.holding(conn, [word]))
        rows = conn.execute(
            f"SELECT rowid FROM {index} WHERE {index} MATCH ? ORDER BY rowid", (f'"{word}"',)
        )
        return [row[0] for row in rows]


def test_connection_uses_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    with closing(database.connect(tmp_path / "memory.db")) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION


def test_the_store_is_created_on_first_use_in_the_data_folder(isolated_store: Path) -> None:
    nested = isolated_store / "deeper" / "still"
    svc = Synapse(Config(data_dir=nested))
    svc.remember("first", svc.scope(isolated_store), is_global=True)
    assert (nested / "memory.db").is_file()


def test_memories_are_never_deleted(repo: Path) -> None:
    svc = Synapse()
    memory_id = svc.remember("kept forever", svc.scope(repo)).id
    with svc.connection() as conn, pytest.raises(sqlite3.DatabaseError, match="never deleted"):
        conn.execute("DELETE FROM memories WHERE id = ?", (memory_id,))


def test_every_kind_of_write_keeps_both_indexes_in_step(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    steps: list[tuple[str, Callable[[], object]]] = []
    ids: dict[str, int] = {}

    def remember() -> None:
        ids["a"] = svc.remember("alpha deploys nightly", here, source="ops.md").id
        ids["g"] = svc.remember("gamma is global", here, is_global=True).id

    steps.append(("remember", remember))
    steps.append(("duplicate", lambda: svc.remember("ALPHA deploys   nightly", here)))
    steps.append(("edit body", lambda: svc.edit(ids["a"], here, body="alpha deploys weekly")))
    steps.append(("edit source", lambda: svc.edit(ids["a"], here, source="runbook.md")))

    def supersede_by_text() -> None:
        ids["b"] = svc.remember("beta deploys daily", here, supersedes=ids["a"]).id

    steps.append(("supersede by text", supersede_by_text))
    steps.append(("restore superseded", lambda: svc.restore(ids["a"], here)))
    steps.append(("supersede by id", lambda: svc.supersede(ids["a"], ids["b"], here)))
    steps.append(("forget", lambda: svc.forget(ids["g"], here)))
    steps.append(("edit hidden", lambda: svc.edit(ids["g"], here, body="gamma, edited")))
    steps.append(("restore forgotten", lambda: svc.restore(ids["g"], here)))
    line = '{"body": "delta imported", "source": "", "project": null}'
    steps.append(("import", lambda: svc.import_lines([line])))
    steps.append(("project move", lambda: svc.move_project(str(repo), str(repo))))
    for name, step in steps:
        step()
        report = svc.check()
        assert report.ok, f"after {name}: {report.problems}"
    # The indexes hold exactly the live memories, with their current text.
    assert matches(svc, "memory", "weekly") == []
    assert matches(svc, "memory", "daily") == [ids["b"]]
    assert matches(svc, "memorygram", "gamma, edit") == [ids["g"]]
    assert matches(svc, "memorygram", "runbook") == []
    assert svc.check().live == 3


DAMAGE = {
    "rows deleted from a shadow table": "DELETE FROM memory_docsize",
    "a bogus index row": (
        "INSERT INTO memorygram (rowid, body, source) VALUES (999, 'bogus text', 'x')"
    ),
    "the index structure deleted": "DELETE FROM memorygram_data",
    "a dropped index": "DROP TABLE memory",
    "a dropped shadow table": "DROP TABLE memorygram_docsize",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_index_is_reported_then_repaired(
    damage: str, repo: Path, isolated_store: Path
) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    first = svc.remember("the cache lives in redis", here).id
    second = svc.remember("the queue lives in rabbitmq", here).id
    raw(isolated_store / "memory.db", DAMAGE[damage])
    report = svc.check()
    assert not report.ok and report.problems
    repaired = svc.check(repair=True)
    assert repaired.ok, repaired.problems
    assert matches(svc, "memory", "redis") == [first]
    assert matches(svc, "memorygram", "abbitm") == [second]
    # Writes work again once the indexes are back.
    svc.remember("the mail goes through postfix", here)
    assert svc.check().ok


def test_check_names_what_is_wrong(repo: Path, isolated_store: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    ids = [svc.remember(f"fact number {n}", here).id for n in range(3)]
    raw(isolated_store / "memory.db", f"DELETE FROM memory_docsize WHERE id = {ids[1]}")
    raw(isolated_store / "memory.db", "DROP TABLE memorygram")
    problems = svc.check().problems
    assert f"index memory lacks 1 live memories: {ids[1]}" in problems
    assert "index memorygram is missing" in problems


def test_cli_check_exits_1_on_damage_and_repair_fixes_it(repo: Path, isolated_store: Path) -> None:
    svc = Synapse()
    svc.remember("the cache lives in redis", svc.scope(repo))
    raw(
        isolated_store / "memory.db",
        "INSERT INTO memory (rowid, body, source) VALUES (77, 'x', '')",
    )
    damaged = run_cli("memory", "check")
    assert damaged.returncode == 1
    assert "problem: index memory holds 1 rows not live: 77" in damaged.stdout
    assert "--repair" in damaged.stdout
    fixed = run_cli("memory", "check", "--repair")
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stdout.startswith("ok: 1 live memories")
    again = run_cli("memory", "check", "--json")
    assert again.returncode == 0
    assert again.stdout.strip() == '{"ok": true, "live": 1, "problems": []}'


def make_newer_store(path: Path) -> bytes:
    with closing(database.connect(path)) as conn:
        conn.execute(
            "INSERT INTO memories (body, created_at, updated_at, norm) VALUES ('x', 't', 't', 'n')"
        )
        conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    return path.read_bytes()


def test_a_newer_store_is_refused_and_left_byte_identical(isolated_store: Path) -> None:
    path = isolated_store / "memory.db"
    before = make_newer_store(path)
    svc = Synapse()
    with pytest.raises(StoreVersion, match=r"newer Synapse.*left untouched"):
        svc.list_memories(svc.scope(isolated_store))
    with pytest.raises(StoreVersion):
        svc.check(repair=True)
    assert path.read_bytes() == before
    done = run_cli("memory", "remember", "--global", "new fact")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "newer Synapse" in done.stderr
    assert path.read_bytes() == before


def test_an_unreadable_file_is_a_clear_error(isolated_store: Path) -> None:
    (isolated_store / "memory.db").write_bytes(b"this is not a database" * 100)
    done = run_cli("memory", "list")
    assert done.returncode == 2
    assert "not a readable Synapse store" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_version_1_store_is_migrated_and_its_indexes_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with closing(old_store(path, 1)) as conn:
        conn.execute(
            "INSERT INTO memories (body, created_at, updated_at, norm)"
            " VALUES ('old words', 't', 't', 'n')"
        )
        # Version 1's triggers mangle the indexes on an edit of a live row.
        conn.execute("UPDATE memories SET body = 'new words'")
    with closing(database.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert integrity.check(conn).ok
        hits = conn.execute("SELECT rowid FROM memory WHERE memory MATCH 'new'").fetchall()
        assert hits == [(1,)]


def test_a_second_writer_waits_for_the_first_instead_of_failing(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    svc.remember("first", here)
    holding = threading.Event()
    release = threading.Event()

    def hold_the_write_lock() -> None:
        with svc.connection() as conn, database.transaction(conn):
            conn.execute("UPDATE memories SET recalled = recalled + 1")
            holding.set()
            release.wait(timeout=30)

    holder = threading.Thread(target=hold_the_write_lock)
    holder.start()
    assert holding.wait(timeout=30)
    threading.Timer(0.2, release.set).start()
    second = svc.remember("second", here)  # blocks on the lock, then succeeds
    holder.join()
    assert [m.id for m in svc.list_memories(here).memories] == [second.id, 1]


def test_normalizing_collapses_every_white_space_as_stored_keys_expect() -> None:
    # Every character Python calls white space, as `\s+` in the stored keys' rule.
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    assert len(spaces) == 29
    for space in spaces:
        assert normalize(f"{space}a{space}{space}B\u200b{space}") == "a b\u200b"
    # A key written by an earlier version still finds its body.
    body = " Deploy\u00a0 with\u2003MAKE\x1c\u3000\u00dfe\u0301 "
    assert normalize(body) == "deploy with make ss\u00e9"
    assert norm_key(body) == 4421129731431732371


def test_a_version_6_store_gets_integer_norm_keys_and_still_finds_duplicates(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    with closing(old_store(path, 6)) as conn:
        # Version 6 kept the SHA-256 hex digest of the normalized body.
        for body in ("Deploy  with MAKE", "a second note"):
            digest = hashlib.sha256(normalize(body).encode()).hexdigest()
            conn.execute(
                "INSERT INTO memories (body, created_at, updated_at, norm) VALUES (?, 't', 't', ?)",
                (body, digest),
            )
    with closing(database.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        keys = conn.execute("SELECT norm, typeof(norm) FROM memories ORDER BY id").fetchall()
        assert keys == [
            (norm_key("deploy with make"), "integer"),
            (norm_key("A second note"), "integer"),
        ]
        assert integrity.check(conn).ok
        assert memories.find_duplicate(conn, "deploy with make ", None) == 1
        assert memories.find_duplicate(conn, "deploy with cmake", None) is None
        with database.transaction(conn):
            memories.insert(conn, "A SECOND note", "", None)
        assert [f.ids for f in pair_findings.duplicates(conn, OUTSIDE)] == [(2, 3)]


def test_a_norm_key_collision_is_neither_a_duplicate_nor_a_finding(tmp_path: Path) -> None:
    with closing(database.connect(tmp_path / "memory.db")) as conn:
        with database.transaction(conn):
            first = memories.insert(conn, "use the staging database", "", None)
            second = memories.insert(conn, "never touch production", "", None)
            # Two different texts under one 64-bit key, as a hash collision would leave
            # them; the older one comes first in the key's rows.
            conn.execute(
                "UPDATE memories SET norm = ? WHERE id = ?",
                (norm_key("never touch production"), first),
            )
        assert memories.find_duplicate(conn, "Never touch  production", None) == second
        assert memories.find_duplicate(conn, "use the staging database", None) is None
        assert pair_findings.duplicates(conn, OUTSIDE) == []
