"""MCP server timings: cold start and the overhead of a warm tool call.

    python examples/mcp_bench.py [RUNS] [CALLS]     (defaults 10 and 200)

Cold start is process spawn to the `initialize` answer on stdout (raw JSON-RPC,
no client library in the way), median of RUNS. A warm call is the median (and
95th percentile) time of a tool call through the SDK's stdio client, against
the same service call in-process (including JSON serialization), over CALLS
calls after a warm-up, for the handshake protocol (2025-11-25, roots asked
once; served by the standard-library stdio server) and the 2026-07-28
protocol (served by the SDK; roots asked on every call; and, for comparison,
a client offering no roots). Everything runs in a temporary store and
repository that are removed afterwards. Prints JSON.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SYNAPSE = Path(sys.executable).with_name("synapse")
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "mcp_bench", "version": "1"},
    },
}


def cold_start(env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Seconds from spawn to the initialize answer, and the CPU seconds the server used
    (user + system, to its exit right after): the second barely moves when other work
    shares the machine."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(SYNAPSE), "mcp"],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    process.stdin.flush()
    answer = json.loads(process.stdout.readline())
    elapsed = time.perf_counter() - started
    assert answer.get("id") == 1 and "result" in answer, answer
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_utime + usage.ru_stime


def sdk_import(env: dict[str, str]) -> tuple[float, float]:
    """For comparison: seconds and CPU seconds of a bare `import mcp.server.mcpserver`."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", "import mcp.server.mcpserver"], env=env)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def median_ms(action: Callable[[], object], calls: int) -> float:
    action()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 3)


def seed(repo: Path) -> tuple[Any, Any, int]:
    from synapse_git.service import Synapse

    svc = Synapse()
    scope = svc.scope(repo)
    for n in range(500):
        svc.remember(f"Memory {n}: the deploy script lives in scripts/deploy_{n}.sh", scope)
    body = "".join(f"line {n}: naïve café 日本語 🧠\n" for n in range(300))
    return svc, scope, svc.remember(body, scope, source="notes/long.md").id


def warm_calls(repo: Path, env: dict[str, str], calls: int) -> dict[str, Any]:
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.types import ListRootsResult, Root

    svc, scope, long_id = seed(repo)
    read_args = {"id": long_id, "project": scope.project, "offset": 0}
    recall_args = {"query": "where does the deploy script live", "budget": "balanced"}

    def read_in_process() -> str:
        page = svc.read(long_id, scope, project=scope.project, check_project=True)
        return json.dumps({"memory": None if page is None else page.as_json()})

    in_process = {"readmemory": median_ms(read_in_process, calls)}
    has_recall = hasattr(svc, "recall")
    if has_recall:

        def recall_in_process() -> str:
            return json.dumps(svc.recall(recall_args["query"], scope, budget="balanced").as_json())

        in_process["recall"] = median_ms(recall_in_process, calls)

    async def roots(context: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=repo.as_uri())])

    async def over_mcp(mode: str, offer_roots: bool) -> dict[str, float]:
        # Without roots the server is pointed at the repository with --project.
        args = ["mcp"] if offer_roots else ["mcp", "--project", str(repo)]
        params = StdioServerParameters(command=str(SYNAPSE), args=args, env=env, cwd="/")
        found: dict[str, float] = {}
        callback = roots if offer_roots else None
        async with Client(params, list_roots_callback=callback, mode=mode) as client:
            tools = [("readmemory", read_args)] + ([("recall", recall_args)] if has_recall else [])
            for name, arguments in tools:
                result = await client.call_tool(name, arguments)
                assert not result.is_error, result.content
                times = []
                for _ in range(calls):
                    started = time.perf_counter()
                    await client.call_tool(name, arguments)
                    times.append(time.perf_counter() - started)
                found[name] = round(statistics.median(times) * 1000, 3)
                found[f"{name}_p95"] = round(statistics.quantiles(times, n=20)[-1] * 1000, 3)
        return found

    report: dict[str, Any] = {"in_process_ms": in_process}
    runs = (
        ("legacy", True, "mcp_2025_11_25_ms"),
        ("auto", True, "mcp_2026_07_28_ms"),
        ("auto", False, "mcp_2026_07_28_no_roots_ms"),
    )
    for mode, offer_roots, label in runs:
        measured = anyio.run(over_mcp, mode, offer_roots)
        report[label] = measured
        report[label.replace("_ms", "_overhead_ms")] = {
            name: round(measured[name] - in_process[name], 3) for name in in_process
        }
    return report


def main() -> None:
    from arguments import counts

    runs, calls = counts(__doc__, None, RUNS=(10, 1, None), CALLS=(200, 1, None))
    work = Path(tempfile.mkdtemp(prefix="synapse-mcp-bench-"))
    try:
        data = work / "data"
        data.mkdir()
        repo = work / "repo"
        repo.mkdir()
        git_env = {
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.com",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.com",
        }
        env = {**os.environ, **git_env, "SYNAPSE_DATA": str(data)}
        os.environ.update({"SYNAPSE_DATA": str(data)})
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
        (repo / "README.md").write_text("bench\n", encoding="utf-8")
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "commit", "-qm", "bench"], cwd=repo, env=env, check=True)

        load = os.getloadavg()[0]
        # Interleaved, so a change in the machine's load hits both alike.
        starts, bare = [], []
        for _ in range(runs):
            starts.append(cold_start(env, repo))
            bare.append(sdk_import(env))
        walls = [wall for wall, _ in starts]
        report: dict[str, Any] = {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_1min": round(load, 2),
            "cold_start_s": {
                "runs": runs,
                "median": round(statistics.median(walls), 3),
                "min": round(min(walls), 3),
                "max": round(max(walls), 3),
                "server_cpu_median": round(statistics.median(cpu for _, cpu in starts), 3),
                "sdk_import_alone_median": round(statistics.median(wall for wall, _ in bare), 3),
                "sdk_import_alone_cpu_median": round(statistics.median(cpu for _, cpu in bare), 3),
                "server_adds_cpu_median": round(
                    statistics.median(a[1] - b[1] for a, b in zip(starts, bare, strict=True)), 3
                ),
            },
            "warm_call": {"calls": calls, **warm_calls(repo, env, calls)},
        }
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
