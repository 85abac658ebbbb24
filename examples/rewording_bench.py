"""Recall with 0 to 4 rewordings, against another checkout's plain recall:
`python examples/rewording_bench.py [N] [ITERS] [--baseline CHECKOUT]`
(defaults 100000 and 30).

Seeds the corpus of examples/retrieval.py (N memories, `quasar` in every
thousandth) in a temporary store, removed afterwards, and recalls `quasar`
alone and with one to four rewordings of two words each (every word in about
one memory in 170; docs/recall.md, "Cost per rewording").

With `--baseline CHECKOUT`, a second process runs this file with that
checkout's code (`CHECKOUT/.venv/bin/python` unless `--baseline-python` names
another, and CHECKOUT first on its PYTHONPATH), seeds the same corpus with that
checkout's examples/retrieval.py, so that its store is as its own code leaves
it, and recalls `quasar` alone on request. It need not know of rewordings, so
the code from before them can be the baseline.

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

import argparse
import importlib.util
import json
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from synapse_git import settings
from synapse_git.service import Synapse

# Two words each of the vocabulary of examples/retrieval.py (each word in about
# one memory in 170); its REWORDINGS are the first two.
REWORDINGS = ["flestoma lolo", "miwabri rurupepe", "kavosa trami", "drochasto sakoti"]
BASELINE = "baseline"


def corpus(examples: Path) -> ModuleType:
    """The examples/retrieval.py of a checkout: its seed writes the store as that
    checkout's code does, which a baseline's code can read."""
    spec = importlib.util.spec_from_file_location("retrieval", examples / "retrieval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["retrieval"] = module
    spec.loader.exec_module(module)
    return module


def timed(operation: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one recall, its JSON written out."""
    start, start_cpu = time.perf_counter(), time.process_time()
    json.dumps(operation(), ensure_ascii=False)
    return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000


@contextmanager
def temporary_data(prefix: str) -> Iterator[Path]:
    """A scratch folder whose `data` is SYNAPSE_DATA for this process; removed afterwards.
    (retrieval.py has its own, which the baseline checkout's copy of it may lack.)"""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["SYNAPSE_DATA"] = str(folder / "data")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def seeded(retrieval: ModuleType, folder: Path, n: int) -> Callable[[list[str]], Any]:
    """Recall of `quasar` with the given rewordings from a store of N seeded memories."""
    retrieval.seed(folder / "data" / "memory.db", n)
    svc = Synapse(settings.load())
    outside = folder / "outside"
    outside.mkdir()
    scope = svc.scope(outside)

    def asking(rewordings: list[str]) -> Any:
        if not rewordings:
            # Without the keyword, so that code from before rewordings runs it too.
            return svc.recall(retrieval.SELECTIVE, scope).as_json()
        return svc.recall(retrieval.SELECTIVE, scope, alternatives=rewordings).as_json()

    return asking


def worker(checkout: Path, n: int) -> int:
    """The baseline's side: seed, say which code runs, then time one plain recall
    per line read until stdin closes."""
    retrieval = corpus(checkout / "examples")
    with temporary_data("synapse-rewordings-base-") as folder:
        asking = seeded(retrieval, folder, n)
        asking([])  # the untimed warm-up
        import synapse_git

        print(json.dumps({"code": str(Path(synapse_git.__file__).parent)}), flush=True)
        for _ in sys.stdin:
            print(json.dumps(timed(lambda: asking([]))), flush=True)
    return 0


class Baseline:
    """The other checkout's recall, run in a process of its own."""

    def __init__(self, checkout: Path, python: Path | None, n: int) -> None:
        if python is None:
            venv = checkout / ".venv" / "bin" / "python"
            python = venv if venv.exists() else Path(sys.executable)
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        self.process = subprocess.Popen(
            [str(python), str(Path(__file__).resolve()), "--worker", str(checkout), str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.code = ""

    def ready(self) -> str:
        self.code = json.loads(self._line())["code"]
        return self.code

    def recall(self) -> tuple[float, float]:
        assert self.process.stdin is not None
        self.process.stdin.write("recall\n")
        self.process.stdin.flush()
        wall, cpu = json.loads(self._line())
        return float(wall), float(cpu)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)

    def _line(self) -> str:
        out: IO[str] | None = self.process.stdout
        line = out.readline() if out is not None else ""
        if not line:
            raise SystemExit(f"the baseline process ended (exit {self.process.wait()})")
        return line


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="rewording_bench.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("n", nargs="?", type=int, default=100_000)
    parser.add_argument("iters", nargs="?", type=int, default=30)
    parser.add_argument("--baseline", type=Path, help="a checkout whose plain recall to time")
    parser.add_argument("--baseline-python", type=Path, help="the python to run it with")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv[1:])
    if args.worker is not None:
        return worker(args.worker, args.n)
    retrieval = corpus(Path(__file__).resolve().parent)
    if not (1000 <= args.n <= retrieval.MAX_N and 1 <= args.iters <= retrieval.MAX_ITERS):
        print(f"usage: rewording_bench.py [N 1000..{retrieval.MAX_N}] [ITERS 1..]", file=sys.stderr)
        return 2
    load_before = round(os.getloadavg()[0], 2)
    base = None if args.baseline is None else Baseline(args.baseline, args.baseline_python, args.n)
    try:
        with temporary_data("synapse-rewordings-") as folder:
            asking = seeded(retrieval, folder, args.n)

            def reworded(count: int) -> Callable[[], tuple[float, float]]:
                return lambda: timed(lambda: asking(REWORDINGS[:count]))

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
                operations[BASELINE] = base.recall
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
    spread = {name: {**_spread(wall[name], ""), **_spread(cpu[name], "cpu_")} for name in wall}
    plain = spread[0]
    base = spread.get(BASELINE)
    out: dict[str, Any] = {}
    if base is not None:
        out[BASELINE] = base
    for name, figure in spread.items():
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


def _spread(values: list[float], prefix: str) -> dict[str, float]:
    values = sorted(values)
    return {
        f"{prefix}p50_ms": round(statistics.median(values), 3),
        f"{prefix}p95_ms": round(values[min(len(values) - 1, int(len(values) * 0.95))], 3),
        f"{prefix}max_ms": round(values[-1], 3),
    }


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
