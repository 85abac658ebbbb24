"""Recall with 0 to 4 rewordings, against another checkout's plain recall:
`python examples/rewording_bench.py [N] [ITERS] [--baseline CHECKOUT]`
(defaults 100000 and 30).

Seeds the corpus of examples/retrieval.py (N memories, `quasar` in every
thousandth) in a temporary store, removed afterwards, and recalls `quasar`
alone and with one to four rewordings of two words each (every word in about
one memory in 170; docs/recall.md, "Cost per rewording").

With `--baseline CHECKOUT`, a second process runs that checkout's code
(`CHECKOUT/.venv/bin/python` unless `--baseline-python` names another;
examples/checkouts.py), seeds the same corpus with that checkout's
examples/retrieval.py, so that its store is as its own code leaves it, and
recalls `quasar` alone on request. It need not know of rewordings, so the code
from before them can be the baseline.

The operations take turns within each iteration, in an order reversed every
other iteration, so that other work on the machine weighs on all of them
alike. Each process times its own recalls: wall clock and CPU time (SQLite runs
in it), JSON serialization included. Prints JSON: the load average at the
start, once seeded and at the end, per operation p50/p95 wall and CPU, its CPU
p50 and p95 and wall p95 over the plain recall's, and with a baseline each p95
over the baseline's p95 beside the target "no worse than the baseline 1.5
times per rewording" read both ways: compounded (limit 1.5^k for k rewordings)
and added (1 + 0.5k).
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import arguments
from checkouts import Checkout, baseline_options, corpus, seeded, spread, temporary_data, timed

# Two words each of the vocabulary of examples/retrieval.py (each word in about
# one memory in 170); its REWORDINGS are the first two.
REWORDINGS = ["flestoma lolo", "miwabri rurupepe", "kavosa trami", "drochasto sakoti"]
BASELINE = "baseline"


def asking(retrieval: ModuleType, folder: Path, n: int) -> Callable[[list[str]], Any]:
    """Recall of `quasar` with the given rewordings from a store of N seeded memories."""
    svc, scope = seeded(retrieval, folder, n)

    def asked(rewordings: list[str]) -> Any:
        return svc.recall(retrieval.SELECTIVE, scope, alternatives=rewordings).as_json()

    return asked


def main(argv: list[str]) -> int:
    parser = arguments.parser(__doc__)
    parser.add_argument("n", nargs="?", type=int, default=100_000)
    parser.add_argument("iters", nargs="?", type=int, default=30)
    baseline_options(parser, "plain recall")
    args = parser.parse_args(argv[1:])
    retrieval = corpus(Path(__file__).resolve().parent)
    if not (1000 <= args.n <= retrieval.MAX_N and 1 <= args.iters <= retrieval.MAX_ITERS):
        print(f"usage: rewording_bench.py [N 1000..{retrieval.MAX_N}] [ITERS 1..]", file=sys.stderr)
        return 2
    load_before = round(os.getloadavg()[0], 2)
    base = None if args.baseline is None else Checkout(args.baseline, args.baseline_python, args.n)
    try:
        with temporary_data("synapse-rewordings-") as folder:
            asked = asking(retrieval, folder, args.n)

            def reworded(count: int) -> Callable[[], tuple[float, float]]:
                return lambda: timed(lambda: asked(REWORDINGS[:count]))

            operations: dict[int | str, Callable[[], tuple[float, float]]] = {
                count: reworded(count) for count in range(len(REWORDINGS) + 1)
            }
            for operation in operations.values():
                operation()  # the untimed warm-up
            report: dict[str, Any] = {
                "python": platform.python_version(),
                "sqlite": sqlite3.sqlite_version,
                "machine": f"{os.cpu_count()} cores {platform.machine()}",
                "memories": args.n,
                "iterations": args.iters,
            }
            if base is not None:
                report["baseline_code"] = base.ready()
                operations[BASELINE] = lambda: base.recall(retrieval.SELECTIVE)
            wall: dict[int | str, list[float]] = {name: [] for name in operations}
            cpu: dict[int | str, list[float]] = {name: [] for name in operations}
            report["load_average"] = [load_before, round(os.getloadavg()[0], 2)]
            for turn in range(args.iters):
                order = list(operations) if turn % 2 == 0 else list(reversed(operations))
                for name in order:
                    spent_wall, spent_cpu = operations[name]()
                    wall[name].append(spent_wall)
                    cpu[name].append(spent_cpu)
            report["load_average"].append(round(os.getloadavg()[0], 2))
            report.update(figures(wall, cpu))
    finally:
        if base is not None:
            base.close()
    print(json.dumps(report, indent=2))
    return 0


def figures(
    wall: dict[int | str, list[float]], cpu: dict[int | str, list[float]]
) -> dict[str, Any]:
    """Each operation's spread, and its p95 over the plain recall's and the baseline's."""
    spreads = {name: {**spread(wall[name], ""), **spread(cpu[name], "cpu_")} for name in wall}
    plain = spreads[0]
    base = spreads.get(BASELINE)
    out: dict[str, Any] = {}
    if base is not None:
        out[BASELINE] = base
    for name, figure in spreads.items():
        if name == BASELINE:
            continue
        assert isinstance(name, int)
        entry: dict[str, Any] = {
            **figure,
            "cpu_p50_ratio": round(figure["cpu_p50_ms"] / plain["cpu_p50_ms"], 2),
            "cpu_p95_ratio": round(figure["cpu_p95_ms"] / plain["cpu_p95_ms"], 2),
            "p95_ratio": round(figure["p95_ms"] / plain["p95_ms"], 2),
        }
        if base is not None:
            compounded, added = round(1.5**name, 3), 1 + 0.5 * name
            over = {
                "wall": round(figure["p95_ms"] / base["p95_ms"], 2),
                "cpu": round(figure["cpu_p95_ms"] / base["cpu_p95_ms"], 2),
            }
            entry["p95_over_baseline"] = over
            entry["limit_compounded"], entry["limit_added"] = compounded, added
            entry["met_compounded"] = {kind: ratio <= compounded for kind, ratio in over.items()}
            entry["met_added"] = {kind: ratio <= added for kind, ratio in over.items()}
        out[f"rewordings_{name}"] = entry
    return out


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
