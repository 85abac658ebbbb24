"""Drift benchmark: `synapse memory drift` over N project memories in a repository
of F files with some history (deletions and renames), in temporary folders that
are removed afterwards.

    python examples/drift_bench.py [MEMORIES] [FILES] [ITERS]   (defaults 2000 5000 5)

Prints JSON: the Python, SQLite and libgit2 versions, setup times, the number of
findings by kind, and the CPU and wall time of a whole drift check (p50 and max
over ITERS runs after one untimed warm-up), plus recall's per-hit `drift_about`.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import pygit2
from arguments import counts

SEED = 7731
AREAS = [f"area{n}" for n in range(40)]
PARTS = [
    "billing",
    "auth",
    "search",
    "export",
    "import",
    "cache",
    "queue",
    "mailer",
    "report",
    "ledger",
    "audit",
    "sync",
]
SETTINGS = ["timeout", "ttl", "retries", "workers", "pool", "size", "port", "limit", "interval"]
TOOLS = [
    "ruff",
    "black",
    "mypy",
    "pytest",
    "tox",
    "nox",
    "uv",
    "pip",
    "poetry",
    "make",
    "just",
    "docker",
    "helm",
]
UNITS = ["s", "ms", "minutes", ""]


def _git(cwd: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def build_repo(root: Path, files: int, rng: random.Random) -> tuple[list[str], list[str]]:
    """A repository of `files` files; returns (paths still there, paths deleted)."""
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / ".gitignore").write_text("*.log\nbuild/\n")
    paths = []
    for n in range(files + 100):  # 100 are deleted below
        area, part = AREAS[n % len(AREAS)], PARTS[(n // len(AREAS)) % len(PARTS)]
        path = f"src/{area}/{part}/mod_{n}.py"
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(f"value_{n}_{line} = {line}\n" for line in range(12)))
        paths.append(path)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "initial")
    deleted = []
    for step in range(20):  # history: deletions and renames the walk has to see
        # A small repository runs out of files, and a file renamed once is deleted
        # rather than renamed to its own name (neither happens at the default size).
        for path in rng.sample(paths, min(10, len(paths) - 1)):
            paths.remove(path)
            if step % 2 or "/mod_" not in path:
                _git(root, "rm", "-q", path)
                deleted.append(path)
            else:
                new = path.replace("mod_", "renamed_")
                _git(root, "mv", path, new)
                paths.append(new)
                deleted.append(path)
        _git(root, "commit", "-q", "--allow-empty", "-m", f"step {step}")
    return paths, deleted


def bodies(count: int, present: list[str], gone: list[str], rng: random.Random) -> list[str]:
    out = []
    for n in range(count):
        area, part = rng.choice(AREAS), rng.choice(PARTS)
        setting, tool = rng.choice(SETTINGS), rng.choice(TOOLS)
        value = rng.choice([5, 10, 30, 60, 100, 8080, 8081])
        unit = rng.choice(UNITS)
        kind = n % 6
        if kind == 0:
            out.append(f"The {area} {part} code lives in {rng.choice(present)}.")
        elif kind == 1:
            out.append(f"{part.title()} of {area} was moved out of {rng.choice(gone)}.")
        elif kind == 2:
            out.append(f"The {area} {part} {setting} is {value} {unit}.".replace(" .", "."))
        elif kind == 3:
            out.append(f"Use {tool} for the {area} {part} checks.")
        elif kind == 4:
            verb = rng.choice(["Run", "Don't run", "Never run"])
            out.append(f"{verb} the {area} {part} job before deploys.")
        else:
            out.append(f"Notes {n}: the {part} design in {area} follows docs/{area}/{part}.md.")
    return out


def main() -> int:
    count, files, iters = counts(
        __doc__,
        None,
        MEMORIES=(2000, 1, 100_000),
        FILES=(5000, 1, 100_000),
        ITERS=(5, 1, 100),
    )
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="synapse-drift-") as tmp:
        os.environ["SYNAPSE_DATA"] = str(Path(tmp) / "data")
        from synapse_git.git.project_scope import head
        from synapse_git.service import Synapse
        from synapse_git.settings import load
        from synapse_git.store import database, memories

        started = time.perf_counter()
        repo = Path(tmp) / "repo"
        present, gone = build_repo(repo, files, rng)
        repo_s = time.perf_counter() - started

        svc = Synapse(load())
        scope = svc.scope(repo)
        at = head(scope)
        started = time.perf_counter()
        conn = database.connect(svc.config.db_path)
        with database.transaction(conn):
            for body in bodies(count, present, gone, rng):
                memories.insert(
                    conn, body, "", scope.project, head_commit=at.commit, branch=at.branch
                )
        conn.close()
        seed_s = time.perf_counter() - started

        def timed(run: object) -> tuple[list[float], list[float], object]:
            result = run()  # type: ignore[operator]
            cpu, wall = [], []
            for _ in range(iters):
                c0, w0 = time.process_time(), time.perf_counter()
                result = run()  # type: ignore[operator]
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
            return cpu, wall, result

        cpu, wall, report = timed(lambda: svc.drift(scope))
        kinds: dict[str, int] = {}
        for finding in report.findings:  # type: ignore[attr-defined]
            kinds[finding.kind] = kinds.get(finding.kind, 0) + 1
        hit_ids = list(range(1, 9))
        about_cpu, about_wall, _ = timed(lambda: svc.drift_about(scope, hit_ids))
        print(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "sqlite": sqlite3.sqlite_version,
                    "libgit2": pygit2.LIBGIT2_VERSION,
                    "memories": count,
                    "files": len(present),
                    "commits": 21,
                    "repo_setup_s": round(repo_s, 2),
                    "seed_s": round(seed_s, 3),
                    "findings": kinds,
                    "drift_cpu_s": {
                        "p50": round(statistics.median(cpu), 3),
                        "max": round(max(cpu), 3),
                    },
                    "drift_wall_s": {
                        "p50": round(statistics.median(wall), 3),
                        "max": round(max(wall), 3),
                    },
                    "drift_about_8_hits_ms": {
                        "cpu_p50": round(statistics.median(about_cpu) * 1000, 1),
                        "wall_p50": round(statistics.median(about_wall) * 1000, 1),
                    },
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
