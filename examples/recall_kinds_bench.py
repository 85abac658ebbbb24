"""Recall's cost per kind of question as the store grows:
`python examples/recall_kinds_bench.py [ITERS] [N ...]` (defaults 10 and 10000 100000).

Each store holds the labeled corpus of tests/recall/corpus.py (113 notes of a
web shop's codebase) among N - 113 filler notes of about 240 bytes, written in
the words of that corpus (8 of them a note, so each corpus word is in about one
filler note in 100) and the made-up words of examples/retrieval.py. A question
word thus matches ten times as many notes at 100,000 as at 10,000, as it would
in a store ten times larger. The questions are those of tests/recall/sets (dev
and test; `--set dev` or `--set test` for one split, `--set holdout`,
`--set holdout2` and `--set holdout3` for the questions of
recall_kinds_holdout*.toml, written for these stores) by kind:
identifier, lexical, morphology, typo, paraphrase (alone and with its
rewordings) and questions nothing answers; `six words` is every question of
six words or more.

The stores are seeded in temporary folders (removed afterwards) and asked in
turns within each iteration, every kind on every store, so other work on the
machine weighs on all of them alike. Prints JSON: the load average at the start
and the end, then per kind and store the CPU p50 and p95 and the wall p95 per
recall (ms), the share of answerable questions whose first hit is their answer
not marked weak (`top1_strong`, with the questions `missed`), and the CPU p50
of the largest store over the smallest's.
`--calls` also counts, per recall, the misspelling comparisons made
(word_forms.close_among) and the texts whose coverage was worked out. `--stores DIR`
keeps the seeded stores in DIR/N (seeded there when missing, reused when not),
so that runs of two versions of the code read the same stores. ITERS 0 asks
each question once, for `top1_strong` alone.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SETS = HERE.parent / "tests" / "recall" / "sets"
HOLDOUTS = {
    "holdout": HERE / "recall_kinds_holdout.toml",
    "holdout2": HERE / "recall_kinds_holdout2.toml",
    "holdout3": HERE / "recall_kinds_holdout3.toml",
}
sys.path.insert(0, str(HERE.parent / "tests" / "recall"))
sys.path.insert(0, str(HERE))

import retrieval  # noqa: E402
from corpus import MEMORIES  # noqa: E402

from synapse_git import settings  # noqa: E402
from synapse_git.recall import coverage, word_forms  # noqa: E402
from synapse_git.service import Synapse  # noqa: E402
from synapse_git.store import database, merging  # noqa: E402
from synapse_git.textrules import norm_key  # noqa: E402

EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
ENGLISH_A_NOTE = 8
BODY_BYTES = 240


Question = tuple[str, list[str], str | None]


def questions(which: str = "labeled") -> dict[str, list[Question]]:
    """The questions of `which` by kind, with the rewordings to pass and the answer:
    both labeled splits, one of them (`dev`, `test`), or the holdout written for
    these stores (HOLDOUTS)."""
    kinds: dict[str, list[Question]] = {}
    if which in HOLDOUTS:
        paths = [HOLDOUTS[which]]
    else:
        paths = sorted(SETS.glob("*/*.toml" if which == "labeled" else f"{which}/*.toml"))
    for path in paths:
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            expect = case.get("expect")
            kinds.setdefault(case["kind"], []).append((case["query"], [], expect))
            if case.get("alternatives"):
                kinds.setdefault(case["kind"] + " + rewordings", []).append(
                    (case["query"], case["alternatives"], expect)
                )
            if len(case["query"].split()) >= 6:
                kinds.setdefault("six words", []).append((case["query"], [], expect))
    return kinds


def bodies(n: int) -> Iterator[str]:
    """The corpus's notes spread evenly among n - len(MEMORIES) filler notes."""
    rng = random.Random(11)
    english = sorted(
        {w.lower() for body in MEMORIES for w in body.split() if w.isalpha() and len(w) >= 3}
    )
    made_up = retrieval.vocabulary(rng)
    every = max(1, n // len(MEMORIES))
    notes = iter(MEMORIES)
    for i in range(1, n + 1):
        if i % every == 0 and (note := next(notes, None)) is not None:
            yield note
            continue
        parts = rng.sample(english, ENGLISH_A_NOTE)
        size = sum(len(p) + 1 for p in parts)
        while size < BODY_BYTES - 12:
            word = rng.choice(made_up)
            parts.append(word)
            size += len(word) + 1
        rng.shuffle(parts)
        yield " ".join(parts)[:BODY_BYTES].rstrip() + "."


def seed(folder: Path, n: int) -> Synapse:
    """A store of n notes in `folder`, its indexes merged as `memory import` leaves them
    (or the one seeded there before)."""
    os.environ["SYNAPSE_DATA"] = str(folder / "data")
    path = folder / "data" / "memory.db"
    if path.exists():
        return Synapse(settings.load())
    conn = database.connect(path)
    try:
        with database.transaction(conn):
            conn.executemany(
                "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
                " VALUES (?, '', NULL, ?, ?, ?)",
                (
                    (body, stamp, stamp, norm_key(body))
                    for i, body in enumerate(bodies(n), start=1)
                    for stamp in [(EPOCH + timedelta(seconds=i)).isoformat()]
                ),
            )
        merging.after_bulk_write(conn, n)
    finally:
        conn.close()
    return Synapse(settings.load())


class Calls:
    """How many misspelling comparisons and coverage texts one recall makes."""

    def __init__(self) -> None:
        self.close = 0
        self.texts = 0
        close_among, assess = word_forms.close_among, coverage.assess

        def counted_close(term: str, words: Any) -> list[str]:
            words = list(words)
            self.close += len(words)
            return close_among(term, words)

        def counted_assess(texts: Any, *args: Any, **kwargs: Any) -> Any:
            self.texts += len(texts)
            return assess(texts, *args, **kwargs)

        word_forms.close_among = counted_close
        coverage.assess = counted_assess  # type: ignore[assignment]


def timed(ask: Callable[[], Any]) -> tuple[float, float]:
    start, start_cpu = time.perf_counter(), time.process_time()
    json.dumps(ask(), ensure_ascii=False)
    return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("iters", nargs="?", type=int, default=10)
    parser.add_argument("sizes", nargs="*", type=int, default=[10_000, 100_000])
    parser.add_argument("--calls", action="store_true")
    parser.add_argument("--stores", type=Path, default=None)
    parser.add_argument(
        "--set", choices=("labeled", "dev", "test", *HOLDOUTS), default="labeled", dest="which"
    )
    args = parser.parse_args()
    if not 0 <= args.iters <= 1000 or not all(1000 <= n <= 1_000_000 for n in args.sizes):
        print("ITERS is 0 to 1000, each N 1000 to 1000000", file=sys.stderr)
        return 2
    load_start = os.getloadavg()
    folders = {
        n: (args.stores / str(n))
        if args.stores
        else Path(tempfile.mkdtemp(prefix="synapse-kinds-"))
        for n in args.sizes
    }
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    try:
        services = {n: seed(folder, n) for n, folder in folders.items()}
        scopes = {n: services[n].scope(folder) for n, folder in folders.items()}
        load_seeded = os.getloadavg()
        kinds = questions(args.which)
        calls = Calls() if args.calls else None
        cpu: dict[tuple[str, int], list[float]] = {}
        wall: dict[tuple[str, int], list[float]] = {}
        counted: dict[tuple[str, int], list[tuple[int, int]]] = {}
        # The untimed warm-up, which also tells whether the first hit is the answer
        # (not weak) in the larger store as in the smaller: bounded work, same answers.
        first: dict[tuple[str, int], list[bool]] = {}
        missed: dict[tuple[str, int], list[str]] = {}
        for n in args.sizes:
            for kind, asked in kinds.items():
                for query, others, expect in asked:
                    hits = services[n].recall(query, scopes[n], alternatives=others).hits
                    if expect is not None:
                        top = hits[0] if hits else None
                        right = top is not None and not top.weak and expect in top.body
                        first.setdefault((kind, n), []).append(right)
                        if not right:
                            missed.setdefault((kind, n), []).append(query)
        for iteration in range(args.iters):
            order = list(args.sizes) if iteration % 2 == 0 else list(reversed(args.sizes))
            for kind, asked in kinds.items():
                for n in order:
                    svc, scope = services[n], scopes[n]
                    for query, others, _ in asked:
                        before = (calls.close, calls.texts) if calls else (0, 0)
                        spent, spent_cpu = timed(
                            lambda: svc.recall(query, scope, alternatives=others).as_json()  # noqa: B023
                        )
                        wall.setdefault((kind, n), []).append(spent)
                        cpu.setdefault((kind, n), []).append(spent_cpu)
                        if calls:
                            made = (calls.close - before[0], calls.texts - before[1])
                            counted.setdefault((kind, n), []).append(made)
        report: dict[str, Any] = {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{os.cpu_count()} cores {platform.machine()}",
            "iterations": args.iters,
            "questions": args.which,
            "load_average": {
                "start": [round(x, 2) for x in load_start],
                "seeded": [round(x, 2) for x in load_seeded],
                "end": [round(x, 2) for x in os.getloadavg()],
            },
            "kinds": {},
        }
        small, large = min(args.sizes), max(args.sizes)
        for kind, asked in kinds.items():
            entry: dict[str, Any] = {"questions": len(asked)}
            for n in args.sizes:
                entry[str(n)] = {}
                if args.iters:
                    spent = sorted(cpu[(kind, n)])
                    entry[str(n)] = {
                        "cpu_p50_ms": round(statistics.median(spent), 3),
                        "cpu_p95_ms": round(spent[int(len(spent) * 0.95)], 3),
                        "wall_p95_ms": round(sorted(wall[(kind, n)])[int(len(spent) * 0.95)], 3),
                    }
                if (kind, n) in first:
                    right = first[(kind, n)]
                    entry[str(n)]["top1_strong"] = round(sum(right) / len(right), 3)
                    if (kind, n) in missed:
                        entry[str(n)]["missed"] = missed[(kind, n)]
                if calls and args.iters:
                    made = counted[(kind, n)]
                    entry[str(n)]["close_calls"] = round(statistics.mean(c for c, _ in made), 1)
                    entry[str(n)]["coverage_texts"] = round(statistics.mean(t for _, t in made), 1)
            if small != large and args.iters:
                ratio = entry[str(large)]["cpu_p50_ms"] / max(entry[str(small)]["cpu_p50_ms"], 1e-3)
                entry["cpu_p50_ratio"] = round(ratio, 2)
            report["kinds"][kind] = entry
        print(json.dumps(report, indent=1))
    finally:
        for folder in folders.values():
            if args.stores is None:
                shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
