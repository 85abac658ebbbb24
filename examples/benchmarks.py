"""The figures of docs/benchmarks.md, from one run.

    python examples/benchmarks.py            # 1,000 -> 1,000,000 notes: results, pictures, page
    python examples/benchmarks.py --quick --out DIR     # small sizes, a few rounds (tests, CI)

One store grows through the sizes by `synapse memory import` of the same
deterministic ~240-byte notes that examples/retrieval.py makes (the store and
every scratch file live in a temporary folder, removed afterwards). At each
size the run times, round by round and interleaved so that a change in the
machine's load hits every system alike:

- a selective search (a word in one note in a thousand) and a common-term
  search (a word in every note): Synapse in-process through its service,
  Synapse over MCP (`synapse mcp`, raw JSON-RPC over stdio), the bare-FTS5
  floor (one porter FTS5 table of the same text, bm25 top 8), and the peers
  found on this machine (the reference knowledge-graph MCP memory server,
  `mcp-server-memory` from npm, through its own MCP tools);
- ingest (CPU seconds per 1,000 notes of the import), MCP `remember`, and the
  store's size against its text.

At 10,000 notes (the largest size below it in a quick run) it times the
start-up of each command a user or a client runs as a new process, from spawn
to exit (or to the first answer, for the MCP servers); and, on a repository of
its own, what the git hooks add to `git commit` and `git checkout`.

Wall time on a shared machine includes waiting for a core, so every figure has
its CPU time beside it (the process's own for in-process calls, the server
process's for MCP calls, the child's for a command) and every row its one-minute
load average. Results go to DIR/results.json and the pictures to DIR/*.svg,
drawn here with no plotting library; the full run also rewrites the tables of
docs/benchmarks.md between its markers (`--page`). Nothing here asserts a
timing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from retrieval import COMMON, RARE, RARE_AT, SELECTIVE, bodies  # noqa: E402

BIN = Path(sys.executable).parent
SYNAPSE = str(BIN / "synapse")
FULL_SIZES = [1_000, 10_000, 100_000, 1_000_000]
QUICK_SIZES = [1_000, 3_000]
STARTUP_AT = 10_000
BEGIN = "<!-- figures: written by examples/benchmarks.py from docs/benchmarks/results.json -->"
END = "<!-- figures: end -->"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
PROTOCOL = "2025-11-25"
HEADLINE_COMMANDS = (
    "synapse --version",
    f"synapse memory recall {SELECTIVE}",
    "synapse mcp: spawn to first recall answered",
)
DASH, TIMES = "\u2013", "\u00d7"  # as the docs write ranges and ratios


# -- figures -------------------------------------------------------------------------------


def spread(values: list[float], digits: int = 3) -> dict[str, float]:
    """p50 and p95 (nearest rank) of milliseconds."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50": round(statistics.median(ordered), digits), "p95": round(p95, digits)}


def load() -> float:
    return round(os.getloadavg()[0], 2)


class Samples:
    """Wall and CPU milliseconds of one operation, gathered round by round."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.loads: list[float] = []

    def add(self, wall_ms: float, cpu_ms: float | None) -> None:
        self.wall.append(wall_ms)
        if cpu_ms is not None:
            self.cpu.append(cpu_ms)

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"runs": len(self.wall), "wall_ms": spread(self.wall)}
        if self.cpu:
            out["cpu_ms"] = spread(self.cpu)
        return out


def timed_call(action: Callable[[], object]) -> tuple[float, float]:
    start, start_cpu = time.perf_counter(), time.process_time()
    action()
    return (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000


# -- a raw MCP client over stdio, the same for every server ---------------------------------


def process_cpu_ns(pid: int) -> int | None:
    """CPU nanoseconds `pid` has used, its exited threads included (Linux).

    The process's CPU clock (clock_getcpuclockid) counts every thread it ever ran;
    summing the live threads' schedstat would miss a server's work on threads that
    ended, as a server's tool-call threads may."""
    clock = _cpu_clock(pid)
    if clock is not None:
        try:
            return time.clock_gettime_ns(clock)
        except OSError:
            pass
    return None


def _cpu_clock(pid: int) -> int | None:
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return None
    clock = ctypes.c_int()
    if ctypes.CDLL(name).clock_getcpuclockid(pid, ctypes.byref(clock)) != 0:
        return None
    return clock.value


class Stdio:
    """One MCP server process spoken to in newline-delimited JSON-RPC."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{method}: the server closed its output")
            message = json.loads(line)
            if "method" in message and "id" in message:  # a request of the server's
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": {"roots": []}})
            elif message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result

    def initialize(self) -> dict[str, Any]:
        info = {"name": "benchmarks", "version": "1"}
        params = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": info}
        result = self.request("initialize", params)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{tool}: {result.get('content')}")
        return result

    def timed(self, tool: str, arguments: dict[str, Any]) -> tuple[float, float | None]:
        """Wall ms of one call, and the CPU ms the server process spent on it."""
        before = process_cpu_ns(self.process.pid)
        start = time.perf_counter()
        self.call(tool, arguments)
        wall = (time.perf_counter() - start) * 1000
        after = process_cpu_ns(self.process.pid)
        cpu = None if before is None or after is None else (after - before) / 1e6
        return wall, cpu

    def close(self) -> float:
        """CPU ms of the whole process, from its start to its exit."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        _, status, usage = os.wait4(self.process.pid, 0)
        self.process.returncode = os.waitstatus_to_exitcode(status)
        return (usage.ru_utime + usage.ru_stime) * 1000


# -- the systems ----------------------------------------------------------------------------


class Run:
    """Where one run keeps its files, and the environment every process gets."""

    def __init__(self, work: Path, kg: str | None) -> None:
        self.work = work
        self.data = work / "data"
        self.repo = work / "repo"
        self.repo.mkdir()
        self.env = {**os.environ, **GIT_ENV, "SYNAPSE_DATA": str(self.data)}
        self.env["SYNAPSE_SEMANTIC"] = "off"
        self.env["PATH"] = f"{BIN}:{self.env.get('PATH', '')}"
        for name in ("XDG_DATA_HOME", "PYTHONDONTWRITEBYTECODE"):
            self.env.pop(name, None)
        os.environ.update(SYNAPSE_DATA=str(self.data), SYNAPSE_SEMANTIC="off")
        for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "x"]):
            subprocess.run(["git", *args], cwd=self.repo, env=self.env, check=True)
        self.kg = kg
        self.kg_file = work / "kg" / "memory.jsonl"
        self.kg_file.parent.mkdir()
        self.kg_env = {**self.env, "MEMORY_FILE_PATH": str(self.kg_file)}
        self.floor = sqlite3.connect(work / "floor.db")
        self.floor.execute("CREATE VIRTUAL TABLE bare USING fts5 (body, tokenize = 'porter')")

    def synapse_mcp(self) -> Stdio:
        return Stdio([SYNAPSE, "mcp", "--project", str(self.repo)], self.env, self.repo)

    def kg_mcp(self) -> Stdio:
        assert self.kg is not None
        return Stdio([self.kg], self.kg_env, self.work)


def run_to_exit(
    argv: list[str], env: dict[str, str], cwd: Path, stdin: bytes = b""
) -> tuple[float, float]:
    """Wall and CPU ms (user + system of the process and what it waited for) to exit."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stderr is not None
    process.stdin.write(stdin)
    process.stdin.close()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {err.decode(errors='replace')[-500:]}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def ingest(run: Run, notes: list[tuple[str, str, str]], limit_s: float) -> dict[str, Any]:
    """The new notes into every system; CPU seconds per 1,000 and wall seconds each."""
    lines = run.work / "import.jsonl"
    with lines.open("w", encoding="utf-8") as out:
        for body, source, stamp in notes:
            doc = {"body": body, "source": source, "project": None, "created_at": stamp}
            out.write(json.dumps(doc) + "\n")
    found: dict[str, Any] = {"load": load()}
    start = time.perf_counter()
    process = subprocess.Popen(
        [SYNAPSE, "memory", "import", str(lines)],
        cwd=run.repo,
        env=run.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > limit_s:
            process.kill()
            os.wait4(process.pid, 0)
            return {"stopped_after_s": round(time.perf_counter() - start, 1)}
        time.sleep(0.2)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"synapse memory import {lines} failed")
    process.returncode = 0
    found["synapse"] = {
        "wall_s": round(wall, 2),
        "cpu_s_per_1000": round((usage.ru_utime + usage.ru_stime) * 1000 / len(notes), 3),
    }
    lines.unlink()

    start, start_cpu = time.perf_counter(), time.process_time()
    with run.floor:
        run.floor.executemany("INSERT INTO bare (body) VALUES (?)", ((b,) for b, _, _ in notes))
    found["floor"] = {
        "wall_s": round(time.perf_counter() - start, 2),
        "cpu_s_per_1000": round((time.process_time() - start_cpu) * 1000 / len(notes), 4),
    }
    return found


def kg_ingest(run: Run, notes: list[tuple[str, str, str]], first: int) -> dict[str, Any]:
    """The new notes as knowledge-graph entities, 1,000 a `create_entities` call."""
    server = run.kg_mcp()
    server.initialize()
    before = process_cpu_ns(server.process.pid) or 0
    start = time.perf_counter()
    for offset in range(0, len(notes), 1000):
        batch = [
            {"name": f"note-{first + offset + i}", "entityType": "note", "observations": [body]}
            for i, (body, _, _) in enumerate(notes[offset : offset + 1000])
        ]
        server.call("create_entities", {"entities": batch})
    wall = time.perf_counter() - start
    cpu = ((process_cpu_ns(server.process.pid) or 0) - before) / 1e9
    server.close()
    return {"wall_s": round(wall, 2), "cpu_s_per_1000": round(cpu * 1000 / len(notes), 3)}


def measure_size(run: Run, n: int, rounds: int, with_kg: bool) -> dict[str, Any]:
    """Search and remember at this size, every system in turn each round."""
    from synapse_git import settings
    from synapse_git.service import Synapse

    svc = Synapse(settings.load())
    scope = svc.scope(run.repo)
    mcp = run.synapse_mcp()
    mcp.initialize()
    kg = run.kg_mcp() if with_kg else None
    if kg is not None:
        kg.initialize()

    def floor(word: str) -> list[Any]:
        return run.floor.execute(
            "SELECT rowid, body FROM bare WHERE bare MATCH ? ORDER BY bm25(bare) LIMIT 8", (word,)
        ).fetchall()

    def in_process(word: str) -> str:
        return json.dumps(svc.recall(word, scope).as_json(), ensure_ascii=False)

    samples: dict[str, Samples] = {}
    loads: list[float] = []
    for word, question in ((SELECTIVE, "selective"), (RARE, "rare"), (COMMON, "common")):
        steps: list[tuple[str, Callable[[], tuple[float, float | None]]]] = [
            ("synapse", lambda w=word: timed_call(lambda: in_process(w))),
            ("synapse_mcp", lambda w=word: mcp.timed("recall", {"query": w})),
            ("floor", lambda w=word: timed_call(lambda: floor(w))),
        ]
        if kg is not None and question != "common":
            # search_nodes answers every match: for a word in every note, the whole graph.
            steps.append(("kg_mcp", lambda w=word: kg.timed("search_nodes", {"query": w})))
        for _, step in steps:
            step()  # untimed warm-up
        for _ in range(rounds):
            loads.append(load())
            for name, step in steps:
                wall, cpu = step()
                samples.setdefault(f"{question}/{name}", Samples()).add(wall, cpu)
    remember = Samples()
    kg_remember = Samples()
    for i in range(max(3, rounds // 2)):
        body = f"Remembered at {n}: note {i} about the lunar benchmark and its port {i + 7000}."
        remember.add(*mcp.timed("remember", {"body": body, "source": "bench"}))
        if kg is not None:
            entity = {"name": f"remembered-{n}-{i}", "entityType": "note", "observations": [body]}
            kg_remember.add(*kg.timed("create_entities", {"entities": [entity]}))
    mcp.close()
    if kg is not None:
        kg.close()
    found: dict[str, Any] = {name: s.result() for name, s in samples.items()}
    found["remember/synapse_mcp"] = remember.result()
    if kg is not None:
        found["remember/kg_mcp"] = kg_remember.result()
    found["load"] = {"min": min(loads), "max": max(loads)}
    return found


def store_size(run: Run, text_bytes: int) -> dict[str, Any]:
    db = sum(p.stat().st_size for p in run.data.glob("memory.db*"))
    return {"db_bytes": db, "text_bytes": text_bytes, "db_to_text": round(db / text_bytes, 2)}


# -- start-up per command ---------------------------------------------------------------------


def startup(run: Run, rounds: int, with_kg: bool) -> dict[str, Any]:
    """Each command a new process, the commands taking turns round by round."""
    event = {
        "session_id": "bench",
        "cwd": str(run.repo),
        "hook_event_name": "UserPromptSubmit",
        "prompt": f"what do the notes say about {SELECTIVE}?",
    }
    commands: dict[str, Callable[[int], tuple[float, float]]] = {
        "python -c pass": lambda _: run_to_exit([sys.executable, "-c", "pass"], run.env, run.repo),
        "synapse --version": lambda _: run_to_exit([SYNAPSE, "--version"], run.env, run.repo),
        "synapse memory read ID": lambda _: run_to_exit(
            [SYNAPSE, "memory", "read", "500"], run.env, run.repo
        ),
        f"synapse memory recall {SELECTIVE}": lambda _: run_to_exit(
            [SYNAPSE, "memory", "recall", SELECTIVE], run.env, run.repo
        ),
        "synapse memory list": lambda _: run_to_exit(
            [SYNAPSE, "memory", "list"], run.env, run.repo
        ),
        "synapse hook session": lambda _: run_to_exit(
            [SYNAPSE, "hook", "session"], run.env, run.repo
        ),
        "synapse hook prompt": lambda i: run_to_exit(
            [SYNAPSE, "hook", "prompt"],
            run.env,
            run.repo,
            json.dumps({**event, "session_id": f"bench-{i}"}).encode(),
        ),
        "synapse mcp: spawn to initialize answered": lambda _: first_answer(
            run.synapse_mcp(), None
        ),
        "synapse mcp: spawn to first recall answered": lambda _: first_answer(
            run.synapse_mcp(), ("recall", {"query": SELECTIVE})
        ),
    }
    if with_kg:
        commands["mcp-server-memory: spawn to first search answered"] = lambda _: first_answer(
            run.kg_mcp(), ("search_nodes", {"query": SELECTIVE})
        )
    samples = {name: Samples() for name in commands}
    loads = []
    for command in commands.values():
        command(-1)  # untimed warm-up: compiled modules cached, files in the page cache
    for i in range(rounds):
        loads.append(load())
        for name, command in commands.items():
            samples[name].add(*command(i))
    return {
        "commands": {name: s.result() for name, s in samples.items()},
        "load": {"min": min(loads), "max": max(loads)},
    }


def first_answer(server: Stdio, call: tuple[str, dict[str, Any]] | None) -> tuple[float, float]:
    """Spawn to the answer of initialize (and of one call); CPU of the process to its exit."""
    server.initialize()
    if call is not None:
        server.call(*call)
    wall = (time.perf_counter() - server.started) * 1000
    return wall, server.close()


# -- hooks ------------------------------------------------------------------------------------


def hooks(work: Path, files: int, memories: int, rounds: int) -> dict[str, Any]:
    """What the installed hooks add to `git commit` and `git checkout` in a repository of
    FILES files with MEMORIES project memories naming them (a store of its own)."""
    root = work / "hooks-repo"
    root.mkdir()
    env = {**os.environ, **GIT_ENV, "SYNAPSE_DATA": str(work / "hooks-data")}
    env["SYNAPSE_SEMANTIC"] = "off"
    env["PATH"] = f"{BIN}:{env.get('PATH', '')}"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    names = [f"src/pkg{i // 100:03d}/module_{i:05d}.py" for i in range(files)]
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"VALUE = {len(name)}\n", encoding="utf-8")

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "files")
    step = max(1, files // memories)
    lines = [
        json.dumps(
            {
                "body": f"Module {i}: the parser for format {i} lives in "
                f"{names[(i * step) % files]} and its timeout is {i % 90 + 10} s.",
                "source": "bench",
                "project": str(root.resolve()),
            }
        )
        for i in range(memories)
    ]
    (work / "hooks.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run_to_exit([SYNAPSE, "memory", "import", str(work / "hooks.jsonl")], env, root)
    # A branch where a tenth of the files, some of them named by memories, are gone.
    git("checkout", "-q", "-b", "other")
    git("rm", "-q", *names[:: max(1, files // (files // 10 or 1))][: max(1, files // 10)])
    git("commit", "-q", "-m", "fewer")
    git("checkout", "-q", "main")
    run_to_exit([SYNAPSE, "hook", "install"], env, root)
    counter = iter(range(10**9))

    def touch() -> None:
        (root / "CHANGES.txt").write_text(f"change {next(counter)}\n", encoding="utf-8")
        git("add", "CHANGES.txt")

    commit = ["git", "commit", "-q", "-m", "bench"]
    found: dict[str, Any] = {"files": files, "memories": memories}
    loads: list[float] = []
    pairs: dict[str, tuple[Callable[[], None], list[str], list[str]]] = {
        "git commit of a one-file change": (touch, commit, [*commit, "--no-verify"]),
    }
    for name, (prepare, hooked, bare) in pairs.items():
        prepare()
        run_to_exit(hooked, env, root)  # untimed warm-up
        found[name] = paired(rounds, prepare, hooked, bare, env, root, loads)
    with_hook, without = Samples(), Samples()
    bare = ["git", "-c", "core.hooksPath=/dev/null", "checkout", "-q"]
    for target in ("other", "main"):
        run_to_exit(["git", "checkout", "-q", target], env, root)  # untimed warm-up
    for _ in range(rounds):
        loads.append(load())
        for target in ("other", "main"):
            with_hook.add(*run_to_exit(["git", "checkout", "-q", target], env, root))
        for target in ("other", "main"):
            without.add(*run_to_exit([*bare, target], env, root))
    found["git checkout to a branch with a tenth of the files gone, and back"] = added(
        with_hook, without
    )
    found["load"] = {"min": min(loads), "max": max(loads)}
    return found


def paired(
    rounds: int,
    prepare: Callable[[], None],
    hooked: list[str],
    bare: list[str],
    env: dict[str, str],
    cwd: Path,
    loads: list[float],
) -> dict[str, Any]:
    with_hook, without = Samples(), Samples()
    for _ in range(rounds):
        loads.append(load())
        prepare()
        with_hook.add(*run_to_exit(hooked, env, cwd))
        prepare()
        without.add(*run_to_exit(bare, env, cwd))
    return added(with_hook, without)


def added(with_hook: Samples, without: Samples) -> dict[str, Any]:
    return {
        "with_hook": with_hook.result(),
        "without": without.result(),
        "added_wall_ms_p50": round(
            statistics.median(with_hook.wall) - statistics.median(without.wall), 1
        ),
        "added_cpu_ms_p50": round(
            statistics.median(with_hook.cpu) - statistics.median(without.cpu), 1
        ),
    }


# -- the run ----------------------------------------------------------------------------------


def versions(kg: str | None) -> dict[str, str]:
    found = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "synapse": _out([SYNAPSE, "--version"]).split()[-1],
        "git": _out(["git", "--version"]).split()[-1],
    }
    if kg is not None:
        package = Path(kg).resolve().parent.parent / "package.json"
        try:
            found["mcp-server-memory"] = json.loads(package.read_text())["version"]
            found["node"] = _out(["node", "--version"]).lstrip("v")
        except (OSError, ValueError, KeyError):
            found["mcp-server-memory"] = "unknown"
    return found


def _out(argv: list[str]) -> str:
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.machine()}{memory}, {platform.system()}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and few rounds")
    parser.add_argument("--out", type=Path, help="where results.json and the pictures go")
    parser.add_argument("--page", type=Path, help="rewrite this page's tables from the results")
    parser.add_argument("--sizes", help="comma-separated store sizes, ascending")
    parser.add_argument("--rounds", type=int, help="timed calls of each operation at each size")
    parser.add_argument("--kg", help="the mcp-server-memory command, or 'none'")
    parser.add_argument("--kg-max", type=int, default=100_000, help="largest size for the peer")
    parser.add_argument(
        "--ingest-limit-min", type=float, default=20.0, help="stop growing past an import this long"
    )
    parser.add_argument("--render", type=Path, help="only draw and rewrite from this results file")
    args = parser.parse_args(argv)
    if args.render is not None:
        results = json.loads(args.render.read_text(encoding="utf-8"))
        write_outputs(results, args.render.parent, args.page)
        return 0
    out = args.out or (
        Path(tempfile.mkdtemp(prefix="synapse-figures-"))
        if args.quick
        else ROOT / "docs" / "benchmarks"
    )
    page = args.page if args.page or args.quick else ROOT / "docs" / "benchmarks.md"
    if args.sizes and not all(s.strip().isdigit() for s in args.sizes.split(",")):
        parser.error("--sizes: whole numbers separated by commas")
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else (QUICK_SIZES if args.quick else FULL_SIZES)
    )
    if sizes != sorted(set(sizes)) or sizes[0] < 1000:
        parser.error("--sizes: ascending, at least 1000")
    rounds = args.rounds or (5 if args.quick else 40)
    kg = None if args.kg == "none" else (args.kg or shutil.which("mcp-server-memory"))
    results = run_all(sizes, rounds, kg, args.kg_max, args.ingest_limit_min * 60, args.quick)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    write_outputs(results, out, page)
    print(out / "results.json")
    return 0


def run_all(
    sizes: list[int], rounds: int, kg: str | None, kg_max: int, limit_s: float, quick: bool
) -> dict[str, Any]:
    started = time.perf_counter()
    results: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "mode": "quick" if quick else "full",
        "machine": machine(),
        "versions": versions(kg),
        "load_start": [round(x, 2) for x in os.getloadavg()],
        "rounds": rounds,
        "sizes": [],
        "not_run": [],
    }
    if kg is None:
        results["not_run"].append(
            "mcp-server-memory: not installed (npm install -g @modelcontextprotocol/server-memory)"
        )
    work = Path(tempfile.mkdtemp(prefix="synapse-benchmarks-"))
    try:
        run = Run(work, kg)
        corpus = bodies(sizes[-1])
        have = text_bytes = 0
        startup_at = max([s for s in sizes if s <= STARTUP_AT], default=sizes[0])
        for n in sizes:
            step_started = time.perf_counter()
            notes = list(islice(corpus, n - have))
            text_bytes += sum(len(b.encode()) + len(s.encode()) for b, s, _ in notes)
            print(f"{n:,} notes: importing {len(notes):,}", file=sys.stderr, flush=True)
            done = ingest(run, notes, limit_s)
            if "synapse" not in done:
                results["not_run"].append(
                    f"{n:,} notes: the import of {len(notes):,} was stopped after"
                    f" {done['stopped_after_s'] / 60:.0f} minutes"
                )
                break
            with_kg = kg is not None and n <= kg_max
            if with_kg:
                done["kg"] = kg_ingest(run, notes, have + 1)
            elif kg is not None:
                results["not_run"].append(f"mcp-server-memory at {n:,} notes (past --kg-max)")
            have = n
            del notes
            print(f"{n:,} notes: searching", file=sys.stderr, flush=True)
            row = {"notes": n, "ingest": done, **measure_size(run, n, rounds, with_kg)}
            row["store"] = store_size(run, text_bytes)
            row["took_s"] = round(time.perf_counter() - step_started, 1)
            results["sizes"].append(row)
            if n == startup_at:
                print("start-up", file=sys.stderr, flush=True)
                results["startup"] = {"notes": n, **startup(run, max(3, rounds // 2), with_kg)}
        print("hooks", file=sys.stderr, flush=True)
        files, memories = (100, 20) if quick else (2000, 400)
        results["hooks"] = hooks(work, files, memories, 3 if quick else 15)
        run.floor.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["load_end"] = [round(x, 2) for x in os.getloadavg()]
    results["took_s"] = round(time.perf_counter() - started, 1)
    return results


# -- pictures ---------------------------------------------------------------------------------


def footer(results: dict[str, Any]) -> list[str]:
    v = results["versions"]
    names = ", ".join(f"{k} {val}" for k, val in v.items())
    start, end = results["load_start"], results["load_end"]
    return [
        f"machine: {results['machine']}",
        f"load average (1, 5, 15 min): {start[0]}, {start[1]}, {start[2]} at the start;"
        f" {end[0]}, {end[1]}, {end[2]} at the end",
        names,
        f"{results['date']}, {results['mode']} run of examples/benchmarks.py",
    ]


COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def svg_text(
    x: float, y: float, text: str, size: int = 12, anchor: str = "start", extra: str = ""
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
        f"{escape(text)}</text>"
    )


def line_chart(
    title: str, unit: str, series: dict[str, list[tuple[float, float]]], lines: list[str]
) -> str:
    """Log-log lines of y against store size."""
    width, height, left, right, top, bottom = (
        860,
        420 + 16 * len(lines),
        80,
        250,
        40,
        70 + 16 * len(lines),
    )
    points = [p for s in series.values() for p in s]
    xs = sorted({p[0] for p in points})
    ys = [p[1] for p in points if p[1] > 0]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    if x1 == x0:
        x1 = x0 + 1
    y0 = math.floor(math.log10(min(ys)))
    y1 = math.ceil(math.log10(max(ys)))
    if y1 == y0:
        y1 = y0 + 1
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (math.log10(x) - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return top + plot_h - (math.log10(max(y, 10**y0)) - y0) / (y1 - y0) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        svg_text(left, 24, title, 15, extra=' font-weight="bold"'),
    ]
    for e in range(y0, y1 + 1):
        y = top + plot_h - (e - y0) / (y1 - y0) * plot_h
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        out.append(svg_text(left - 6, y + 4, f"{10.0**e:g}", 11, "end"))
    for x in xs:
        out.append(
            f'<line x1="{px(x):.1f}" y1="{top}" x2="{px(x):.1f}" y2="{top + plot_h}"'
            ' stroke="#eee"/>'
        )
        out.append(svg_text(px(x), top + plot_h + 16, f"{x:,.0f}", 11, "middle"))
    out.append(
        svg_text(
            left + plot_w / 2, top + plot_h + 34, "notes in the store (log scale)", 12, "middle"
        )
    )
    out.append(
        svg_text(
            18,
            top + plot_h / 2,
            f"{unit} (log scale)",
            12,
            "middle",
            f' transform="rotate(-90 18 {top + plot_h / 2:.1f})"',
        )
    )
    for i, (name, pts) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        ly = top + 10 + 18 * i
        out.append(
            f'<line x1="{left + plot_w + 14}" y1="{ly}" x2="{left + plot_w + 34}" y2="{ly}"'
            f' stroke="{colour}" stroke-width="2"/>'
        )
        out.append(svg_text(left + plot_w + 40, ly + 4, name, 11))
    for i, line in enumerate(lines):
        out.append(
            svg_text(left, height - 12 - 16 * (len(lines) - 1 - i), line, 11, extra=' fill="#444"')
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def bar_chart(
    title: str,
    unit: str,
    rows: list[tuple[str, float, float]],
    legend: tuple[str, str],
    lines: list[str],
) -> str:
    """Horizontal bars: two values a row (wall and CPU)."""
    left, right, top, bar = 330, 60, 56, 11
    width = 860
    plot_w = width - left - right
    height = top + len(rows) * (2 * bar + 10) + 40 + 16 * len(lines)
    top_value = max([max(a, b) for _, a, b in rows] + [1e-9])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        svg_text(12, 24, title, 15, extra=' font-weight="bold"'),
    ]
    for i, name in enumerate(legend):
        out.append(
            f'<rect x="{left + 180 * i}" y="34" width="12" height="10" fill="{COLOURS[i]}"/>'
        )
        out.append(svg_text(left + 180 * i + 16, 43, f"{name} ({unit})", 11))
    for r, (label, a, b) in enumerate(rows):
        y = top + r * (2 * bar + 10)
        out.append(svg_text(left - 8, y + bar + 4, label, 11, "end"))
        for j, value in enumerate((a, b)):
            w = max(0.0, value) / top_value * (plot_w - 50)
            out.append(
                f'<rect x="{left}" y="{y + j * bar}" width="{w:.1f}" height="{bar - 1}"'
                f' fill="{COLOURS[j]}"/>'
            )
            out.append(svg_text(left + w + 4, y + j * bar + bar - 2, f"{value:,.1f}", 10))
    for i, line in enumerate(lines):
        out.append(
            svg_text(12, height - 12 - 16 * (len(lines) - 1 - i), line, 11, extra=' fill="#444"')
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def pictures(results: dict[str, Any]) -> dict[str, str]:
    lines = footer(results)
    sizes = results["sizes"]

    def curve(key: str, field: str = "cpu_ms") -> list[tuple[float, float]]:
        return [
            (row["notes"], row[key][field]["p50"])
            for row in sizes
            if key in row and field in row[key]
        ]

    selective = {
        "Synapse, in-process, CPU": curve("selective/synapse"),
        "Synapse over MCP, wall": curve("selective/synapse_mcp", "wall_ms"),
        "KG memory server over MCP, wall": curve("selective/kg_mcp", "wall_ms"),
        "bare FTS5 floor, CPU": curve("selective/floor"),
    }
    rare = {
        "Synapse, in-process, CPU": curve("rare/synapse"),
        "Synapse over MCP, wall": curve("rare/synapse_mcp", "wall_ms"),
        "KG memory server over MCP, wall": curve("rare/kg_mcp", "wall_ms"),
        "bare FTS5 floor, CPU": curve("rare/floor"),
    }
    common = {
        "Synapse, in-process, CPU": curve("common/synapse"),
        "Synapse over MCP, wall": curve("common/synapse_mcp", "wall_ms"),
        "bare FTS5 floor, CPU": curve("common/floor"),
    }
    ingest = {
        "Synapse (memory import)": [
            (r["notes"], r["ingest"]["synapse"]["cpu_s_per_1000"]) for r in sizes
        ],
        "KG memory server (create_entities)": [
            (r["notes"], r["ingest"]["kg"]["cpu_s_per_1000"]) for r in sizes if "kg" in r["ingest"]
        ],
        "bare FTS5 floor": [(r["notes"], r["ingest"]["floor"]["cpu_s_per_1000"]) for r in sizes],
    }
    found = {
        "search-selective.svg": line_chart(
            "Selective search (a word in 1 note in 1,000), p50",
            "ms",
            {k: v for k, v in selective.items() if v},
            lines,
        ),
        "search-common.svg": line_chart(
            "Common-term search (a word in every note), p50",
            "ms",
            {k: v for k, v in common.items() if v},
            lines,
        ),
        "ingest.svg": line_chart(
            "Ingest: CPU seconds per 1,000 notes added",
            "CPU s per 1,000",
            {k: v for k, v in ingest.items() if v},
            lines,
        ),
    }
    if any(rare.values()):  # a results file from before the rare word has none
        found["search-rare.svg"] = line_chart(
            f"Rare-word search (a word in the same {len(RARE_AT)} notes at every size), p50",
            "ms",
            {k: v for k, v in rare.items() if v},
            lines,
        )
    if "startup" in results:
        rows = [
            (name, c["wall_ms"]["p50"], c["cpu_ms"]["p50"])
            for name, c in results["startup"]["commands"].items()
        ]
        found["startup.svg"] = bar_chart(
            "Start-up: spawn to exit (or to the first answer),"
            f" {results['startup']['notes']:,} notes, p50",
            "ms",
            rows,
            ("wall", "CPU"),
            lines,
        )
    h = results["hooks"]
    rows = [
        (name, v["added_wall_ms_p50"], v["added_cpu_ms_p50"])
        for name, v in h.items()
        if isinstance(v, dict) and "added_wall_ms_p50" in v
    ]
    found["hooks.svg"] = bar_chart(
        f"What the hooks add, {h['files']:,} files, {h['memories']} memories, p50",
        "ms",
        rows,
        ("added wall", "added CPU"),
        lines,
    )
    return found


# -- the page ---------------------------------------------------------------------------------


def ms(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def pair(result: dict[str, Any] | None, field: str) -> str:
    if not result or field not in result:
        return "\u2014"
    return f"{ms(result[field]['p50'])} / {ms(result[field]['p95'])}"


def span(low: float, high: float) -> str:
    return str(low) if low == high else f"{low}{DASH}{high}"


def cells(*values: str) -> str:
    return "| " + " | ".join(values) + " |"


def headline(results: dict[str, Any]) -> list[str]:
    """A few sentences of the tables' own figures (p50 throughout)."""
    sizes = results["sizes"]
    first, last = sizes[0], sizes[-1]
    with_kg = [row for row in sizes if "selective/kg_mcp" in row]
    at = with_kg[-1] if with_kg else last

    def p50(row: dict[str, Any], key: str, field: str = "cpu_ms") -> float:
        value: float = row[key][field]["p50"]
        return value

    lines = []
    synapse, floor = p50(at, "selective/synapse"), p50(at, "selective/floor")
    mcp = p50(at, "selective/synapse_mcp", "wall_ms")
    text = (
        f"- At {at['notes']:,} notes (load {span(at['load']['min'], at['load']['max'])}), a"
        f" selective search costs Synapse {ms(synapse)} ms of CPU in-process,"
        f" {synapse / floor:.0f} times the bare FTS5 floor's {ms(floor)} ms, and {ms(mcp)} ms"
        " of wall time over MCP"
    )
    if "selective/kg_mcp" in at:
        kg = p50(at, "selective/kg_mcp", "wall_ms")
        text += f"; the KG memory server answers it over MCP in {ms(kg)} ms"
    lines.append(text + ".")
    rare = (
        f" its rare-word search from {ms(p50(first, 'rare/synapse'))} to"
        f" {ms(p50(last, 'rare/synapse'))} ms"
        if "rare/synapse" in first and "rare/synapse" in last
        else ""
    )
    lines.append(
        f"- From {first['notes']:,} to {last['notes']:,} notes, Synapse's selective search goes"
        f" from {ms(p50(first, 'selective/synapse'))} to {ms(p50(last, 'selective/synapse'))} ms"
        f" of CPU,{rare}"
        f" and its common-term search from {ms(p50(first, 'common/synapse'))} to"
        f" {ms(p50(last, 'common/synapse'))} ms; `memory import` costs"
        f" {last['ingest']['synapse']['cpu_s_per_1000']} CPU seconds per 1,000 notes at the"
        f" largest size, and the store is {last['store']['db_to_text']} times its text."
    )
    if "startup" in results:
        c = results["startup"]["commands"]
        parts = [
            f"`{name}` {ms(c[name]['wall_ms']['p50'])} ms wall, {ms(c[name]['cpu_ms']['p50'])}"
            " ms CPU"
            for name in HEADLINE_COMMANDS
            if name in c
        ]
        st = results["startup"]["load"]
        lines.append(
            f"- Start-up at {results['startup']['notes']:,} notes (load"
            f" {span(st['min'], st['max'])}): " + "; ".join(parts) + "."
        )
    return lines


def load_of(row: dict[str, Any]) -> str:
    return span(row["load"]["min"], row["load"]["max"])


def search_table(sizes: list[dict[str, Any]], kind: str, title: str, says: str) -> list[str]:
    """A search's figures at every size, Synapse beside the KG server and the floor."""
    out = [
        f"### {title}",
        "",
        says,
        "",
        cells(
            "notes",
            "Synapse in-process, CPU",
            "Synapse in-process, wall",
            "Synapse over MCP, wall",
            "Synapse MCP server, CPU",
            "KG memory server over MCP, wall",
            "KG server, CPU",
            "bare FTS5 floor, CPU",
            "load",
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in sizes:
        got = {x: row.get(f"{kind}/{x}") for x in ("synapse", "synapse_mcp", "kg_mcp", "floor")}
        out.append(
            cells(
                f"{row['notes']:,}",
                pair(got["synapse"], "cpu_ms"),
                pair(got["synapse"], "wall_ms"),
                pair(got["synapse_mcp"], "wall_ms"),
                pair(got["synapse_mcp"], "cpu_ms"),
                pair(got["kg_mcp"], "wall_ms"),
                pair(got["kg_mcp"], "cpu_ms"),
                pair(got["floor"], "cpu_ms"),
                load_of(row),
            )
        )
    alt = f"{title} against store size"
    return [*out, "", f"![{alt}](benchmarks/search-{kind}.svg)", ""]


def tables(results: dict[str, Any]) -> str:
    """The page's figures, every one from `results`."""
    v = results["versions"]
    out = [
        BEGIN,
        "",
        f"Run of {results['date']} ({results['mode']}), {results['took_s'] / 60:.0f} minutes in"
        f" all: {results['machine']}; " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".",
        f"Load average (1, 5, 15 min) {', '.join(map(str, results['load_start']))} at the start,"
        f" {', '.join(map(str, results['load_end']))} at the end; {results['rounds']} timed calls"
        " of each search at each size. Figures are p50 / p95 in milliseconds unless marked.",
        "",
    ]
    out += [f"- Not run: {line}." for line in results["not_run"]]
    if results["not_run"]:
        out.append("")
    sizes = results["sizes"]
    out += ["### In short", "", *headline(results), ""]
    out += search_table(
        sizes,
        "selective",
        "Selective search",
        f"A word in one note in a thousand (`{SELECTIVE}`): the more notes, the more hold it.",
    )
    if any("rare/synapse" in row for row in sizes):  # a results file from before it has none
        out += search_table(
            sizes,
            "rare",
            "Rare-word search",
            f"A word in the same {len(RARE_AT)} notes at every size (`{RARE}`), as a function's"
            " name is in a store however large it grows: the kind of question an agent asks.",
        )
    out += [
        "### Common-term search",
        "",
        f"A word in every note (`{COMMON}`). The KG memory server is not timed here: its"
        " `search_nodes` answers every match, that is the whole graph.",
        "",
        cells(
            "notes",
            "Synapse in-process, CPU",
            "Synapse in-process, wall",
            "Synapse over MCP, wall",
            "Synapse MCP server, CPU",
            "bare FTS5 floor, CPU",
            "load",
        ),
        "|---|---|---|---|---|---|---|",
    ]
    for row in sizes:
        got = {x: row.get(f"common/{x}") for x in ("synapse", "synapse_mcp", "floor")}
        out.append(
            cells(
                f"{row['notes']:,}",
                pair(got["synapse"], "cpu_ms"),
                pair(got["synapse"], "wall_ms"),
                pair(got["synapse_mcp"], "wall_ms"),
                pair(got["synapse_mcp"], "cpu_ms"),
                pair(got["floor"], "cpu_ms"),
                load_of(row),
            )
        )
    out += [
        "",
        "![Common-term search against store size](benchmarks/search-common.svg)",
        "",
        "### Ingest",
        "",
        "The notes that take the store from the size above to this one, added in one go: CPU"
        " seconds per 1,000 notes (wall seconds of the whole step in brackets), and the"
        " Synapse store's files against the text they hold. Synapse: `synapse memory import`"
        " as a new process; KG server: `create_entities` calls of 1,000 entities; floor:"
        " one insert.",
        "",
        cells(
            "notes",
            "Synapse",
            "KG memory server",
            "bare FTS5 floor",
            "Synapse store / text",
            "load",
        ),
        "|---|---|---|---|---|---|",
    ]
    for row in sizes:
        i = row["ingest"]
        kg = i.get("kg")
        out.append(
            cells(
                f"{row['notes']:,}",
                f"{i['synapse']['cpu_s_per_1000']} ({i['synapse']['wall_s']:,})",
                f"{kg['cpu_s_per_1000']} ({kg['wall_s']:,})" if kg else "\u2014",
                f"{i['floor']['cpu_s_per_1000']} ({i['floor']['wall_s']:,})",
                f"{row['store']['db_to_text']}{TIMES}",
                str(i["load"]),
            )
        )
    out += [
        "",
        "![Ingest cost against store size](benchmarks/ingest.svg)",
        "",
        "### Remember over MCP",
        "",
        "One new note through the server already running (KG server: `create_entities` of one"
        " entity), right after the searches at each size.",
        "",
        cells("notes", "Synapse, wall", "Synapse server, CPU", "KG server, wall", "KG server, CPU"),
        "|---|---|---|---|---|",
    ]
    for row in sizes:
        r, k = row.get("remember/synapse_mcp"), row.get("remember/kg_mcp")
        out.append(
            cells(
                f"{row['notes']:,}",
                pair(r, "wall_ms"),
                pair(r, "cpu_ms"),
                pair(k, "wall_ms"),
                pair(k, "cpu_ms"),
            )
        )
    out.append("")
    if "startup" in results:
        st = results["startup"]
        runs = next(iter(st["commands"].values()))["runs"]
        out += [
            "### Start-up per command",
            "",
            f"Each command a new process at {st['notes']:,} notes, the commands taking turns,"
            f" {runs} rounds after one untimed; wall from spawn to exit (MCP servers: to the"
            " answer named), CPU of the process from start to exit. Load"
            f" {span(st['load']['min'], st['load']['max'])}.",
            "",
            cells("command", "wall", "CPU"),
            "|---|---|---|",
        ]
        for name, c in st["commands"].items():
            out.append(cells(f"`{name}`", pair(c, "wall_ms"), pair(c, "cpu_ms")))
        out += ["", "![Start-up per command](benchmarks/startup.svg)", ""]
    h = results["hooks"]
    out += [
        "### Hook cost",
        "",
        f"A repository of {h['files']:,} files and {h['memories']} project memories naming them,"
        " with `synapse hook install`; each git command with the hooks and without them"
        f" (`--no-verify`, `core.hooksPath=/dev/null`), taking turns. Load"
        f" {span(h['load']['min'], h['load']['max'])}.",
        "",
        cells(
            "git command",
            "with hooks, wall",
            "without, wall",
            "added wall, p50",
            "with hooks, CPU",
            "without, CPU",
            "added CPU, p50",
        ),
        "|---|---|---|---|---|---|---|",
    ]
    for name, value in h.items():
        if isinstance(value, dict) and "added_wall_ms_p50" in value:
            w, o = value["with_hook"], value["without"]
            out.append(
                cells(
                    name,
                    pair(w, "wall_ms"),
                    pair(o, "wall_ms"),
                    ms(value["added_wall_ms_p50"]),
                    pair(w, "cpu_ms"),
                    pair(o, "cpu_ms"),
                    ms(value["added_cpu_ms_p50"]),
                )
            )
    out += ["", "![What the hooks add](benchmarks/hooks.svg)", "", END]
    return "\n".join(out)


def write_outputs(results: dict[str, Any], out: Path, page: Path | None) -> None:
    for name, svg in pictures(results).items():
        (out / name).write_text(svg, encoding="utf-8")
    if page is None:
        return
    text = page.read_text(encoding="utf-8")
    head, found, rest = text.partition(BEGIN)
    _, ended, tail = rest.partition(END)
    if not (found and ended):
        raise SystemExit(f"{page}: no {BEGIN} … {END} block to rewrite")
    page.write_text(head + tables(results) + tail, encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
