"""Concurrent writers against one store: does every memory arrive, with the indexes in step?

    python examples/stress.py [--writers 8] [--memories 1000] [--shell-every 50] [--kinds …]

Starts WRITERS processes at once against a fresh store in a temporary folder
(never your own). Writers take turns by kind: `service` calls the Python API,
`cli` runs the `synapse` command's code in its own process (and, every
SHELL_EVERY memories, a real `synapse memory remember` process), `mcp` talks
to a `synapse mcp` server over stdio with the MCP client (when the server is
installed). Each remembers MEMORIES memories into two projects and the global
scope and searches and reads in between. Afterwards every memory whose call
returned must be in the store with its exact text, `synapse memory check` must
pass, and no call may have failed with "database is locked". Prints JSON
counts; exits 1 when anything was lost or failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

KINDS = ("service", "cli", "mcp")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Synapse Stress",
    "GIT_AUTHOR_EMAIL": "stress@example.com",
    "GIT_COMMITTER_NAME": "Synapse Stress",
    "GIT_COMMITTER_EMAIL": "stress@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def body_of(writer: int, n: int) -> str:
    # Unique per memory (never a duplicate), multibyte, with a tab: the text must come back exact.
    return f"writer {writer} memory {n}: token w{writer}n{n} — café\tnaïve ✓ {'x' * (n % 50)}"


def synapse_command() -> list[str]:
    exe = Path(sys.executable).with_name("synapse")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]


def mcp_available() -> bool:
    try:
        import mcp  # noqa: F401
    except ImportError:
        return False
    done = subprocess.run(
        [*synapse_command(), "mcp", "--help"], capture_output=True, check=False, timeout=60
    )
    return done.returncode == 0


# -- a writer -------------------------------------------------------------------------------


class Writer:
    """One writer process: remember COUNT memories, searching and reading in between."""

    def __init__(self, index: int, count: int, folders: list[str], shell_every: int) -> None:
        self.index = index
        self.count = count
        self.folders = folders
        self.shell_every = shell_every
        self.done: list[list[Any]] = []  # [n, id]: calls that returned
        self.errors: list[str] = []
        self.searches = 0
        self.reads = 0

    def folder(self, n: int) -> str | None:
        # Cycle through the projects and, every third memory, the global scope (None).
        choice = n % (len(self.folders) + 1)
        return None if choice == len(self.folders) else self.folders[choice]

    def note(self, exc: BaseException) -> None:
        self.errors.append(f"{type(exc).__name__}: {exc}")

    def result(self) -> dict[str, Any]:
        return {
            "writer": self.index,
            "done": self.done,
            "errors": self.errors,
            "searches": self.searches,
            "reads": self.reads,
        }


def run_service(writer: Writer, start: Callable[[], None]) -> None:
    from synapse_git.errors import SynapseError
    from synapse_git.service import Synapse

    svc = Synapse()
    scopes = {folder: svc.scope(folder) for folder in writer.folders}
    outside = svc.scope(tempfile.gettempdir())
    start()
    for n in range(writer.count):
        folder = writer.folder(n)
        scope = outside if folder is None else scopes[folder]
        try:
            got = svc.remember(body_of(writer.index, n), scope, is_global=folder is None)
            writer.done.append([n, got.id])
            recall = getattr(svc, "recall", None)
            if recall is not None:
                recall(f"token w{writer.index}n{n}", scope)
            else:
                svc.list_memories(scope, contains=f"w{writer.index}n{n}", limit=5)
            writer.searches += 1
            page = svc.read(got.id, scope)
            writer.reads += page is not None
        except (SynapseError, sqlite3.Error) as exc:
            writer.note(exc)


def run_cli(writer: Writer, start: Callable[[], None]) -> None:
    from synapse_git.cli.app import main

    def call(*args: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
        return code, out.getvalue(), err.getvalue()

    start()
    for n in range(writer.count):
        folder = writer.folder(n)
        where = ["--global"] if folder is None else ["-C", folder]
        body = body_of(writer.index, n)
        if writer.shell_every and n % writer.shell_every == 0:
            done = subprocess.run(
                [*synapse_command(), "memory", "remember", body, "--json", *where],
                capture_output=True,
                text=True,
                check=False,
            )
            code, out, err = done.returncode, done.stdout, done.stderr
        else:
            code, out, err = call("memory", "remember", body, "--json", *where)
        if code != 0:
            writer.errors.append(err.strip() or f"exit {code}")
            continue
        memory_id = json.loads(out)["id"]
        writer.done.append([n, memory_id])
        look = ["-C", folder] if folder else []
        code, _, err = call("memory", "list", f"w{writer.index}n{n}", "--json", *look)
        writer.searches += code == 0
        if code:
            writer.errors.append(err.strip())
        code, out, err = call("memory", "read", str(memory_id), "--json", *look)
        writer.reads += code == 0 and json.loads(out)["memory"] is not None
        if code:
            writer.errors.append(err.strip())


def run_mcp(writer: Writer, start: Callable[[], None]) -> None:
    import anyio

    anyio.run(_mcp_session, writer, start)


async def _mcp_session(writer: Writer, start: Callable[[], None]) -> None:
    from contextlib import AsyncExitStack

    import anyio
    from mcp import Client, StdioServerParameters

    command = synapse_command()
    async with AsyncExitStack() as stack:
        # One server per project, as an agent session has, started before the others
        # begin; global memories go through the first.
        clients = {}
        for folder in writer.folders:
            params = StdioServerParameters(
                command=command[0],
                args=[*command[1:], "mcp", "--project", folder],
                env=dict(os.environ),
                cwd=folder,
            )
            clients[folder] = await stack.enter_async_context(Client(params))
        await anyio.to_thread.run_sync(start)
        for n in range(writer.count):
            target = writer.folder(n)
            client = clients[target or writer.folders[0]]
            args: dict[str, Any] = {"body": body_of(writer.index, n)}
            if target is None:
                args["scope"] = "global"
            got = await client.call_tool("remember", args)
            if got.is_error or not got.structured_content:
                writer.errors.append(str(got.content))
                continue
            memory = got.structured_content
            writer.done.append([n, memory["id"]])
            found = await client.call_tool("recall", {"query": f"token w{writer.index}n{n}"})
            writer.searches += not found.is_error
            if found.is_error:
                writer.errors.append(str(found.content))
            page = await client.call_tool(
                "readmemory", {"id": memory["id"], "project": memory["project"]}
            )
            ok = not page.is_error and (page.structured_content or {}).get("memory")
            writer.reads += bool(ok)
            if page.is_error:
                writer.errors.append(str(page.content))


def worker_main(kind: str, index: int, count: int, folders: list[str], go: Path, every: int) -> int:
    writer = Writer(index, count, folders, every)
    runner = {"service": run_service, "cli": run_cli, "mcp": run_mcp}[kind]
    import synapse_git.cli.app  # noqa: F401

    def start() -> None:
        # Everything imported and connected: say so, then start with the others, so the
        # writers really overlap.
        (go.parent / f"ready-{index}").touch()
        deadline = time.monotonic() + 300
        while not go.exists() and time.monotonic() < deadline:
            time.sleep(0.01)

    try:
        runner(writer, start)
    except Exception as exc:  # an escaped error is itself a finding
        writer.note(exc)
    print(json.dumps(writer.result()))
    return 0


# -- the run --------------------------------------------------------------------------------


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, check=True, capture_output=True
    )


def make_repo(path: Path) -> str:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("stress\n", encoding="utf-8")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "initial")
    return os.path.realpath(path)


def verify(data: Path, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Every returned call's memory present with its exact text; the indexes in step."""
    conn = sqlite3.connect(data / "memory.db")
    try:
        rows = dict(conn.execute("SELECT id, body FROM memories WHERE state = 'live'"))
    finally:
        conn.close()
    returned = lost = wrong = 0
    for result in results:
        for n, memory_id in result["done"]:
            returned += 1
            if memory_id not in rows:
                lost += 1
            elif rows[memory_id] != body_of(result["writer"], n):
                wrong += 1
    check = subprocess.run(
        [*synapse_command(), "memory", "check", "--json"], capture_output=True, text=True
    )
    return {
        "returned": returned,
        "present": len(rows),
        "lost": lost,
        "wrong_text": wrong,
        "check_exit": check.returncode,
        "check": json.loads(check.stdout) if check.stdout.strip() else check.stderr.strip(),
    }


def run(
    writers: int, memories: int, shell_every: int, kinds: list[str], keep: bool, under: str | None
) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix="synapse-stress-", dir=under))
    data = base / "data"
    os.environ["SYNAPSE_DATA"] = str(data)  # never the user's store
    os.environ.update(GIT_ENV)
    folders = [make_repo(base / "alpha"), make_repo(base / "beta")]
    go = base / "go"
    started = time.monotonic()
    procs = []
    for index in range(writers):
        kind = kinds[index % len(kinds)]
        procs.append(
            (
                kind,
                subprocess.Popen(
                    [
                        sys.executable,
                        __file__,
                        "--worker",
                        kind,
                        "--index",
                        str(index),
                        "--memories",
                        str(memories),
                        "--shell-every",
                        str(shell_every),
                        *folders,
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                ),
            )
        )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(list(base.glob("ready-*"))) < writers:
        if any(proc.poll() is not None for _, proc in procs):
            break
        time.sleep(0.05)
    go.touch()
    ready = time.monotonic() - started
    results, crashed = [], []
    for kind, proc in procs:
        out, err = proc.communicate()
        try:
            result = json.loads(out.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            crashed.append(f"{kind}: exit {proc.returncode}: {err.strip()[-300:]}")
            continue
        result["kind"] = kind
        results.append(result)
    seconds = time.monotonic() - started
    errors = [e for r in results for e in r["errors"]]
    report = {
        "writers": writers,
        "kinds": {k: sum(1 for kind, _ in procs if kind == k) for k in kinds},
        "memories_each": memories,
        "seconds": round(seconds, 1),
        "seconds_to_start": round(ready, 1),
        "searches": sum(r["searches"] for r in results),
        "reads": sum(r["reads"] for r in results),
        "errors": len(errors),
        "locked": sum("locked" in e for e in errors),
        "error_samples": errors[:5],
        "crashed": crashed,
        **verify(data, results),
    }
    if keep:
        report["data"] = str(data)
    else:
        shutil.rmtree(base, ignore_errors=True)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--memories", type=int, default=1000, help="per writer")
    parser.add_argument(
        "--shell-every", type=int, default=50, help="cli writers: a real process every N (0: none)"
    )
    parser.add_argument(
        "--kinds", default="auto", help="comma-separated service,cli,mcp (auto: all available)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary store")
    parser.add_argument("--under", help="make the temporary folder inside this one")
    parser.add_argument("--worker", choices=KINDS, help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("folders", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.folders and not args.worker:  # the folders are a worker's, never a user's
        parser.error(f"unrecognized arguments: {' '.join(args.folders)}")
    if args.writers < 1 or args.memories < 1 or args.shell_every < 0:
        parser.error("--writers and --memories must be at least 1, --shell-every at least 0")
    if args.worker:
        go = Path(args.folders[0]).parent / "go"
        return worker_main(
            args.worker, args.index, args.memories, args.folders, go, args.shell_every
        )
    if args.kinds == "auto":
        kinds = ["service", "cli", "mcp"] if mcp_available() else ["service", "cli"]
    else:
        kinds = [k for k in args.kinds.split(",") if k]
    report = run(args.writers, args.memories, args.shell_every, kinds, args.keep, args.under)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    ok = (
        not report["crashed"]
        and report["errors"] == 0
        and report["lost"] == 0
        and report["wrong_text"] == 0
        and report["check_exit"] == 0
        and report["returned"] == args.writers * args.memories
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
