"""Measure what Synapse's git hooks add to real git commands, and session start.

    python examples/hook_bench.py [FILES] [MEMORIES] [ROUNDS]   (defaults 5000 1000 15)

Run it with the Python of the installation to measure; an editable install
(`pip install -e`) adds a path finder to every start, which the JSON reports.

Builds a temporary repository of FILES files and a temporary store with
MEMORIES project memories (each naming a file of the repository), then times,
as wall clock of real processes:

- `git commit` of a one-file change with the installed plain hook, against the
  same commit with `--no-verify` (rounds alternate, so load drift hits both);
- the same with a commit that deletes a file no memory names (the store and
  the trigram index are consulted);
- `git commit` through the pre-commit framework (`pre-commit install`, a
  `repo: local` hook running the same `synapse-drift-hook` entry as the
  published `synapse-drift`), against `--no-verify`;
- `synapse hook session` with a current snapshot, and with a stale one;
- `git checkout` of another branch with the post-checkout hook, against
  `-c core.hooksPath=/dev/null`.

Prints JSON: medians and p95 in milliseconds. Everything is removed afterwards;
the user's store is never opened.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arguments import counts

BIN = Path(sys.executable).parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


CPU: list[float] = []  # CPU ms of the process tree of each timed run, in order


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def run(args: list[str], cwd: Path, env: dict[str, str], check: bool = True) -> float:
    """Wall milliseconds of one real process (its CPU milliseconds go to CPU)."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, check=False)
    took = (time.perf_counter() - start) * 1000
    CPU.append(_children_cpu() - cpu)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stdout!r} {done.stderr!r}")
    return took


def _editable() -> bool:
    import synapse_git

    return "site-packages" not in synapse_git.__file__


def stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median_ms": round(statistics.median(ordered), 1), "p95_ms": round(p95, 1)}


def build_repo(root: Path, files: int, env: dict[str, str]) -> list[str]:
    names = [f"src/pkg{i // 100:03d}/module_{i:05d}.py" for i in range(files)]
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"VALUE = {len(name)}\n", encoding="utf-8")
    run(["git", "init", "-q", "-b", "main"], root, env)
    run(["git", "add", "-A"], root, env)
    run(["git", "commit", "-q", "-m", "files"], root, env)
    return names


def seed(root: Path, names: list[str], memories: int, env: dict[str, str]) -> set[str]:
    step = max(1, len(names) // memories)
    lines = [
        json.dumps(
            {
                "body": f"Module {i}: the parser for format {i} lives in "
                f"{names[(i * step) % len(names)]} and its timeout is {i % 90 + 10} s.",
                "source": "bench",
                "project": str(root),
            }
        )
        for i in range(memories)
    ]
    data = root.parent / "seed.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run([str(BIN / "synapse"), "memory", "import", str(data)], root, env)
    return {names[(i * step) % len(names)] for i in range(memories)}


def paired(
    rounds: int,
    prepare: Callable[[int], None],
    hooked: list[str],
    bare: list[str],
    cwd: Path,
    env: dict[str, str],
) -> dict[str, object]:
    """Alternate the hooked and the bare command; each round gets its own change."""
    with_hook: list[float] = []
    without: list[float] = []
    cpu: dict[bool, list[float]] = {True: [], False: []}
    prepare(-1)
    run(hooked, cwd, env)  # untimed warm-up: compiled modules cached, files in page cache
    for i in range(rounds * 2):
        prepare(i)
        command = hooked if i % 2 == 0 else bare
        (with_hook if i % 2 == 0 else without).append(run(command, cwd, env))
        cpu[i % 2 == 0].append(CPU[-1])
    return {
        "with_hook": stats(with_hook),
        "without": stats(without),
        "added_median_ms": round(statistics.median(with_hook) - statistics.median(without), 1),
        "added_cpu_median_ms": round(
            statistics.median(cpu[True]) - statistics.median(cpu[False]), 1
        ),
    }


def main(argv: list[str]) -> int:
    files, memories, rounds = counts(
        __doc__, argv, FILES=(5000, 1, None), MEMORIES=(1000, 1, None), ROUNDS=(15, 1, None)
    )
    workdir = Path(tempfile.mkdtemp(prefix="synapse-hook-bench-"))
    try:
        root = workdir / "repo"
        root.mkdir()
        env = {
            **os.environ,
            **GIT_ENV,
            "SYNAPSE_DATA": str(workdir / "data"),
            "PRE_COMMIT_HOME": str(workdir / "pre-commit-cache"),
            "PATH": f"{BIN}:{os.environ.get('PATH', '')}",
        }
        env.pop("XDG_DATA_HOME", None)
        # Measure as users run it: Python may cache compiled modules (some CI images
        # turn that off, which makes every start recompile the package).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        root = root.resolve()
        names = build_repo(root, files, env)
        named = seed(root, names, memories, env)
        run([str(BIN / "synapse"), "hook", "install"], root, env)
        counter = iter(range(10**9))

        def touch(_: int) -> None:
            path = root / "CHANGES.txt"
            path.write_text(f"change {next(counter)}\n", encoding="utf-8")
            run(["git", "add", "CHANGES.txt"], root, env)

        spare = iter(n for n in reversed(names) if n not in named)

        def delete_unnamed(_: int) -> None:
            run(["git", "rm", "-q", next(spare)], root, env)

        commit = ["git", "commit", "-q", "-m", "bench"]
        result: dict[str, object] = {
            "python": sys.version.split()[0],
            "load_average_at_start": os.getloadavg()[0],
            # An editable install (`pip install -e`) adds a path finder to every start.
            "editable_install": _editable(),
            "files": files,
            "memories": memories,
            "rounds": rounds,
        }
        result["plain_hook_commit"] = paired(
            rounds, touch, commit, [*commit, "--no-verify"], root, env
        )
        result["plain_hook_commit_deleting_a_file"] = paired(
            rounds, delete_unnamed, commit, [*commit, "--no-verify"], root, env
        )

        # Post-checkout: a branch switch with the hook, and with hooks turned off.
        run(["git", "branch", "other"], root, env)
        flip = iter(range(10**9))

        def checkout_cmd(hooked: bool) -> list[str]:
            base = ["git"] if hooked else ["git", "-c", "core.hooksPath=/dev/null"]
            return [*base, "checkout", "-q"]

        samples: dict[bool, list[float]] = {True: [], False: []}
        cpu_samples: dict[bool, list[float]] = {True: [], False: []}
        for i in range(rounds * 2):
            hooked = i % 2 == 0
            target = "other" if next(flip) % 2 == 0 else "main"
            samples[hooked].append(run([*checkout_cmd(hooked), target], root, env))
            cpu_samples[hooked].append(CPU[-1])
        run(["git", "checkout", "-q", "main"], root, env)
        result["post_checkout_branch_switch"] = {
            "with_hook": stats(samples[True]),
            "without": stats(samples[False]),
            "added_median_ms": round(
                statistics.median(samples[True]) - statistics.median(samples[False]), 1
            ),
            "added_cpu_median_ms": round(
                statistics.median(cpu_samples[True]) - statistics.median(cpu_samples[False]), 1
            ),
        }

        # Session start: a current snapshot, then one made stale by a store change.
        session = [str(BIN / "synapse"), "hook", "session"]
        run(session, root, env)
        current = [run(session, root, env) for _ in range(rounds)]
        current_cpu = CPU[-rounds:]
        stale: list[float] = []
        for i in range(min(rounds, 5)):
            run(
                [str(BIN / "synapse"), "memory", "remember", f"bench note {i}", "--global"],
                root,
                env,
            )
            stale.append(run(session, root, env))
        result["session_start_current_snapshot"] = {
            **stats(current),
            "cpu_median_ms": round(statistics.median(current_cpu), 1),
        }
        result["session_start_recomputed"] = stats(stale)
        claude = subprocess.run(
            [*session, "--format", "claude"], cwd=root, env=env, capture_output=True, check=True
        )
        result["session_claude_bytes"] = len(claude.stdout)

        # The pre-commit framework route: uninstall the plain hooks, install pre-commit's.
        run([str(BIN / "synapse"), "hook", "uninstall"], root, env)
        (root / ".pre-commit-config.yaml").write_text(
            "repos:\n- repo: local\n  hooks:\n"
            "  - id: synapse-drift\n    name: synapse drift\n"
            f"    entry: {BIN / 'synapse-drift-hook'}\n    language: system\n"
            "    pass_filenames: false\n    always_run: true\n    stages: [pre-commit]\n",
            encoding="utf-8",
        )
        run(["git", "add", ".pre-commit-config.yaml"], root, env)
        run(["git", "commit", "-q", "--no-verify", "-m", "config"], root, env)
        pre_commit = BIN / "pre-commit"
        if not pre_commit.exists():
            pre_commit = Path(shutil.which("pre-commit") or "pre-commit")
        run([str(pre_commit), "install"], root, env)
        result["pre_commit_framework_commit"] = paired(
            rounds, touch, commit, [*commit, "--no-verify"], root, env
        )
        result["load_average_at_end"] = os.getloadavg()[0]
        print(json.dumps(result, indent=2))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
