"""Damaged, read-only, full and newer stores: one clear line, exit 2, and no write."""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import run_cli, short_busy_timeout

from synapse_git.errors import StoreError
from synapse_git.service import Synapse
from synapse_git.settings import load
from synapse_git.store import database, fts, schema


def seed(data: Path, repo: Path, count: int = 40) -> None:
    svc = Synapse(load(data))
    scope = svc.scope(repo)
    for n in range(count):
        svc.remember(f"memory {n} about the deploy script {'z' * 200}", scope)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_one_clear_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    assert "internal error" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("synapse: ")]
    assert len(errors) == 1, done.stderr
    for word in words:
        assert word in errors[0], errors[0]


COMMANDS = (
    ("memory", "remember", "a new fact"),
    ("memory", "check", "--repair"),
    ("memory", "read", "1"),
    ("project", "show"),
)


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "damaged pages"],
)
def test_a_damaged_store_is_refused_and_left_as_it_was(
    damage: str, isolated_store: Path, repo: Path
) -> None:
    seed(isolated_store, repo)
    db = isolated_store / "memory.db"
    size = db.stat().st_size
    if damage == "garbage":
        db.write_bytes(os.urandom(size))
    elif damage == "truncated":
        with db.open("r+b") as handle:
            handle.truncate(size // 2)
    else:
        with db.open("r+b") as handle:
            handle.seek(4096)
            handle.write(b"\xa5" * (size - 8192))
    before = digest(db)
    for command in COMMANDS if damage == "garbage" else COMMANDS[:2]:
        done = run_cli(*command, cwd=repo)
        assert_one_clear_line(done, str(db))
        assert "not a readable Synapse store" in done.stderr
        assert digest(db) == before, command


def test_a_newer_store_is_refused_untouched(isolated_store: Path, repo: Path) -> None:
    seed(isolated_store, repo, 3)
    db = isolated_store / "memory.db"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.close()
    before = digest(db)
    for command in COMMANDS:
        done = run_cli(*command, cwd=repo)
        assert_one_clear_line(done, "newer Synapse", "untouched")
        assert digest(db) == before


def drop_index(db: Path, index: str) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.execute(f"DROP TABLE {index}")
        conn.commit()
    finally:
        conn.close()


def test_repair_recreates_dropped_indexes_and_their_triggers_work_again(
    isolated_store: Path, repo: Path
) -> None:
    seed(isolated_store, repo, 5)
    db = isolated_store / "memory.db"
    for index in schema.INDEXES:
        drop_index(db, index)

    found = run_cli("memory", "check", cwd=repo)
    assert found.returncode == 1
    for index in schema.INDEXES:
        assert f"index {index} is missing" in found.stdout
    refused = run_cli("memory", "remember", "written while the index is gone", cwd=repo)
    assert_one_clear_line(refused, "memory check")
    assert Synapse().list_memories(Synapse().scope(repo)).total == 5

    fixed = run_cli("memory", "check", "--repair", cwd=repo)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "ok: 5 live memories" in fixed.stdout

    # Every write path keeps the rebuilt indexes in step again: insert, edit, forget.
    svc = Synapse()
    here = svc.scope(repo)
    assert svc.remember("kubernetes rollout notes", here).id == 6
    svc.edit(1, here, body="kubernetes edited first memory")
    svc.forget(2, here)
    assert svc.check().ok
    with svc.connection() as conn:
        for index in schema.INDEXES:
            # The trigram index keeps no positions: its query is the word's trigrams.
            query = fts.holding_any(["kubernetes"]) if index == "memorygram" else '"kubernetes"'
            sql = f"SELECT rowid FROM {index} WHERE {index} MATCH ?"
            hits = {row[0] for row in conn.execute(sql, (query,))}
            assert hits == {1, 6}, index


def test_the_service_raises_store_error_for_a_damaged_store(
    isolated_store: Path, repo: Path
) -> None:
    seed(isolated_store, repo, 3)
    (isolated_store / "memory.db").write_bytes(b"not a database at all" * 300)
    svc = Synapse()
    with pytest.raises(StoreError, match="not a readable Synapse store"):
        svc.list_memories(svc.scope(repo))
    with pytest.raises(StoreError, match="not a readable Synapse store"):
        svc.remember("x", svc.scope(repo))


# -- a read-only data folder ------------------------------------------------------------------


def readonly_runner(data: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the CLI with `data` read-only: chmod for a normal user; for root (who ignores
    permissions) a read-only bind mount in a private mount namespace, when allowed."""
    if os.geteuid() != 0:
        data.chmod(0o555)
        return run_cli
    unshare = shutil.which("unshare")
    probe = (
        subprocess.run(
            [unshare, "-m", "sh", "-c", f"mount --bind {data} {data}"],
            capture_output=True,
            check=False,
        )
        if unshare
        else None
    )
    if probe is None or probe.returncode != 0:
        pytest.skip("running as root without mount namespaces: cannot make a folder read-only")
    exe = Path(sys.executable).with_name("synapse")
    script = f'mount --bind "{data}" "{data}" && mount -o remount,ro,bind "{data}" && exec "$@"'

    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(unshare), "-m", "sh", "-c", script, "sh", str(exe), *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, **(env or {})},
        )

    return run


def test_a_read_only_data_folder_is_one_clear_error(isolated_store: Path, repo: Path) -> None:
    seed(isolated_store, repo, 3)
    db = isolated_store / "memory.db"
    before = digest(db)
    run = readonly_runner(isolated_store)
    try:
        for command in (("memory", "remember", "cannot be written"), ("memory", "list")):
            done = run(*command, cwd=repo)
            assert_one_clear_line(done, "read-only", str(isolated_store))
    finally:
        isolated_store.chmod(0o755)
    assert digest(db) == before
    assert Synapse().check().ok


def test_a_missing_read_only_data_folder_cannot_be_created(tmp_path: Path, repo: Path) -> None:
    parent = tmp_path / "locked"
    parent.mkdir()
    run = readonly_runner(parent)
    try:
        done = run("memory", "remember", "x", cwd=repo, env={"SYNAPSE_DATA": str(parent / "d")})
    finally:
        parent.chmod(0o755)
    assert_one_clear_line(done, "cannot create data folder")


def test_a_data_folder_that_is_a_file_says_so(tmp_path: Path, repo: Path) -> None:
    """SYNAPSE_DATA naming a file was "cannot read FILE/config.toml: Not a directory"."""
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n", encoding="utf-8")
    for data in (taken, taken / "sub"):
        for args in (("memory", "list"), ("memory", "remember", "x"), ("status",)):
            done = run_cli(*args, cwd=repo, env={"SYNAPSE_DATA": str(data)})
            assert_one_clear_line(done, f"the data folder {data} is not a folder")
    assert taken.read_text(encoding="utf-8") == "mine\n"


# -- a full disk ------------------------------------------------------------------------------


def limited(limit: int) -> Callable[[], None]:
    def apply() -> None:
        # Python ignores SIGXFSZ, so a write past the limit fails with EFBIG instead.
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_full_disk_refuses_the_write_and_keeps_the_store(
    isolated_store: Path, repo: Path, tmp_path: Path
) -> None:
    seed(isolated_store, repo, 10)
    big = tmp_path / "big.txt"
    big.write_text("a large memory " * 60_000, encoding="utf-8")  # ~900 KB
    db = isolated_store / "memory.db"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("synapse")), "memory", "remember", "-"],
        cwd=repo,
        stdin=big.open("rb"),
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=limited(db.stat().st_size + 64 * 1024),
    )
    assert_one_clear_line(done, str(db))
    assert "full" in done.stderr or "input/output error" in done.stderr
    svc = Synapse()
    assert svc.check().ok
    assert svc.list_memories(svc.scope(repo)).total == 10
    assert svc.remember("space is back", svc.scope(repo)).duplicate_of is None


def test_a_full_disk_on_first_use_is_one_clear_error(tmp_path: Path, repo: Path) -> None:
    data = tmp_path / "fresh"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("synapse")), "memory", "remember", "x"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "SYNAPSE_DATA": str(data)},
        preexec_fn=limited(2048),
    )
    assert_one_clear_line(done)
    assert "full" in done.stderr or "input/output error" in done.stderr


def test_a_small_tmpfs_filling_up_is_one_clear_error(tmp_path: Path, repo: Path) -> None:
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("mounting a tmpfs needs root and unshare")
    data = tmp_path / "small"
    data.mkdir()
    exe = Path(sys.executable).with_name("synapse")
    # Inside one private mount namespace: a 1 MiB tmpfs, a few memories, then one too big.
    script = (
        f'mount -t tmpfs -o size=1m tmpfs "{data}" || exit 99\n'
        f'"{exe}" memory remember "fits on the disk" || exit 98\n'
        f'head -c 900000 /dev/zero | tr "\\0" a | "{exe}" memory remember - ; echo "rc=$?"\n'
        f'"{exe}" memory check; echo "check=$?"\n'
        f'"{exe}" memory list --json | grep -c "fits on the disk"\n'
    )
    done = subprocess.run(
        [unshare, "-m", "sh", "-c", script],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "SYNAPSE_DATA": str(data)},
    )
    if done.returncode == 99:
        pytest.skip("tmpfs cannot be mounted here")
    assert "rc=2" in done.stdout, done.stdout + done.stderr
    assert "check=0" in done.stdout
    assert "Traceback" not in done.stderr
    assert "full" in done.stderr


def test_a_version_1_store_gets_working_update_triggers_and_rebuilt_indexes(
    isolated_store: Path, repo: Path
) -> None:
    # Version 1's two UPDATE triggers fired newest first and unindexed every edited row.
    db = isolated_store / "memory.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    for statement in schema.statements(schema.MIGRATIONS[0]):
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO memories (body, source, created_at, updated_at, norm)"
        " VALUES ('first text', '', 't', 't', 'n1'), ('second text', '', 't', 't', 'n2')"
    )
    conn.execute("UPDATE memories SET body = 'edited text' WHERE id = 1")
    conn.close()

    svc = Synapse()
    report = svc.check()
    assert report.ok, report.problems
    svc.edit(2, svc.scope(repo), body="second text, edited")
    svc.forget(1, svc.scope(repo))
    svc.restore(1, svc.scope(repo))
    assert svc.check().ok
    with svc.connection() as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        hits = [
            row[0]
            for row in conn.execute(
                "SELECT rowid FROM memory WHERE memory MATCH 'edited' ORDER BY rowid"
            )
        ]
    assert hits == [1, 2]


def test_a_store_locked_past_the_timeout_says_so(
    isolated_store: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(isolated_store, repo, 1)
    short_busy_timeout(monkeypatch)
    holder = sqlite3.connect(isolated_store / "memory.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        conn = database.connect(isolated_store / "memory.db")
        conn.execute("PRAGMA busy_timeout = 0")  # only the retries of a locked BEGIN wait
        with (
            pytest.raises(StoreError, match="stayed locked by another process"),
            database.transaction(conn),
        ):
            pass
        conn.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_read_only_database_file_is_one_clear_error(isolated_store: Path, repo: Path) -> None:
    seed(isolated_store, repo, 1)
    db = isolated_store / "memory.db"
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        with (
            pytest.raises(StoreError, match=r"cannot use .*nothing was written"),
            database.transaction(conn),
        ):
            conn.execute("INSERT INTO projects (key) VALUES ('x')")
    finally:
        conn.close()


def test_an_sqlite_error_past_the_service_is_still_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], repo: Path
) -> None:
    from synapse_git.cli.app import main

    def broken(*args: object, **kwargs: object) -> object:
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(Synapse, "list_memories", broken)
    monkeypatch.chdir(repo)
    assert main(["memory", "list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("synapse: ") and "Traceback" not in err and len(err.splitlines()) == 1
