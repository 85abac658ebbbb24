"""Recall with 0 to 3 rewordings: `python examples/rewording_bench.py [N] [ITERS]`
(defaults 100000 and 30).

Seeds the corpus of examples/retrieval.py (N memories, `quasar` in every
thousandth) in a temporary store, removed afterwards, and recalls `quasar`
alone and with one, two and three rewordings of two words each (every word in
about one memory in 170; docs/recall.md, "Cost per rewording"). The four
operations take turns within each iteration, in an order reversed every other
iteration, so that other work on the machine weighs on all of them alike.
Prints JSON: the load average, and per operation p50/p95 wall clock and CPU
time (SQLite runs in this process) and its CPU p50 and p95 over the plain
recall's.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import sys
import time
from collections.abc import Callable
from typing import Any

import retrieval

from synapse_git import settings
from synapse_git.service import Synapse

REWORDINGS = [*retrieval.REWORDINGS, "kavosa trami"]


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 100_000
    iters = int(argv[2]) if len(argv) > 2 else 30
    if not (1000 <= n <= retrieval.MAX_N and 1 <= iters <= retrieval.MAX_ITERS):
        print(f"usage: rewording_bench.py [N 1000..{retrieval.MAX_N}] [ITERS 1..]", file=sys.stderr)
        return 2
    with retrieval.temporary_data("synapse-rewordings-") as folder:
        retrieval.seed(folder / "data" / "memory.db", n)
        svc = Synapse(settings.load())
        outside = folder / "outside"
        outside.mkdir()
        scope = svc.scope(outside)

        def asking(count: int) -> Callable[[], Any]:
            return lambda: svc.recall(
                retrieval.SELECTIVE, scope, alternatives=REWORDINGS[:count]
            ).as_json()

        operations = {count: asking(count) for count in range(len(REWORDINGS) + 1)}
        for operation in operations.values():
            operation()  # the untimed warm-up
        wall: dict[int, list[float]] = {count: [] for count in operations}
        cpu: dict[int, list[float]] = {count: [] for count in operations}
        for turn in range(iters):
            order = list(operations) if turn % 2 == 0 else list(reversed(operations))
            for count in order:
                start, start_cpu = time.perf_counter(), time.process_time()
                json.dumps(operations[count](), ensure_ascii=False)
                wall[count].append((time.perf_counter() - start) * 1000)
                cpu[count].append((time.process_time() - start_cpu) * 1000)
        plain = retrieval._spread(cpu[0], "")
        report: dict[str, Any] = {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{os.cpu_count()} cores {platform.machine()}",
            "memories": n,
            "iterations": iters,
            "load_average": round(os.getloadavg()[0], 2),
        }
        for count in operations:
            spent = retrieval._spread(cpu[count], "cpu_")
            report[f"rewordings_{count}"] = {
                **retrieval._spread(wall[count], ""),
                "cpu_p50_ms": spent["cpu_p50_ms"],
                "cpu_p95_ms": spent["cpu_p95_ms"],
                "cpu_p50_ratio": round(spent["cpu_p50_ms"] / plain["p50_ms"], 2),
                "cpu_p95_ratio": round(spent["cpu_p95_ms"] / plain["p95_ms"], 2),
            }
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
