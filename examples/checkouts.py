"""A checkout's recall in a process of its own, for the benchmarks that time two
versions of the code over the same corpus, taking turns (rewording_bench.py,
scale_bench.py): `python examples/checkouts.py CHECKOUT N`.

That process runs this file with the checkout first on its PYTHONPATH: it seeds
a store of N memories with that checkout's examples/retrieval.py, so that the store is
as its own code leaves it, says which code runs, then answers each line it reads (a
word) with the wall and CPU milliseconds of one recall of that word, until its input
closes. A corpus from before the rare word (retrieval.RARE) gets the same ten notes
holding it, through the service, so that both sides can be asked it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
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

import arguments

HERE = Path(__file__).resolve().parent


def corpus(examples: Path, name: str = "retrieval") -> ModuleType:
    """The examples/retrieval.py of a checkout: its seed writes the store as that
    checkout's code does, which that checkout's code can read."""
    spec = importlib.util.spec_from_file_location(name, examples / "retrieval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
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
    Here, with `spread`, rather than in retrieval.py, which imports the store's code:
    a checkout's process imports this file before it knows that code can be read."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["SYNAPSE_DATA"] = str(folder / "data")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def seeded(retrieval: ModuleType, folder: Path, n: int) -> tuple[Any, Any]:
    """The service and an outside-git scope over a store of N seeded memories (and the
    rare word's notes, for a corpus from before them)."""
    from synapse_git import settings
    from synapse_git.service import Synapse

    retrieval.seed(folder / "data" / "memory.db", n)
    svc = Synapse(settings.load())
    outside = folder / "outside"
    outside.mkdir()
    scope = svc.scope(outside)
    if not hasattr(retrieval, "RARE"):
        now = corpus(HERE, "retrieval_now")
        for i, (body, source, _) in enumerate(retrieval.bodies(1000), start=1):
            if i in now.RARE_AT:
                svc.remember(now.holding_rare(body), scope, source=source, is_global=True)
    return svc, scope


def worker(checkout: Path, n: int) -> int:
    """The other checkout's side: seed, say which code runs, then time one recall of
    each word read until the input closes."""
    import synapse_git

    retrieval = corpus(checkout / "examples")
    with temporary_data("synapse-checkout-") as folder:
        svc, scope = seeded(retrieval, folder, n)
        print(json.dumps({"code": str(Path(synapse_git.__file__).parent)}), flush=True)
        warm: set[str] = set()
        for line in sys.stdin:
            word = line.strip()
            if word not in warm:
                svc.recall(word, scope)  # the untimed warm-up
                warm.add(word)
            print(json.dumps(timed(lambda w=word: svc.recall(w, scope).as_json())), flush=True)
    return 0


def spread(values: list[float], prefix: str) -> dict[str, float]:
    """p50, p95 and max of `values` in milliseconds, their keys led by `prefix`."""
    values = sorted(values)
    return {
        f"{prefix}p50_ms": round(statistics.median(values), 3),
        f"{prefix}p95_ms": round(values[min(len(values) - 1, int(len(values) * 0.95))], 3),
        f"{prefix}max_ms": round(values[-1], 3),
    }


class Checkout:
    """A checkout's recall over a store of N memories, run in a process of its own."""

    def __init__(self, checkout: Path, python: Path | None, n: int) -> None:
        if python is None:
            venv = checkout / ".venv" / "bin" / "python"
            python = venv if venv.exists() else Path(sys.executable)
        env = {**os.environ, "PYTHONPATH": str(checkout), "SYNAPSE_SEMANTIC": "off"}
        self.process = subprocess.Popen(
            [str(python), str(Path(__file__).resolve()), str(checkout), str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.checkout = checkout
        self.code = ""

    def ready(self) -> str:
        self.code = json.loads(self._line())["code"]
        return self.code

    def recall(self, word: str) -> tuple[float, float]:
        assert self.process.stdin is not None
        self.process.stdin.write(word + "\n")
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
            raise SystemExit(f"the process of {self.checkout} ended (exit {self.process.wait()})")
        return line


def baseline_options(line: argparse.ArgumentParser, what: str) -> None:
    """--baseline CHECKOUT (`what` of it is timed) and --baseline-python."""
    line.add_argument("--baseline", type=Path, help=f"a checkout whose {what} to time")
    line.add_argument("--baseline-python", type=Path, help="the python to run it with")


def main(argv: list[str]) -> int:
    line = arguments.parser(__doc__)
    line.add_argument("checkout", type=Path, help="the checkout whose recall to time")
    line.add_argument("n", type=int, help="memories in its store")
    args = line.parse_args(argv)
    if not (args.checkout / "examples" / "retrieval.py").is_file():
        line.error(f"{args.checkout} holds no examples/retrieval.py")
    if args.n < 1000:
        line.error(f"n must be at least 1000, not {args.n}")
    return worker(args.checkout, args.n)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
