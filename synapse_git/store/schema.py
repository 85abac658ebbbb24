"""The store's schema: tables, the two FTS5 indexes, the triggers that keep them in
step, and the forward migrations that bring an older store up to date (docs/store.md).

Only live memories are indexed. Both FTS5 tables read their text from the
`live` view, and triggers on `memories` keep them in step inside the very
transaction that changes a row, whatever the write.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

SCHEMA_VERSION = 10
# How long any connection waits on a locked store. Here rather than in database.py
# so that the hooks' read-only opening (readonly.py) does not load that module.
BUSY_TIMEOUT_S = 10.0
INDEXES = ("memory", "memorygram")
FTS_SHADOWS = ("data", "idx", "content", "docsize", "config")

_V1 = """
CREATE TABLE memories (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    body          TEXT NOT NULL,
    source        TEXT NOT NULL DEFAULT '',
    project       TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    state         TEXT NOT NULL DEFAULT 'live'
                  CHECK (state IN ('live', 'superseded', 'forgotten')),
    superseded_by INTEGER REFERENCES memories(id),
    norm          TEXT NOT NULL,
    head_commit   TEXT,
    branch        TEXT,
    recalled      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX memories_scope ON memories (project, state, id);
CREATE INDEX memories_norm ON memories (norm);
CREATE INDEX memories_created ON memories (created_at);

CREATE TABLE history (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id     INTEGER NOT NULL REFERENCES memories(id),
    body          TEXT NOT NULL,
    source        TEXT NOT NULL,
    state         TEXT NOT NULL,
    superseded_by INTEGER,
    changed_at    TEXT NOT NULL,
    change        TEXT NOT NULL
);
CREATE INDEX history_memory ON history (memory_id, id);

CREATE TABLE projects (
    key         TEXT PRIMARY KEY,
    root_commit TEXT
);

CREATE VIEW live AS SELECT id, body, source FROM memories WHERE state = 'live';

CREATE VIRTUAL TABLE memory USING fts5 (
    body, source, content = 'live', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE VIRTUAL TABLE memorygram USING fts5 (
    body, source, content = 'live', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN new.state = 'live' BEGIN
    INSERT INTO memory (rowid, body, source) VALUES (new.id, new.body, new.source);
    INSERT INTO memorygram (rowid, body, source) VALUES (new.id, new.body, new.source);
END;
CREATE TRIGGER memories_ud AFTER UPDATE OF body, source, state ON memories
WHEN old.state = 'live' BEGIN
    INSERT INTO memory (memory, rowid, body, source)
        VALUES ('delete', old.id, old.body, old.source);
    INSERT INTO memorygram (memorygram, rowid, body, source)
        VALUES ('delete', old.id, old.body, old.source);
END;
CREATE TRIGGER memories_ui AFTER UPDATE OF body, source, state ON memories
WHEN new.state = 'live' BEGIN
    INSERT INTO memory (rowid, body, source) VALUES (new.id, new.body, new.source);
    INSERT INTO memorygram (rowid, body, source) VALUES (new.id, new.body, new.source);
END;
CREATE TRIGGER memories_bd BEFORE DELETE ON memories BEGIN
    SELECT RAISE(ABORT, 'memories are never deleted: forget them');
END;
"""

# Version 1 had one trigger to unindex and another to reindex an updated row, and
# SQLite fires the later-created one first, so an edit of a live memory left both
# indexes wrong. One trigger now does both, in order; the indexes are rebuilt.
_V2 = """
DROP TRIGGER memories_ud;
DROP TRIGGER memories_ui;
CREATE TRIGGER memories_au AFTER UPDATE OF body, source, state ON memories BEGIN
    INSERT INTO memory (memory, rowid, body, source)
        SELECT 'delete', old.id, old.body, old.source WHERE old.state = 'live';
    INSERT INTO memorygram (memorygram, rowid, body, source)
        SELECT 'delete', old.id, old.body, old.source WHERE old.state = 'live';
    INSERT INTO memory (rowid, body, source)
        SELECT new.id, new.body, new.source WHERE new.state = 'live';
    INSERT INTO memorygram (rowid, body, source)
        SELECT new.id, new.body, new.source WHERE new.state = 'live';
END;
INSERT INTO memory (memory) VALUES ('rebuild');
INSERT INTO memorygram (memorygram) VALUES ('rebuild');
"""

# Live memories per scope ('' = global), kept by triggers, so recall can say how
# many memories it searched without counting rows on every call.
TALLY_SQL = """
INSERT INTO tallies (project, live)
    SELECT coalesce(project, ''), count(*) FROM memories WHERE state = 'live' GROUP BY 1;
"""
_V3 = f"""
CREATE TABLE tallies (
    project TEXT PRIMARY KEY,
    live    INTEGER NOT NULL
);
{TALLY_SQL}
CREATE TRIGGER tallies_ai AFTER INSERT ON memories WHEN new.state = 'live' BEGIN
    INSERT INTO tallies (project, live) VALUES (coalesce(new.project, ''), 1)
        ON CONFLICT (project) DO UPDATE SET live = live + 1;
END;
CREATE TRIGGER tallies_uo AFTER UPDATE OF state, project ON memories
WHEN old.state = 'live' BEGIN
    UPDATE tallies SET live = live - 1 WHERE project = coalesce(old.project, '');
END;
CREATE TRIGGER tallies_un AFTER UPDATE OF state, project ON memories
WHEN new.state = 'live' BEGIN
    INSERT INTO tallies (project, live) VALUES (coalesce(new.project, ''), 1)
        ON CONFLICT (project) DO UPDATE SET live = live + 1;
END;
"""

# Team memory (docs/team.md): which memories are shared through a repository's
# tracked file, under which stable id, and the file's digest at the last sync.
_V4 = """
CREATE TABLE shared (
    memory_id INTEGER PRIMARY KEY REFERENCES memories(id),
    project   TEXT NOT NULL,
    uid       TEXT NOT NULL,
    author    TEXT NOT NULL,
    origin    TEXT NOT NULL CHECK (origin IN ('here', 'team')),
    line      TEXT NOT NULL,
    UNIQUE (project, uid)
);
CREATE TABLE team_files (
    project TEXT PRIMARY KEY,
    digest  TEXT NOT NULL
);
"""

# Each import is a batch, so one command can take a whole import back
# (`memory forget --import BATCH`); memories written any other way have none.
_V5 = """
CREATE TABLE imports (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    imported_at TEXT NOT NULL
);
ALTER TABLE memories ADD COLUMN import_id INTEGER REFERENCES imports(id);
CREATE INDEX memories_import ON memories (import_id) WHERE import_id IS NOT NULL;
"""

# Vectors of the optional semantic recall (docs/semantic.md), one per memory,
# written by the model named in `model`. A vector never outlives the body it
# was computed from: changing the body drops it. `seq` grows with every write
# and `vectors_gone` logs every removal, so a process that keeps the vectors in
# memory reads only what changed since it last looked.
_V6 = """
CREATE TABLE vectors (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id INTEGER NOT NULL UNIQUE REFERENCES memories(id),
    model     TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    vector    BLOB NOT NULL
);
CREATE TABLE vectors_gone (
    seq       INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id INTEGER NOT NULL
);
CREATE TRIGGER vectors_body AFTER UPDATE OF body ON memories
WHEN old.body IS NOT new.body BEGIN
    DELETE FROM vectors WHERE memory_id = old.id;
END;
CREATE TRIGGER vectors_ad AFTER DELETE ON vectors BEGIN
    INSERT INTO vectors_gone (memory_id) VALUES (old.memory_id);
END;
"""

# `norm` was the SHA-256 hex digest of the normalized body: 64 bytes in every row
# and again in its index, a third of the text's size. It is now a signed 64-bit
# hash (textrules.norm_key, which the migration calls as a SQL function), and the
# readers confirm a match on the text. The column is dropped and added back,
# as SQLite cannot change a column's type.
_V7 = """
DROP INDEX memories_norm;
ALTER TABLE memories DROP COLUMN norm;
ALTER TABLE memories ADD COLUMN norm INTEGER NOT NULL DEFAULT 0;
UPDATE memories SET norm = norm_key(body);
CREATE INDEX memories_norm ON memories (norm);
"""

# The trigram index without positions (`detail=none`): with them it was more than
# half the file (docs/benchmarks.md#store-size). SQLite then refuses phrase
# queries, so a substring is looked up as all of its trigrams and confirmed on
# the text (store/substrings.py). Only the index is rebuilt, then merged into one
# segment, where a lookup from a rowid on seeks fastest; no row changes.
GRAM_DDL = """CREATE VIRTUAL TABLE memorygram USING fts5 (
    body, source, content = 'live', content_rowid = 'id', tokenize = 'trigram', detail = none
)"""
_V8 = f"""
DROP TABLE memorygram;
{GRAM_DDL};
INSERT INTO memorygram (memorygram) VALUES ('rebuild');
INSERT INTO memorygram (memorygram) VALUES ('optimize');
"""

# Every project memory names the commit it was written at (`head_commit`, its
# anchor: docs/drift.md). Those stored before imports and team lines recorded one
# get the commit HEAD was at when they were written, from the reflog or by date
# (git/anchors.py, which the migration calls as a SQL function), marked inferred.
_V9 = """
ALTER TABLE memories ADD COLUMN anchor_inferred INTEGER NOT NULL DEFAULT 0;
UPDATE memories SET head_commit = infer_anchor(project, created_at), anchor_inferred = 1
    WHERE head_commit IS NULL AND project IS NOT NULL
    AND infer_anchor(project, created_at) IS NOT NULL;
"""

# Version 10 holds a person's judgements about drift and branches. `kept`: a finding
# judged still true ("keep"), per memory, kind of finding and its subject (a path,
# another memory's id), so drift stops reporting it until the memory or the subject
# changes (docs/drift.md). `everywhere`: a project memory that holds on every branch
# of its repository, whichever commit it was written at (docs/store.md#anchors).
_V10 = """
CREATE TABLE kept (
    memory_id   INTEGER NOT NULL REFERENCES memories(id),
    finding     TEXT NOT NULL,
    subject     TEXT NOT NULL DEFAULT '',
    kept_at     TEXT NOT NULL,
    head_commit TEXT,
    PRIMARY KEY (memory_id, finding, subject)
) WITHOUT ROWID;
ALTER TABLE memories ADD COLUMN everywhere INTEGER NOT NULL DEFAULT 0;
"""

# Forward migrations: MIGRATIONS[n] brings a store from version n to n + 1.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10)

# The index definitions of the current version, as `repair` recreates them.
FTS_DDL = {
    "memory": next(
        line.strip()
        for line in _V1.split(";\n")
        if line.strip().startswith("CREATE VIRTUAL TABLE memory ")
    ),
    "memorygram": GRAM_DDL,
}


def statements(script: str) -> Iterator[str]:
    """Split a schema script into statements (triggers hold `;` inside BEGIN … END)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                yield pending.strip()
            pending = ""
