"""Semantic recall costs: embed throughput, and warm MCP recall at a store size.

    python examples/semantic_bench.py [MEMORIES] [CALLS] [--store DIR] [--synapse PATH]
                                      [--rewordings N] [--sizes N [N ...]] [--cli RUNS]
                                      [--calls N]

MEMORIES and CALLS default to 10000 and 200.

Builds a temporary store of MEMORIES global memories made from the example
store's bodies (synapse_git/examples/memories.jsonl), each with its own number and words.
`embed` is timed on the first EMBEDDED of them (real model runs); the others
get vectors near their template's (the template's vector plus noise), since
what recall costs does not depend on the values. Then one `synapse mcp`
process answers CALLS recalls (the questions of examples/semantic/*.toml, in
turn) through the SDK's stdio client: the first call (model and matrix load)
is reported apart, the rest as p50 / p95; the same again with SYNAPSE_SEMANTIC=off
gives the lexical recall's own cost. Each run also gives the server process's
CPU time per warm call (read from /proc around the calls). Needs the semantic
extra. Prints JSON.

--store DIR keeps the store in DIR: built there on the first run, reused as it
is after (no embed figures then), so that runs of two checkouts can alternate
over one store; --synapse PATH names the `synapse` command that serves MCP
(another checkout's virtualenv, say; by default the one beside this Python).
--rewordings N asks tests/recall/sets/blind-a.json's questions instead, each
with its first N rewordings (each one embedded too, with the extra).
--sizes N [N ...] measures a store of each size in turn (DIR/N with --store),
one report each: `--sizes 10000 100000` for warm recall as the store grows.
The server's CPU is given per call on average: /proc counts it in clock ticks
(10 ms), too coarse to read for one call.
--cli RUNS also runs `synapse memory recall QUESTION` RUNS times lexical and RUNS
times with the extra, taking turns, and gives each one's CPU time (user and
system, from the finished process: start-up, imports, the model's load and the
recall) at the median and p95, and the median with the extra over the lexical one.
MEMORIES, CALLS, RUNS and every size must be at least 1; with --store over a kept
store, MEMORIES is not used. With --sizes, MEMORIES is not given and CALLS is
given as --calls N (`--sizes 10000 100000 --calls 100`).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

import arguments

HERE = Path(__file__).parent
SYNAPSE = Path(sys.executable).with_name("synapse")
EMBEDDED = 1000
WORDS = "alpha bravo cache queue worker shard replica token webhook ledger cursor batch"


def templates() -> list[str]:
    text = (HERE.parent / "synapse_git" / "examples" / "memories.jsonl").read_text("utf-8")
    return [json.loads(line)["body"] for line in text.split("\n") if line.strip()]


def bodies(count: int) -> list[tuple[int, str]]:
    """(template number, body) pairs: every example body, numbered and varied."""
    rng = random.Random(7)
    out = []
    known = templates()
    for n in range(count):
        t = n % len(known)
        extra = " ".join(rng.sample(WORDS.split(" "), 3))
        out.append((t, f"{known[t]} (note {n}: {extra})"))
    return out


def questions(rewordings: int = 0) -> list[tuple[str, list[str]]]:
    """The questions asked, each with no rewording; or (`rewordings` > 0) those of
    tests/recall/sets/ with the first `rewordings` a caller wrote for each
    (tests/recall/sets/blind-a.json)."""
    if rewordings:
        sets = HERE.parent / "tests" / "recall" / "sets"
        blind = json.loads((sets / "blind-a.json").read_text("utf-8"))
        return [(query, said[:rewordings]) for query, said in blind.items()]
    found = []
    # The dev and test sets; the fresh one is for quality only (semantic_eval.py).
    for path in sorted(
        p for split in ("dev", "test") for p in (HERE / "semantic").glob(f"{split}-*.toml")
    ):
        found += [case["query"] for case in tomllib.loads(path.read_text("utf-8"))["case"]]
    return [(query, []) for query in found]


def build(count: int) -> dict[str, Any]:
    import numpy as np

    from synapse_git.semantic import model, vectors
    from synapse_git.service import Synapse
    from synapse_git.store import database, memories

    made = bodies(count)
    os.environ["SYNAPSE_SEMANTIC"] = "off"
    svc = Synapse()
    lines = [json.dumps({"body": body, "project": None}) for _, body in made[:EMBEDDED]]
    svc.import_lines(lines)
    os.environ["SYNAPSE_SEMANTIC"] = "on"
    svc = Synapse()
    svc.semantic.load()
    started = time.perf_counter()
    report = svc.embed()
    spent = time.perf_counter() - started
    # The rest straight into the table (import's per-line checks would take longer
    # than the measurement); the triggers index them as any write does.
    with svc.connection() as conn, database.transaction(conn):
        for _, body in made[EMBEDDED:]:
            memories.insert(conn, body, "", None)
    os.environ["SYNAPSE_SEMANTIC"] = "on"
    loaded = svc.semantic.load()
    assert loaded is not None
    base = loaded.embed(templates())
    rng = np.random.default_rng(7)
    with svc.connection() as conn, database.transaction(conn):
        rows = []
        for memory_id, body in vectors.missing(conn, model.MODEL_ID, limit=count):
            t = made[memory_id - 1][0]
            near = base[t] + rng.normal(0, 0.02, base.shape[1]).astype(np.float32)
            rows.append((memory_id, body, model.pack(near / np.linalg.norm(near))))
        vectors.put(conn, model.MODEL_ID, rows)
    return {
        "embedded": report.embedded,
        "embed_s": round(spent, 2),
        "embed_per_s": round(report.embedded / spent, 1),
    }


def _children_cpu() -> float | None:
    """CPU seconds of this process's children (the MCP server), from /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    total = 0.0
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def warm_recalls(
    repo: Path, env: dict[str, str], calls: int, synapse: Path = SYNAPSE, rewordings: int = 0
) -> dict[str, Any]:
    import anyio
    from mcp import Client, StdioServerParameters

    asked = [
        {"query": query, **({"alternatives": said} if said else {})}
        for query, said in questions(rewordings)
    ]

    async def run() -> dict[str, Any]:
        params = StdioServerParameters(
            command=str(synapse), args=["mcp", "--project", str(repo)], env=env, cwd="/"
        )
        async with Client(params) as client:
            started = time.perf_counter()
            first = await client.call_tool("recall", asked[0])
            cold = time.perf_counter() - started
            assert not first.is_error, first.content
            semantic = (first.structured_content or {}).get("semantic")
            times = []
            cpu_before = _children_cpu()
            for n in range(calls):
                started = time.perf_counter()
                result = await client.call_tool("recall", asked[n % len(asked)])
                times.append(time.perf_counter() - started)
                assert not result.is_error, result.content
            cpu_after = _children_cpu()
        times.sort()
        report: dict[str, Any] = {
            "semantic": semantic,
            "first_recall_ms": round(cold * 1000, 1),
            "calls": calls,
            "p50_ms": round(statistics.median(times) * 1000, 1),
            "p95_ms": round(times[int(len(times) * 0.95) - 1] * 1000, 1),
        }
        if cpu_before is not None and cpu_after is not None:
            report["server_cpu_ms_per_call"] = round((cpu_after - cpu_before) / calls * 1000, 1)
        return report

    return anyio.run(run)


def cli_recalls(repo: Path, env: dict[str, str], runs: int, synapse: Path) -> dict[str, Any]:
    """CPU milliseconds of one-shot `synapse memory recall` commands, lexical and with the
    extra, taking turns over the questions."""
    asked = [query for query, _ in questions()]
    spent: dict[str, list[float]] = {"lexical": [], "extra": []}
    walls: dict[str, list[float]] = {"lexical": [], "extra": []}
    for n in range(runs):
        for kind, switch in (("lexical", "off"), ("extra", "on")):
            started = time.perf_counter()
            child = subprocess.Popen(
                [str(synapse), "memory", "recall", asked[n % len(asked)]],
                cwd=repo,
                env={**env, "SYNAPSE_SEMANTIC": switch},
                stdout=subprocess.DEVNULL,
            )
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            assert child.returncode == 0, f"recall failed: exit {child.returncode}"
            walls[kind].append(time.perf_counter() - started)
            spent[kind].append(usage.ru_utime + usage.ru_stime)

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        at = max(0, int(len(ordered) * 0.95 + 0.5) - 1)
        return {
            "median": round(statistics.median(ordered) * 1000, 1),
            "p95": round(ordered[at] * 1000, 1),
        }

    report: dict[str, Any] = {"runs": runs}
    for kind in spent:
        report[kind] = {"cpu_ms": summary(spent[kind]), "wall_ms": summary(walls[kind])}
    lexical, extra = report["lexical"]["cpu_ms"]["median"], report["extra"]["cpu_ms"]["median"]
    report["cpu_ratio"] = round(extra / lexical, 2) if lexical else None
    return report


def measure(
    count: int, where: Path, calls: int, synapse: Path, rewordings: int, cli: int = 0
) -> dict[str, Any]:
    """The report for one store of `count` memories kept in `where`."""
    data, repo = where / "data", where / "repo"
    kept = (data / "memory.db").exists() and repo.is_dir()
    data.mkdir(parents=True, exist_ok=True)
    repo.mkdir(exist_ok=True)
    os.environ["SYNAPSE_DATA"] = str(data)
    git_env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com"}
    git_env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}
    env = {**os.environ, **git_env, "SYNAPSE_SEMANTIC": "on"}
    report: dict[str, Any] = {
        "memories": count,
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    if kept:
        with sqlite3.connect(data / "memory.db") as conn:
            report["memories"] = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        report["store"] = "reused"
    else:
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
        subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "b"], cwd=repo, env=env)
        report |= build(count)
    report["store_mb"] = round((data / "memory.db").stat().st_size / 1e6, 1)
    # The same calls with recall kept lexical, for what the dense list adds.
    lexical = {**env, "SYNAPSE_SEMANTIC": "off"}
    asked = (calls, synapse, rewordings)
    report["rewordings"] = rewordings
    report["mcp_recall_lexical"] = warm_recalls(repo, lexical, *asked)
    report["mcp_recall"] = warm_recalls(repo, env, *asked)
    if cli:
        report["cli_recall"] = cli_recalls(repo, env, cli, synapse)
    report["load_average_1min_after"] = round(os.getloadavg()[0], 2)
    return report


def main() -> None:
    parser = arguments.parser(__doc__)
    parser.add_argument("memories", nargs="?", type=int)
    parser.add_argument("calls", nargs="?", type=int)
    parser.add_argument("--store", type=Path, help="keep the store in this folder, or reuse it")
    parser.add_argument("--synapse", type=Path, default=SYNAPSE, help="the command serving MCP")
    parser.add_argument(
        "--rewordings", type=int, default=0, help="send this many rewordings with each question"
    )
    parser.add_argument("--sizes", type=int, nargs="+", help="one store of each size in turn")
    parser.add_argument(
        "--cli", type=int, metavar="RUNS", help="also time RUNS one-shot CLI recalls"
    )
    parser.add_argument("--calls", type=int, metavar="N", dest="calls_n", help="CALLS, named")
    args = parser.parse_args()
    if args.sizes and args.memories is not None:
        # A number before --sizes would be dropped in silence: say so instead.
        parser.error("with --sizes, give no MEMORIES (and CALLS as --calls N)")
    if args.calls is not None and args.calls_n is not None:
        parser.error("CALLS given twice, as a number and as --calls")
    args.memories = 10000 if args.memories is None else args.memories
    if args.calls_n is not None:
        args.calls = args.calls_n
    args.calls = 200 if args.calls is None else args.calls
    sizes = args.sizes or [args.memories]
    # Refused before any work: a store of no memory, or no call, measures nothing.
    for name, value in (("MEMORIES", args.memories), ("CALLS", args.calls)):
        if value < 1:
            parser.error(f"{name} must be at least 1, not {value}")
    if min(sizes) < 1:
        parser.error(f"--sizes must be at least 1 each, not {min(sizes)}")
    if args.cli is not None and args.cli < 1:
        parser.error(f"--cli must be at least 1, not {args.cli}")
    if args.rewordings < 0:
        parser.error(f"--rewordings must be at least 0, not {args.rewordings}")
    reports = []
    with tempfile.TemporaryDirectory(prefix="synapse-semantic-bench-") as work:
        for count in sizes:
            where = args.store if args.store is not None else Path(work)
            if args.sizes:
                where = where / str(count)
            asked = (args.calls, args.synapse, args.rewordings, args.cli or 0)
            reports.append(measure(count, where, *asked))
    print(json.dumps(reports if args.sizes else reports[0], indent=2))


if __name__ == "__main__":
    main()
