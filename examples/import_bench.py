"""Import and remember benchmark: `python examples/import_bench.py [N] [M] [ITERS]`
(defaults 10000, 2000 and 30).

Seeds a store with N memories of the retrieval benchmark's corpus (N may be 0),
then, through the service as `synapse memory import` and `remember` call it,
imports M further memories in one transaction and remembers ITERS more one at
a time. Prints JSON: the CPU and wall seconds per 1,000 imported memories (the
cost that must stay flat whatever N is) and p50/p95 of one `remember`. The
temporary store is removed afterwards.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import statistics
import sys
import time

from arguments import counts
from checkouts import temporary_data
from retrieval import MAX_N, bodies, seed

from synapse_git import settings
from synapse_git.service import Synapse


def import_lines(n: int, m: int) -> list[str]:
    """JSON Lines of the M memories that follow the N seeded ones (none is a duplicate)."""
    lines = []
    for number, (body, source, stamp) in enumerate(bodies(n + m), start=1):
        if number > n:
            doc = {"body": body, "source": source, "project": None, "created_at": stamp}
            lines.append(json.dumps(doc))
    return lines


def main(argv: list[str]) -> int:
    n, m, iters = counts(
        __doc__, argv[1:], N=(10_000, 0, MAX_N), M=(2_000, 1, MAX_N), ITERS=(30, 1, 1000)
    )
    with temporary_data("synapse-import-") as folder:
        db = folder / "data" / "memory.db"
        seed_s = seed(db, n) if n else 0.0
        lines = import_lines(n, m)
        svc = Synapse(settings.load())
        start, start_cpu = time.perf_counter(), time.process_time()
        report = svc.import_lines(lines)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        assert report.imported == m, report
        outside = folder / "outside"
        outside.mkdir()
        scope = svc.scope(outside)
        times, cpus = [], []
        for i in range(iters):
            body = f"remembered note {i} about the zephyr benchmark and nothing else."
            begin, begin_cpu = time.perf_counter(), time.process_time()
            svc.remember(body, scope, is_global=True)
            times.append((time.perf_counter() - begin) * 1000)
            cpus.append((time.process_time() - begin_cpu) * 1000)
        times.sort()
        result = {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{os.cpu_count()} cores {platform.machine()}",
            "load_average": round(os.getloadavg()[0], 2),
            "store_memories": n,
            "imported": m,
            "seed_s": round(seed_s, 2),
            "import_cpu_s_per_1000": round(cpu * 1000 / m, 3),
            "import_wall_s_per_1000": round(wall * 1000 / m, 3),
            "remember_p50_ms": round(statistics.median(times), 2),
            "remember_p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
            # CPU time, which other work on a shared machine does not inflate.
            "remember_cpu_p50_ms": round(statistics.median(cpus), 2),
        }
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
