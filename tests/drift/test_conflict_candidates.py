"""Conflict candidates (drift/conflict_candidates.py): the words looked up are
the store's uncommon ones, and never more than RARE_MOST memories' worth each,
so the drift of a recall or a remember costs the same in a large store."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from synapse_git.drift.conflict_candidates import RARE_MOST, Candidates
from synapse_git.git.project_scope import Scope
from synapse_git.store import database, memories
from synapse_git.textrules import norm_key

GLOBAL = Scope(Path("/"), None, None, None, None)


def _store(path: Path, sharing: int) -> int:
    """A store whose highest id is 100,000 (its size as candidates judge it), with
    `sharing` memories that hold the words of the one returned."""
    with closing(database.connect(path)) as conn, database.transaction(conn):
        rows = [f"the zorblat gateway listens on quimbyport {n}" for n in range(sharing)]
        conn.executemany(
            "INSERT INTO memories (body, source, created_at, updated_at, norm)"
            " VALUES (?, '', 'x', 'x', ?)",
            [(body, norm_key(body)) for body in rows],
        )
        conn.execute(
            "INSERT INTO memories (id, body, source, created_at, updated_at, norm)"
            " VALUES (100000, 'unrelated', '', 'x', 'x', 'u')"
        )
        return memories.insert(conn, "the zorblat gateway listens on quimbyport 9", "", None)


def _candidates(path: Path, memory_id: int) -> list[int]:
    with closing(database.connect(path)) as conn:
        memory = memories.get(conn, memory_id, ())
        assert memory is not None
        return [m.id for m in Candidates(conn, GLOBAL).many([memory])[memory_id]]


def test_words_shared_by_a_few_memories_make_candidates(tmp_path: Path) -> None:
    path = tmp_path / "few.db"
    assert _candidates(path, _store(path, RARE_MOST // 2))


def test_words_in_more_than_rare_most_memories_make_none(tmp_path: Path) -> None:
    # One percent of this store is a thousand memories: the fixed bound decides.
    path = tmp_path / "many.db"
    assert _candidates(path, _store(path, RARE_MOST + 50)) == []
