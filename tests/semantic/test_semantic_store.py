"""The vectors table without the model: tied to bodies, migrated into older
stores, reported by `check`, never exported."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

from support import old_store, run_cli

from synapse_git.semantic import vectors
from synapse_git.semantic.model import MODEL_ID
from synapse_git.service import Synapse
from synapse_git.settings import Config
from synapse_git.store import database, integrity, schema

BLOB = bytes(range(128)) * 3


def _stored(svc: Synapse) -> dict[int, str]:
    with svc.connection() as conn:
        return dict(conn.execute("SELECT memory_id, model FROM vectors").fetchall())


def _put(svc: Synapse, memory_id: int, body: str, model: str = MODEL_ID) -> None:
    with svc.connection() as conn, database.transaction(conn):
        vectors.put(conn, model, [(memory_id, body, BLOB)])


def test_changing_a_body_drops_its_vector_and_nothing_else_does(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    first = svc.remember("The build uses pnpm.", here).id
    second = svc.remember("Deploys go out on Tuesdays.", here).id
    _put(svc, first, "The build uses pnpm.")
    _put(svc, second, "Deploys go out on Tuesdays.")
    svc.edit(first, here, source="package.json")
    svc.forget(second, here)
    assert set(_stored(svc)) == {first, second}
    svc.edit(first, here, body="The build uses yarn.")
    assert set(_stored(svc)) == {second}


def test_a_vector_of_a_body_since_changed_is_not_stored(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    memory_id = svc.remember("old text", here).id
    svc.edit(memory_id, here, body="new text")
    _put(svc, memory_id, "old text")
    assert _stored(svc) == {}


def test_check_reports_missing_and_outdated_vectors_and_repair_drops_outdated(
    repo: Path,
) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    ids = [svc.remember(f"fact number {n}", here).id for n in range(3)]
    _put(svc, ids[0], "fact number 0")
    _put(svc, ids[1], "fact number 1", model="another-model")
    coverage = svc.vector_coverage()
    assert coverage == vectors.Coverage(live=3, current=1, missing=1, outdated=1)
    done = run_cli("memory", "check", "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["vectors"] == coverage.as_json()
    text = run_cli("memory", "check", cwd=repo).stdout
    assert "vectors: 1 of 3 live memories; 1 missing, 1 outdated" in text
    assert svc.vector_coverage(repair=True) == vectors.Coverage(3, 1, 2, 0)


def test_check_says_nothing_of_vectors_where_semantic_recall_is_not_used(repo: Path) -> None:
    Synapse().remember("a fact", Synapse().scope(repo))
    done = run_cli("memory", "check", "--json", cwd=repo)
    assert "vectors" not in json.loads(done.stdout)


def test_export_and_import_carry_no_vectors(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    memory_id = svc.remember("The cache lives in Redis.", here).id
    _put(svc, memory_id, "The cache lives in Redis.")
    lines = list(svc.export())
    assert len(lines) == 1 and "vector" not in lines[0]
    other = Synapse(Config(data_dir=tmp_path / "other"))
    assert other.import_lines(lines).imported == 1
    assert _stored(other) == {}


def test_a_version_5_store_gains_the_vectors_table(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with closing(old_store(path, 5)) as conn:
        conn.execute(
            "INSERT INTO memories (body, created_at, updated_at, norm)"
            " VALUES ('kept', 't', 't', 'n')"
        )
    with closing(database.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert integrity.check(conn).ok
        assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 0
        assert conn.execute("SELECT body FROM memories").fetchall() == [("kept",)]
