"""Recall benchmark: `python examples/retrieval.py [N] [ITERS]` (defaults 10000 and 30).

Seeds a deterministic all-global corpus of N memories of about 240 bytes in a
temporary store (removed afterwards), merges its indexes as `memory import` does,
and prints JSON: versions, seed and open times, database size, and p50/p95/max
latency with response size for six operations (a rare word recalled alone and
with one and two rewordings). Each
operation gets one untimed warm-up; timings include JSON serialization and
exclude process start-up.

The same run measures the floor: the same corpus in one bare porter FTS5
table, bm25 top 8, bodies returned. Each operation's `floor_ratio` is its CPU p50
over the floor's CPU p50 for the same word (the selective word for the empty query
and the page read, which have no word of their own).
"""

from __future__ import annotations

import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from checkouts import spread, temporary_data

from synapse_git import settings
from synapse_git.service import Synapse
from synapse_git.store import database, merging
from synapse_git.store.schema import INDEXES
from synapse_git.textrules import norm_key

MAX_N = 1_000_000
MAX_ITERS = 1_000
BODY_BYTES = 240
COMMON = "zephyr"  # in every memory
SELECTIVE = "quasar"  # in every thousandth memory
# In the same ten memories at every size (10,000 or 1,000,000): a word a store holds
# a few times however large it grows, as a function's name is.
RARE = "nebulon"
RARE_AT = range(50, 1000, 100)
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
# Words of the vocabulary below (each in about one memory in 170), as rewordings.
REWORDINGS = ["flestoma lolo", "miwabri rurupepe"]
SEED_MERGE_CPU_S = [0.0]  # of the last seed: the merge after its rows, in CPU seconds
SEED_SEGMENTS: dict[str, int] = {}  # of the last seed: each index's segments after it
_SYLLABLE_TEXT = "ka lo mi ne ru sa ti vo wa ze bri cha dro fle gri ko lu ma pe qui sto tra"
SYLLABLES = _SYLLABLE_TEXT.split()


def vocabulary(rng: random.Random, size: int = 6000) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words - {COMMON, SELECTIVE, RARE})


def bodies(n: int) -> Iterator[tuple[str, str, str]]:
    """(body, source, created_at) of memory 1..n, the same on every run."""
    rng = random.Random(7)
    words = vocabulary(rng)
    for i in range(1, n + 1):
        parts = [COMMON]
        if i % 1000 == 0:
            parts.append(SELECTIVE)
        size = len(COMMON) + (len(SELECTIVE) + 1 if i % 1000 == 0 else 0)
        while size < BODY_BYTES - 12:
            word = rng.choice(words)
            parts.append(word)
            size += len(word) + 1
        rng.shuffle(parts)
        body = " ".join(parts)[:BODY_BYTES].rstrip() + "."
        if i in RARE_AT:
            body = holding_rare(body)
        stamp = (EPOCH + timedelta(seconds=i)).isoformat(timespec="microseconds")
        yield body, f"bench/{i % 97}.md", stamp


def holding_rare(body: str) -> str:
    """A note of this corpus with RARE first, cut to the same length (no draw of the
    random sequence, so every other note is as it was before RARE)."""
    return f"{RARE} {body.removesuffix('.')}"[:BODY_BYTES].rstrip() + "."


def seed(path: Path, n: int) -> float:
    """Store memory 1..n in one transaction, then merge the indexes as `memory import`
    does after it (docs/store.md#merged-indexes); returns the wall seconds."""
    start = time.perf_counter()
    conn = database.connect(path)
    try:
        with database.transaction(conn):
            conn.executemany(
                "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
                " VALUES (?, ?, NULL, ?, ?, ?)",
                ((b, s, c, c, norm_key(b)) for b, s, c in bodies(n)),
            )
        merge_cpu = time.process_time()
        merging.after_bulk_write(conn, n)
        SEED_MERGE_CPU_S[0] = time.process_time() - merge_cpu
        SEED_SEGMENTS.update((index, merging.segments(conn, index)) for index in INDEXES)
    finally:
        conn.close()
    return time.perf_counter() - start


def bare_floor(path: Path, n: int, iters: int) -> dict[str, dict[str, float | int]]:
    """The physical floor: bm25 top 8 from one porter FTS5 table of the same corpus."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE VIRTUAL TABLE bare USING fts5 (body, tokenize = 'porter unicode61')")
        with conn:
            conn.executemany("INSERT INTO bare (body) VALUES (?)", ((b,) for b, _, _ in bodies(n)))

        def top8(word: str) -> list[tuple[int, str]]:
            return conn.execute(
                "SELECT rowid, body FROM bare WHERE bare MATCH ? ORDER BY bm25(bare) LIMIT 8",
                (word,),
            ).fetchall()

        return {
            "selective": measure(lambda: top8(SELECTIVE), iters),
            "common_term": measure(lambda: top8(COMMON), iters),
        }


def measure(operation: Callable[[], Any], iters: int) -> dict[str, float | int]:
    """Wall-clock latency, and the CPU time this process spent (SQLite runs in
    it), which a machine shared with other work does not inflate."""
    size = len(json.dumps(operation(), ensure_ascii=False))  # the untimed warm-up
    times, cpu = [], []
    for _ in range(iters):
        start, start_cpu = time.perf_counter(), time.process_time()
        size = len(json.dumps(operation(), ensure_ascii=False))
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return {
        **spread(times, ""),
        "cpu_p50_ms": round(statistics.median(cpu), 3),
        "cpu_p95_ms": spread(cpu, "")["p95_ms"],
        "response_bytes": size,
    }


def main(argv: list[str]) -> int:
    usage = f"usage: retrieval.py [N 1000..{MAX_N}] [ITERS 1..{MAX_ITERS}]"
    if any(arg in ("-h", "--help") for arg in argv[1:]):
        print(f"{usage}\n\n{__doc__}")
        return 0
    try:
        n = int(argv[1]) if len(argv) > 1 else 10_000
        iters = int(argv[2]) if len(argv) > 2 else 30
    except ValueError:
        n = iters = 0
    if not (1000 <= n <= MAX_N and 1 <= iters <= MAX_ITERS):
        print(usage, file=sys.stderr)
        return 2
    with temporary_data("synapse-bench-") as folder:
        data = folder / "data"
        db = data / "memory.db"
        seed_cpu = time.process_time()
        seed_s = seed(db, n)
        seed_cpu = time.process_time() - seed_cpu
        raw = sum(len(b.encode()) + len(s.encode()) for b, s, _ in bodies(n))
        db_bytes = _db_bytes(data)
        start = time.perf_counter()
        svc = Synapse(settings.load())
        with svc.connection(create=False):
            pass  # opening verifies the schema version
        open_ms = (time.perf_counter() - start) * 1000
        outside = folder / "outside"
        outside.mkdir()
        scope = svc.scope(outside)
        floor = bare_floor(folder / "bare.db", n, iters)
        results = {
            "selective_recall": measure(lambda: svc.recall(SELECTIVE, scope).as_json(), iters),
            "common_term_recall": measure(lambda: svc.recall(COMMON, scope).as_json(), iters),
            "recent_scoped_recall": measure(lambda: svc.recall("", scope).as_json(), iters),
            # The question plus one and two rewordings of rarer words (docs/recall.md).
            "selective_recall_1_rewording": measure(
                lambda: svc.recall(SELECTIVE, scope, alternatives=REWORDINGS[:1]).as_json(), iters
            ),
            "selective_recall_2_rewordings": measure(
                lambda: svc.recall(SELECTIVE, scope, alternatives=REWORDINGS).as_json(), iters
            ),
            "read_page": measure(lambda: _page(svc, scope, n // 2), iters),
        }
        for name, result in results.items():
            same = floor["common_term" if name.startswith("common") else "selective"]
            # CPU time, which other work on a shared machine does not inflate.
            ratio = float(result["cpu_p50_ms"]) / max(float(same["cpu_p50_ms"]), 0.001)
            result["floor_ratio"] = round(ratio, 1)
        report = {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{os.cpu_count()} cores {platform.machine()}",
            "memories": n,
            "iterations": iters,
            "seed_s": round(seed_s, 2),
            "seed_cpu_s": round(seed_cpu, 2),
            "seed_merge_cpu_s": round(SEED_MERGE_CPU_S[0], 2),
            "segments": SEED_SEGMENTS,
            "load_average": round(os.getloadavg()[0], 2),
            "open_ms": round(open_ms, 2),
            "db_bytes": db_bytes,
            "raw_text_bytes": raw,
            "db_to_text": round(db_bytes / raw, 2),
            "floor": floor,
            **results,
        }
        print(json.dumps(report, indent=2))
    return 0


def _page(svc: Synapse, scope: Any, memory_id: int) -> dict[str, Any]:
    page = svc.read(memory_id, scope)
    return {"memory": None if page is None else page.as_json()}


def _db_bytes(data: Path) -> int:
    return sum(p.stat().st_size for p in data.glob("memory.db*"))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
