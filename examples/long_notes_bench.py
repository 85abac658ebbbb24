"""Warm lexical recall over long notes, in process.

    python examples/long_notes_bench.py [MEMORIES] [ROUNDS] [--store DIR]

Builds a store of MEMORIES (default 3000) global memories of 2 to 8 KB, each
the example store's ASCII bodies (synapse_git/examples/memories.jsonl) joined at random,
then asks the questions of examples/semantic/*.toml ROUNDS times (default 2)
after one untimed round, with recall kept lexical (SYNAPSE_SEMANTIC=off). A
long note costs coverage more than a short one: every word of it may be
looked at (docs/semantic.md). Prints JSON: the CPU milliseconds of a recall,
p50, p95 and mean, and the load average before and after.

--store DIR keeps the store in DIR, or reuses the one there, so that another
checkout's Python can run this file over the same store in turn.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from semantic_bench import questions, templates


def bodies(count: int) -> list[str]:
    plain = [body for body in templates() if body.isascii()]
    rng = random.Random(3)
    out = []
    for n in range(count):
        parts: list[str] = []
        size, wanted = 0, rng.randint(2000, 8000)
        while size < wanted:
            parts.append(rng.choice(plain))
            size += len(parts[-1]) + 1
        out.append(f"Note {n}. " + " ".join(parts))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("memories", nargs="?", type=int, default=3000)
    parser.add_argument("rounds", nargs="?", type=int, default=2)
    parser.add_argument("--store", type=Path, help="keep the store in this folder, or reuse it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="synapse-long-notes-") as work:
        data = (args.store if args.store is not None else Path(work)) / "data"
        kept = (data / "memory.db").exists()
        data.mkdir(parents=True, exist_ok=True)
        os.environ["SYNAPSE_DATA"] = str(data)
        os.environ["SYNAPSE_SEMANTIC"] = "off"
        from synapse_git.service import Synapse

        svc = Synapse()
        if not kept:
            lines = [json.dumps({"body": body, "project": None}) for body in bodies(args.memories)]
            svc.import_lines(lines)
        scope = svc.scope(Path(work))
        asked = [question for question, _ in questions()]
        load = os.getloadavg()[0]
        for question in asked:
            svc.recall(question, scope)
        spent = []
        for _ in range(args.rounds):
            for question in asked:
                started = time.process_time()
                svc.recall(question, scope)
                spent.append((time.process_time() - started) * 1000)
        spent.sort()
        report = {
            "store": "reused" if kept else "built",
            "recalls": len(spent),
            "cpu_ms_p50": round(statistics.median(spent), 1),
            "cpu_ms_p95": round(spent[int(len(spent) * 0.95) - 1], 1),
            "cpu_ms_mean": round(statistics.fmean(spent), 1),
            "load_average_1min": [round(load, 2), round(os.getloadavg()[0], 2)],
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
