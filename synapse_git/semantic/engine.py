"""Semantic recall for one process (docs/semantic.md): the model and the vector
matrix, loaded on first use and kept warm, and the one notice that says why
recall is lexical only.

Whatever goes wrong here (the extra missing, a model file that fails its
checksum, onnxruntime refusing the file) turns semantic recall off for the
process with a reason; recall then is exactly the lexical recall.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from synapse_git.errors import SynapseError
from synapse_git.recall.query_terms import Query
from synapse_git.recall.ranking import Search
from synapse_git.semantic import fusion, model, probe, status, vectors
from synapse_git.store import database

if TYPE_CHECKING:
    from synapse_git.semantic.model import Matrix, Model
    from synapse_git.semantic.vectors import VectorMatrix

# Memories embedded and stored per transaction by `memory embed`: an interrupted
# back-fill keeps every finished batch, and a rerun starts where it stopped.
EMBED_BATCH = 64
# Texts a process embeds with the quick model (model.Model) before it loads the
# optimized one: loading that costs about as much CPU as the quick one spends
# more on this many texts (docs/semantic.md, costs).
QUICK_TEXTS = 16


@dataclass(frozen=True)
class EmbedReport:
    embedded: int
    remaining: int
    notice: str | None = None


class Semantic:
    """The model and the matrix of one process, each loaded at most once."""

    def __init__(self, *, long_lived: bool = False) -> None:
        # A long-lived process (the MCP server) embeds a question a recall: it loads
        # the optimized model at once; a command starts with the quick one.
        self._long_lived = long_lived
        self._lock = threading.RLock()
        self._model: Model | None = None
        self._matrix: VectorMatrix | None = None
        self._broken: str | None = None

    @staticmethod
    def installed() -> bool:
        return model.missing() is None

    def load(self, texts: int = 1) -> Model | None:
        """The model, loaded on first use, for embedding `texts` more texts: the quick
        one while the process has embedded few, the optimized one past QUICK_TEXTS or
        in a long-lived process. None (and `reason()` says why) when it cannot run."""
        with self._lock:
            if self._broken is not None:
                return None
            loaded = self._model
            if loaded is None:
                quick = not self._long_lived and texts <= QUICK_TEXTS
            else:
                # Quick until the process has embedded more than QUICK_TEXTS; never back.
                quick = loaded.quick and loaded.embedded + texts <= QUICK_TEXTS
                if loaded.quick == quick:
                    return loaded
            if (absent := model.missing()) is not None:
                self._broken = absent
                return None
            try:
                self._model = model.Model(quick=quick)
            except SynapseError as exc:
                self._broken = str(exc)
            except Exception as exc:  # onnxruntime and numpy raise their own types
                self._broken = f"the model failed to load ({type(exc).__name__}: {exc})"
            return self._model if self._broken is None else None

    def reason(self) -> str | None:
        return self._broken

    def vector_of(self, body: str) -> bytes | None:
        """The stored form of `body`'s vector, or None when the model cannot run."""
        loaded = self.load()
        if loaded is None:
            return None
        try:
            return model.pack(loaded.embed([body])[0])
        except Exception as exc:
            self._broken = f"the model failed ({type(exc).__name__}: {exc})"
            return None

    def state(self, conn: sqlite3.Connection) -> str | None:
        """None when semantic recall is not wanted here (the extra is absent and no
        vector is stored); else "on" or "off: why"."""
        lexical, notice = probe.lexical(conn)
        if lexical:
            return notice
        if self.load() is None:
            return f"off: {self._broken}"
        return "on"

    def search(
        self,
        conn: sqlite3.Connection,
        queries: Sequence[Query],
        projects: Sequence[str],
        lexical: Callable[[bool], Search],
    ) -> tuple[Search, str | None]:
        """The lexical ranking with the dense ones fused in, and the notice;
        `queries` are the question and its rewordings (each embedded, the question
        first), `lexical(floor)` ranks without vectors."""
        notice = self.state(conn)
        if notice != "on":
            return lexical(True), notice
        wordings = list(dict.fromkeys(query.text for query in queries))
        try:
            with self._lock:
                loaded = self.load(len(wordings))
                if loaded is None:
                    return lexical(True), f"off: {self._broken}"
                if self._matrix is None:
                    self._matrix = vectors.VectorMatrix(model.MODEL_ID)
                matrix = self._matrix
                matrix.refresh(conn)
                if not matrix.where and (other := vectors.other_model(conn, model.MODEL_ID)):
                    return lexical(True), f"off: {status.stale(other)}"
                dense_work = _Beside(lambda: _embedded(loaded, matrix, wordings))
                try:
                    found = lexical(False)
                except BaseException:
                    # The store's error is the one to tell, not the thread's.
                    dense_work.wait()
                    raise
                asked, every = dense_work.result()
                ids = [c.id for c in found.candidates]
                dense = matrix.nearest_in(
                    conn, every, projects, least=fusion.FAINT, count=fusion.DENSE_DEPTH
                )
                # Every wording's cosine with every candidate, whoever found it.
                ids += [i for found_by in dense for i, _ in found_by]
                cosines = [matrix.of(row, list(dict.fromkeys(ids))) for row in asked]
        except sqlite3.Error:
            raise
        except Exception as exc:
            self._broken = f"semantic ranking failed ({type(exc).__name__}: {exc})"
            return lexical(True), f"off: {self._broken}"
        fused = fusion.fuse(found, dense, cosines, queries[0])
        note = f"semantic: {model.MODEL_ID}, {len(matrix.where)} memories with vectors"
        if len(wordings) > 1:
            note += f", {len(wordings)} wordings embedded"
        return replace(fused, notes=(*fused.notes, note)), notice

    def store(self, conn: sqlite3.Connection, rows: Sequence[tuple[int, str, bytes]]) -> None:
        """Keep (memory id, body, vector) rows; inside the caller's write transaction."""
        vectors.put(conn, model.MODEL_ID, rows)

    def coverage(
        self, conn: sqlite3.Connection, *, repair: bool = False
    ) -> vectors.Coverage | None:
        """Vectors against live memories (None when semantic recall is not installed and
        no vector is stored); `repair` first drops those of another model or body."""
        if not self.installed() and not probe.any_stored(conn):
            return None
        if repair:
            with database.transaction(conn):
                vectors.drop_outdated(conn, model.MODEL_ID)
        return vectors.coverage(conn, model.MODEL_ID)

    def embed_missing(
        self,
        connect: Callable[[], AbstractContextManager[sqlite3.Connection]] | None,
        progress: Callable[[int, int], None] | None = None,
    ) -> EmbedReport:
        """Embed every live memory lacking a current vector, a batch per transaction
        (`connect` None: there is no store yet)."""
        if connect is None:
            return EmbedReport(0, 0)
        with connect() as conn, database.transaction(conn):
            vectors.drop_outdated(conn, model.MODEL_ID)
            total = vectors.coverage(conn, model.MODEL_ID).missing
        loaded = self.load(total) if total else None
        if total and loaded is None:
            return EmbedReport(0, total, f"off: {self._broken}")
        done = after = 0
        while loaded is not None:
            with connect() as conn:
                batch = vectors.missing(conn, model.MODEL_ID, after=after, limit=EMBED_BATCH)
                if not batch:
                    break
                blobs = [model.pack(row) for row in loaded.embed([body for _, body in batch])]
                rows = [(i, body, blob) for (i, body), blob in zip(batch, blobs, strict=True)]
                with database.transaction(conn):
                    done += vectors.put(conn, model.MODEL_ID, rows)
            after = batch[-1][0]
            if progress is not None:
                progress(min(done, total), total)
        return EmbedReport(done, max(0, total - done))


def _embedded(loaded: Model, matrix: VectorMatrix, wordings: list[str]) -> tuple[Matrix, Matrix]:
    asked = loaded.embed(wordings)
    return asked, matrix.scored(asked)


class _Beside:
    """`work` run on a thread of its own while the caller goes on: onnxruntime and
    numpy let go of the GIL while they compute, so the question's embedding and its
    product with the matrix overlap the lexical ranking's Python and SQLite on a
    second core. result() waits, and raises what `work` raised."""

    def __init__(self, work: Callable[[], tuple[Matrix, Matrix]]) -> None:
        self._work = work
        self._value: tuple[Matrix, Matrix] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="synapse-embed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as exc:  # handed to result(), which raises it
            self._error = exc

    def wait(self) -> None:
        self._thread.join()

    def result(self) -> tuple[Matrix, Matrix]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value
