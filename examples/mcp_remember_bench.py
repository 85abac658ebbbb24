"""`remember` at scale over MCP: `python examples/mcp_remember_bench.py [N] [CALLS]`
(defaults 10000 and 100).

Seeds a temporary store with N memories of the retrieval benchmark's corpus
(global, as retrieval.py seeds them), then starts `synapse mcp` in a fresh git
repository through the SDK's stdio client (offering the repository as its
root), once for each protocol era, and times CALLS `remember` calls of new
project memories after one untimed warm-up. Beside them: the same number of
remembers in-process through the service, as a one-shot command opens the
store and as the MCP server keeps it, and the CPU the server process spent
on the timed calls (read from /proc, so Linux only), which the load of a
shared machine does not inflate. SYNAPSE_SEMANTIC=off leaves the semantic
extra's model out, if it is installed. Prints JSON; the store and repository
are removed afterwards.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from arguments import counts
from checkouts import temporary_data
from retrieval import MAX_N, seed
from stress import GIT_ENV

SYNAPSE = Path(sys.executable).with_name("synapse")


def note(kind: str, i: int) -> str:
    """A new memory, unlike the corpus and every other note, naming one file."""
    return f"The {kind} note {i}: the release script for service {i} is tools/release_{i}.sh."


def spread(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "p50_ms": round(statistics.median(values), 3),
        "p95_ms": round(values[min(len(values) - 1, int(len(values) * 0.95))], 3),
    }


def server_cpu_s() -> float:
    """User + system CPU seconds of this process's `synapse mcp` children so far."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[1]) == os.getpid() and b"mcp" in cmdline:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def in_process(repo: Path, calls: int, *, long_lived: bool) -> dict[str, Any]:
    from synapse_git.service import Synapse

    svc = Synapse(long_lived=long_lived)
    scope = svc.scope(repo)
    kind = f"in-process {long_lived}"
    svc.remember(note(f"{kind} warm-up", 0), scope)
    times, cpus = [], []
    for i in range(calls):
        begin, begin_cpu = time.perf_counter(), time.process_time()
        svc.remember(note(kind, i), scope)
        times.append((time.perf_counter() - begin) * 1000)
        cpus.append((time.process_time() - begin_cpu) * 1000)
    return {**spread(times), "cpu_p50_ms": round(statistics.median(cpus), 3)}


def over_mcp(repo: Path, env: dict[str, str], calls: int, mode: str) -> dict[str, Any]:
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.types import ListRootsResult, Root

    async def roots(context: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=repo.as_uri())])

    async def run() -> dict[str, Any]:
        params = StdioServerParameters(command=str(SYNAPSE), args=["mcp"], env=env, cwd="/")
        async with Client(params, list_roots_callback=roots, mode=mode) as client:
            warm = await client.call_tool("remember", {"body": note(f"{mode} warm-up", 0)})
            assert not warm.is_error, warm.content
            times = []
            cpu_before, client_before = server_cpu_s(), time.process_time()
            for i in range(calls):
                begin = time.perf_counter()
                result = await client.call_tool("remember", {"body": note(mode, i)})
                times.append((time.perf_counter() - begin) * 1000)
                assert not result.is_error, result.content
            server = server_cpu_s() - cpu_before
            client_cpu = time.process_time() - client_before
        return {
            **spread(times),
            "server_cpu_ms_per_call": round(server * 1000 / calls, 3),
            "client_cpu_ms_per_call": round(client_cpu * 1000 / calls, 3),
        }

    return anyio.run(run)


def main(argv: list[str]) -> int:
    n, calls = counts(__doc__, argv[1:], N=(10_000, 0, MAX_N), CALLS=(100, 1, 10_000))
    with temporary_data("synapse-mcp-remember-") as folder:
        seed_s = seed(folder / "data" / "memory.db", n) if n else 0.0
        repo = folder / "repo"
        repo.mkdir()
        env = {**os.environ, **GIT_ENV}
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
        (repo / "README.md").write_text("bench\n", encoding="utf-8")
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        subprocess.run(["git", "commit", "-qm", "bench"], cwd=repo, env=env, check=True)
        load_before = os.getloadavg()[0]
        # The 2025-11-25 handshake (roots asked once), and 2026-07-28, whose calls
        # each carry a round trip in which the client lists its roots.
        legacy = over_mcp(repo, env, calls, "legacy")
        current = over_mcp(repo, env, calls, "auto")
        # As a CLI command opens the store, and as the MCP server keeps it (long-lived).
        one_shot = in_process(repo, calls, long_lived=False)
        kept = in_process(repo, calls, long_lived=True)
        report = {
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "machine": f"{os.cpu_count()} cores {platform.machine()}",
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "store_memories": n,
            "calls": calls,
            "seed_s": round(seed_s, 2),
            "remember_over_mcp_2025_11_25": legacy,
            "remember_over_mcp_2026_07_28": current,
            "remember_in_process_long_lived": kept,
            "remember_in_process": one_shot,
        }
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
