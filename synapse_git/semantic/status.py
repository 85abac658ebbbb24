"""What `synapse status` says about semantic recall (docs/semantic.md): on, or off
and why; the model; how many live memories have its vectors.

It only looks, like the rest of `status`: the model file's checksum is checked
but the model is not loaded (onnxruntime costs a second to start), and the
store is read through the caller's read-only connection.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, cast

from synapse_git.errors import SynapseError
from synapse_git.semantic import model
from synapse_git.semantic.probe import NO_VECTORS
from synapse_git.semantic.vectors import other_model

if TYPE_CHECKING:
    from synapse_git.answers import SemanticOut


def stale(other: str) -> str:
    """Why recall is lexical in a store whose vectors are all another model's."""
    return (
        f"the stored vectors are of {other!r}, not {model.MODEL_ID};"
        " run `synapse memory embed` to embed the memories again"
    )


@dataclass(frozen=True)
class SemanticStatus:
    on: bool
    reason: str | None  # why it is off
    model: str
    vectors: int | None  # live memories with a vector of `model`; None: no store to count
    live: int | None

    def as_json(self) -> SemanticOut:
        return cast("SemanticOut", asdict(self))

    def line(self) -> str:
        counted = ""
        if self.vectors is not None and self.live is not None:
            # The whole store: vectors serve every project, not only the one here.
            counted = f"{self.vectors} of {self.live} live memories in the store have vectors"
        if self.on:
            return f"on: {self.model}, {counted}"
        return f"off: {self.reason}" + (f" ({counted})" if counted else "")


def gather(conn: sqlite3.Connection | None) -> SemanticStatus:
    """Semantic recall as a recall here would find it; `conn` None: no store yet."""
    vectors = live = None
    other = None
    if conn is not None:
        live = int(conn.execute("SELECT coalesce(sum(live), 0) FROM tallies").fetchone()[0])
        vectors = 0
        # A store older than the vectors table is read as it is, never migrated here.
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'vectors'").fetchone():
            vectors = int(
                conn.execute(
                    "SELECT count(*) FROM vectors v JOIN memories m ON m.id = v.memory_id"
                    " WHERE m.state = 'live' AND v.model = ?",
                    (model.MODEL_ID,),
                ).fetchone()[0]
            )
            if not vectors:
                other = other_model(conn, model.MODEL_ID)
    reason = model.missing()
    if reason is None:
        try:
            model.verified()
        except SynapseError as exc:
            reason = str(exc)
    if reason is None and not vectors:
        reason = NO_VECTORS if other is None else stale(other)
    return SemanticStatus(reason is None, reason, model.MODEL_ID, vectors, live)
