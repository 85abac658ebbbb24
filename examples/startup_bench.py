"""Start-up benchmark: what a person or an MCP client waits for, process by process.

    python examples/startup_bench.py [RUNS] [N] [--synapse PATH ...] [--only PREFIX]
                                                               (defaults 20, 10000)

Seeds a store with N all-global memories of the retrieval benchmark's corpus in
a temporary folder (removed afterwards), makes a git repository there, and runs
each command RUNS times from inside it, the commands taking turns round by
round so that a burst of other work on the machine spreads over all of them:

- `synapse --version`, `memory read ID`, `memory recall WORD`, `memory list`,
  `hook session`: spawn to exit;
- `synapse mcp`: spawn to the answer of the first `recall` tool call (raw
  JSON-RPC over stdio: initialize, initialized, tools/call), and to the
  `initialize` answer alone;
- the floors beneath them: the interpreter starting (`python -c pass`) and
  importing the MCP SDK (`python -c "import mcp"`), with the same Python.

Prints, per command, the median and max wall milliseconds and the median CPU
milliseconds of the process (user + system, which other work on a shared machine
barely moves), with the load average before and after the run. `--synapse`
(repeatable) measures other installations' console scripts, a venv made with a
regular `pip install .` beside an editable one, or an older version beside this
one; their runs take turns too, so they see the same load. By default the
console script beside this Python. `--only mcp` measures only the commands whose
name starts so. Prints JSON.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from checkouts import temporary_data
from retrieval import COMMON, MAX_N, SELECTIVE, seed

RECALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "startup_bench", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}

Run = Callable[[], tuple[float, float]]


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process, spawn to exit; it must succeed."""
    started = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    assert code == 0, (argv, code, errors)
    return elapsed, usage.ru_utime + usage.ru_stime


def mcp_first(
    synapse: str, cwd: Path, env: dict[str, str], *, call: bool, word: str = SELECTIVE
) -> tuple[float, float]:
    """Wall seconds from spawn to the first recall's answer (or, without `call`, to
    the initialize answer), and the server's CPU seconds to its exit right after."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [synapse, "mcp"],
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
    assert answer.get("id") == 1 and "result" in answer, answer
    if call:
        request = {**RECALL, "params": {"name": "recall", "arguments": {"query": word}}}
        process.stdin.write(
            json.dumps(INITIALIZED).encode() + b"\n" + json.dumps(request).encode() + b"\n"
        )
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        assert answer.get("id") == 2, answer
        result = answer["result"]
        assert not result.get("isError") and result["structuredContent"]["hits"], result
    elapsed = time.perf_counter() - started
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_utime + usage.ru_stime


def git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def installation(synapse: str, env: dict[str, str]) -> str:
    """Where the package is imported from: an editable install finds it in the source tree."""
    python = Path(synapse).with_name("python")
    found = subprocess.run(
        [str(python), "-c", "import synapse_git; print(synapse_git.__file__)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return "site-packages" if "site-packages" in found else f"editable ({Path(found).parent})"


def main(argv: list[str]) -> int:
    args = argv[1:]
    scripts: list[str] = []
    while "--synapse" in args:
        at = args.index("--synapse")
        scripts.extend(args[at + 1 : at + 2])
        del args[at : at + 2]
    only = ""
    if "--only" in args:
        at = args.index("--only")
        only = "".join(args[at + 1 : at + 2])
        del args[at : at + 2]
    scripts = scripts or [str(Path(sys.executable).with_name("synapse"))]
    usage = f"usage: startup_bench.py [RUNS] [N 1..{MAX_N}] [--synapse PATH ...] [--only PREFIX]"
    if any(arg in ("-h", "--help") for arg in args):
        print(f"{usage}\n\n{__doc__}")
        return 0
    try:
        runs = int(args[0]) if args else 20
        n = int(args[1]) if len(args) > 1 else 10_000
    except ValueError:
        runs = n = 0
    if len(args) > 2 or not (1 <= runs <= 1000 and 1 <= n <= MAX_N):
        print(usage, file=sys.stderr)
        return 2
    with temporary_data("synapse-startup-") as folder:
        seed(folder / "data" / "memory.db", n)
        repo = folder / "repo"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        (repo / "README.md").write_text("startup bench\n", encoding="utf-8")
        git(repo, "add", "README.md")
        git(repo, "commit", "-q", "-m", "first")
        env = {**os.environ, "HOME": str(folder), "XDG_CONFIG_HOME": str(folder / "config")}
        # As users run it: Python keeps the compiled modules (an editable install's own
        # are written on the warm-up run); without them every start compiles the package.
        no_bytecode = env.pop("PYTHONDONTWRITEBYTECODE", None) is not None
        commands = {
            script: {
                name: run
                for name, run in _commands(script, repo, env, n).items()
                if name.startswith(only)
            }
            for script in scripts
        }
        for table in commands.values():
            for run in table.values():
                run()  # warm the page cache, the snapshot and the store's first-use work
        load_before = os.getloadavg()
        walls = {s: {name: [] for name in table} for s, table in commands.items()}
        cpus = {s: {name: [] for name in table} for s, table in commands.items()}
        for _ in range(runs):
            for script, table in commands.items():
                for name, run in table.items():
                    wall, cpu = run()
                    walls[script][name].append(wall * 1000)
                    cpus[script][name].append(cpu * 1000)
        load_after = os.getloadavg()
        result = {
            "python": platform.python_version(),
            "machine": f"{os.cpu_count()} cores {platform.machine()}",
            "store_memories": n,
            "runs": runs,
            "PYTHONDONTWRITEBYTECODE_dropped": no_bytecode,
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "installations": [
                {
                    "synapse": script,
                    "installed": installation(script, env),
                    "ms": {
                        name: {
                            "wall_p50": round(statistics.median(walls[script][name]), 1),
                            "wall_max": round(max(walls[script][name]), 1),
                            "cpu_p50": round(statistics.median(cpus[script][name]), 1),
                        }
                        for name in table
                    },
                }
                for script, table in commands.items()
            ],
        }
        print(json.dumps(result, indent=2))
    return 0


def _commands(synapse: str, repo: Path, env: dict[str, str], n: int) -> dict[str, Run]:
    middle = str(max(1, n // 2))
    # The selective word is in every thousandth memory; a smaller store has only the common.
    word = SELECTIVE if n >= 1000 else COMMON
    table: dict[str, Run] = {
        name: (lambda extra=extra: timed([synapse, *extra], repo, env))
        for name, extra in (
            ("--version", ["--version"]),
            ("memory read", ["memory", "read", middle]),
            ("memory recall", ["memory", "recall", word]),
            ("memory list", ["memory", "list"]),
            ("hook session", ["hook", "session"]),
        )
    }
    # Floors: the interpreter alone (with this installation's site-packages, so an
    # editable install's path finder counts) and the MCP SDK's own import.
    python = str(Path(synapse).with_name("python"))
    table["floor: python -c pass"] = lambda: timed([python, "-c", "pass"], repo, env)
    table["floor: import mcp"] = lambda: timed([python, "-c", "import mcp"], repo, env)
    table["mcp initialize"] = lambda: mcp_first(synapse, repo, env, call=False)
    table["mcp first recall"] = lambda: mcp_first(synapse, repo, env, call=True, word=word)
    return table


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
