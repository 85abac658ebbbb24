"""Warm recall at two or more store sizes, against another checkout:
`python examples/scale_bench.py [ITERS] [--sizes N ...] [--baseline CHECKOUT]`
(defaults 200 and 10000 100000).

At each size a process of its own (examples/checkouts.py) seeds the corpus of
examples/retrieval.py in a temporary store (removed afterwards) and recalls
three words in process, as a long-lived MCP server does (JSON of the answer
written out; its own CPU time):

- `nebulon`, in the same ten memories at every size (retrieval.RARE), as a
  function's name is in a store however large it grows;
- `quasar`, in one memory in a thousand: ten times as many at ten times the size;
- `zephyr`, in every memory.

With `--baseline CHECKOUT`, a process per size runs that checkout's code
(`CHECKOUT/.venv/bin/python` unless `--baseline-python` names another) over
the same corpus seeded with its own examples/retrieval.py. Semantic recall is
off on both sides: the seeded stores hold no vectors.

Every store is seeded first; then every word of every side at every size takes
its turn within each iteration, in an order reversed every other iteration, so
that other work on the machine weighs on all of them alike.
Prints JSON: the load average at the start and the end, per size, side and word
the CPU and wall p50 / p95 / max in milliseconds, and per side and word the CPU
p50 of each size over the smallest size's (`growth`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
from collections.abc import Callable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

import arguments
from checkouts import Checkout, baseline_options, corpus, spread

HERE = Path(__file__).resolve().parent
THIS = "this"
BASELINE = "baseline"


def main(argv: list[str]) -> int:
    parser = arguments.parser(__doc__)
    parser.add_argument("iters", nargs="?", type=int, default=200)
    parser.add_argument("--sizes", nargs="+", type=int, default=[10_000, 100_000])
    baseline_options(parser, "recall")
    args = parser.parse_args(argv[1:])
    os.environ["SYNAPSE_SEMANTIC"] = "off"
    retrieval = corpus(HERE)
    if not 1 <= args.iters <= retrieval.MAX_ITERS or not all(
        1000 <= n <= retrieval.MAX_N for n in args.sizes
    ):
        print(
            f"usage: scale_bench.py [ITERS 1..{retrieval.MAX_ITERS}]"
            f" [--sizes N ... (1000..{retrieval.MAX_N})] [--baseline CHECKOUT]",
            file=sys.stderr,
        )
        return 2
    words = {"rare": retrieval.RARE, "selective": retrieval.SELECTIVE, "common": retrieval.COMMON}
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "machine": f"{os.cpu_count()} cores {platform.machine()}",
        "iterations": args.iters,
        "words": words,
    }
    report["load_average"] = [round(os.getloadavg()[0], 2)]
    report["sizes"] = measure(retrieval, sorted(set(args.sizes)), args, words, report)
    report["load_average"].append(round(os.getloadavg()[0], 2))
    report["growth"] = growth(report["sizes"])
    print(json.dumps(report, indent=2))
    return 0


def measure(
    retrieval: Any,
    sizes: list[int],
    args: argparse.Namespace,
    words: dict[str, str],
    report: dict[str, Any],
) -> dict[str, Any]:
    """Every word on every side at every size, all taking turns, so that a change in
    the machine's load weighs on the sizes alike, not only on the sides. Each size of
    each side is a process of its own holding one store, as an MCP server does."""
    Name = tuple[str, str, str]  # size, side, kind
    sides = {THIS: (HERE.parent, Path(sys.executable))}
    if args.baseline is not None:
        sides[BASELINE] = (args.baseline, args.baseline_python)
    operations: dict[Name, Callable[[], tuple[float, float]]] = {}
    with ExitStack() as stack:
        started = {}
        for n in sizes:
            for side, (checkout, python) in sides.items():
                process = Checkout(checkout, python, n)
                stack.callback(process.close)
                started[(str(n), side)] = process
        for (size, side), process in started.items():
            code = process.ready()
            if side == BASELINE:
                report["baseline_code"] = code
            for kind, word in words.items():
                operations[(size, side, kind)] = partial(process.recall, word)
        wall: dict[Name, list[float]] = {name: [] for name in operations}
        cpu: dict[Name, list[float]] = {name: [] for name in operations}
        for turn in range(args.iters):
            order = list(operations) if turn % 2 == 0 else list(reversed(operations))
            for name in order:
                spent_wall, spent_cpu = operations[name]()
                wall[name].append(spent_wall)
                cpu[name].append(spent_cpu)
    out: dict[str, Any] = {}
    for name in wall:
        size, side, kind = name
        figures = {**spread(wall[name], ""), **spread(cpu[name], "cpu_")}
        out.setdefault(size, {}).setdefault(side, {})[kind] = figures
    return out


def growth(sizes: dict[str, Any]) -> dict[str, Any]:
    """Each word's CPU p50 at every size over the smallest size's, per side."""
    smallest = sizes[min(sizes, key=int)]
    out: dict[str, Any] = {}
    for n, row in sizes.items():
        for side in (THIS, BASELINE):
            for kind, figure in row.get(side, {}).items():
                first = smallest[side][kind]["cpu_p50_ms"]
                ratio = round(figure["cpu_p50_ms"] / first, 2) if first else None
                out.setdefault(side, {}).setdefault(kind, {})[n] = ratio
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv))
