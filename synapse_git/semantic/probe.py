"""Whether a recall needs the semantic engine, asked without importing it: in a
store with no vector, or with semantic recall turned off, recall is lexical
whatever the extra, and the engine with its modules costs a command's start-up
more than the recall itself."""

from __future__ import annotations

import sqlite3

NO_VECTORS = "no memory has a vector yet; run `synapse memory embed`"


def any_stored(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM vectors LIMIT 1").fetchone() is not None


def lexical(conn: sqlite3.Connection) -> tuple[bool, str | None]:
    """(True, the notice recall gives) when recall here is lexical without asking
    the engine: turned off (no notice), or no vector stored (no notice unless the
    extra is installed). (False, None) when vectors are stored: the engine decides."""
    from synapse_git.semantic import model

    if model.disabled():
        return True, None
    if any_stored(conn):
        return False, None
    return True, (None if model.missing() is not None else f"off: {NO_VECTORS}")
