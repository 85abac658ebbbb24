"""Measure `synapse hook prompt` from process start, as a client runs it before a prompt.

    python examples/prompt_bench.py [N] [ROUNDS]   (defaults 10000 and 5)

Builds a temporary git repository and a temporary store holding N memories:
the example store's notes (synapse_git/examples/memories.jsonl) as the repository's
project memories, and the retrieval benchmark's synthetic memories (global,
each holding the word "zephyr") to make up N. Then runs the installed
`synapse hook prompt` as a real process with a client's hook JSON on stdin,
ROUNDS times over every question of examples/cases.toml (answered ones and
ones nothing answers) plus a prompt naming the word every synthetic memory
holds; each run is a new session, so nothing is held back as already given.

Prints JSON: wall milliseconds from process start to exit (median, p95, max),
the CPU milliseconds of each process (median, p95), how many runs injected
context, the load average before and after, and `python -c pass` for
comparison. Everything is removed afterwards; the user's store is never opened.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from arguments import counts
from checkouts import temporary_data
from retrieval import MAX_N, seed

HERE = Path(__file__).parent
EXAMPLE_NOTES = HERE.parent / "synapse_git" / "examples" / "memories.jsonl"
BIN = Path(sys.executable).parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def timed(args: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float, bytes]:
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(args, input=stdin, env=env, capture_output=True, check=False)
    wall = (time.perf_counter() - start) * 1000
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{args} failed: {done.stderr!r}")
    return wall, _children_cpu() - cpu, done.stdout


def spread(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "median_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(p95, 1),
        "max_ms": round(ordered[-1], 1),
    }


def main(argv: list[str]) -> int:
    n, rounds = counts(__doc__, argv[1:], N=(10_000, 0, MAX_N), ROUNDS=(5, 1, None))
    examples = EXAMPLE_NOTES.read_text(encoding="utf-8").splitlines()
    questions = [case["query"] for case in tomllib.loads((HERE / "cases.toml").read_text())["case"]]
    prompts = [*questions, "what does zephyr mean in these notes?"]
    with temporary_data("synapse-prompt-") as folder:
        repo = folder / "repo"
        repo.mkdir()
        env = {**os.environ, **GIT_ENV}
        subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
        subprocess.run(
            ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "start"],
            check=True,
            env=env,
        )
        data = Path(os.environ["SYNAPSE_DATA"])
        data.mkdir(parents=True)
        seed(data / "memory.db", max(0, n - len(examples)))
        project = str(repo.resolve())
        lines = [json.dumps({**json.loads(line), "project": project}) for line in examples]
        from synapse_git.service import Synapse

        assert Synapse().import_lines(lines).imported == len(examples)
        command = [str(BIN / "synapse"), "hook", "prompt"]
        load_before = os.getloadavg()
        walls: list[float] = []
        cpus: list[float] = []
        injected = 0
        for round_number in range(rounds):
            for number, prompt in enumerate(prompts):
                event = {
                    "session_id": f"bench-{round_number}-{number}",
                    "cwd": str(repo),
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": prompt,
                }
                wall, cpu, out = timed(command, json.dumps(event).encode(), env)
                walls.append(wall)
                cpus.append(cpu)
                injected += bool(out)
        bare = [timed([sys.executable, "-c", "pass"], b"", env)[0] for _ in range(20)]
        report = {
            "memories": n,
            "runs": len(walls),
            "injected": injected,
            "wall": spread(walls),
            "cpu": spread(cpus),
            "python_start": spread(bare),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "editable_install": "site-packages" not in __import__("synapse_git").__file__,
        }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
