"""Large bodies: time and peak memory of remember, recall, drift and session start.

    python examples/large_bodies_bench.py [--sizes 64,256,1024] [--counts 1,30,120]

For each body size (KiB) and count, builds a store in a temporary folder beside
a real git repository: COUNT project memories of SIZE KiB of distinct words
(each body also names a few paths, half of them gone from the checkout, and
shares a handful of words with the others), imported in one batch. Then each
operation runs as its own `synapse` process, timed from outside:

- remember: one more body of SIZE KiB (`memory remember -`);
- recall: a question whose rare word sits at the end of one body, and a
  question of words every body holds (`memory recall`);
- drift: `memory drift` over the whole project;
- session: `hook session`, what a starting agent is told.

Prints one JSON line per operation: wall and CPU seconds, the peak resident set
of that process (MB, from /usr/bin/time), and the one-minute load average before and
after. Nothing is asserted; docs/benchmarks.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
SHARED = ["deploy", "pipeline", "staging", "cluster", "timeout", "retries"]


def body(rng: random.Random, size: int, n: int) -> str:
    """About `size` bytes of distinct made-up words, a few paths and the shared words;
    its last word, `marker{n}`, lies past any prefix recall might stop at."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    parts = [f"Note {n} about the", *SHARED, "kept in src/app/main.py and docs/gone{n}.md."]
    used = sum(len(p) + 1 for p in parts)
    while used < size - 32:
        word = "".join(rng.choice(letters) for _ in range(rng.randint(5, 10)))
        parts.append(word)
        used += len(word) + 1
    parts.append(f"marker{n}")
    return " ".join(parts)


def synapse() -> list[str]:
    exe = Path(sys.executable).with_name("synapse")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]


def measure(
    name: str, args: list[str], cwd: Path, env: dict[str, str], stdin: bytes | None = None
) -> dict[str, object]:
    """Run `synapse ARGS` under /usr/bin/time, a small process of its own: the peak
    resident set of a child forked from this one would count this one's too."""
    load = os.getloadavg()[0]
    with tempfile.NamedTemporaryFile(prefix="synapse-time-") as report:
        started = time.perf_counter()
        done = subprocess.run(
            ["/usr/bin/time", "-o", report.name, "-f", "%U %S %M", *synapse(), *args],
            cwd=cwd,
            env=env,
            input=stdin if stdin is not None else b"",
            capture_output=True,
            check=False,
        )
        wall = time.perf_counter() - started
        user, system, peak_kb = Path(report.name).read_text().split()[-3:]
    return {
        "op": name,
        "exit": done.returncode,
        "wall_s": round(wall, 2),
        "cpu_s": round(float(user) + float(system), 2),
        "peak_rss_mb": round(int(peak_kb) / 1024, 1),
        "out_bytes": len(done.stdout),
        "err": done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        if done.returncode not in (0, 1)
        else [],
        "load": [round(load, 2), round(os.getloadavg()[0], 2)],
    }


def run(size_kib: int, count: int, work: Path) -> list[dict[str, object]]:
    rng = random.Random(size_kib * 1000 + count)
    repo = work / "repo"
    (repo / "src" / "app").mkdir(parents=True)
    (repo / "src" / "app" / "main.py").write_text("print('hi')\n")
    env = {**os.environ, **GIT_ENV, "SYNAPSE_DATA": str(work / "data"), "SYNAPSE_SEMANTIC": "off"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    size = size_kib * 1024
    lines = [json.dumps({"body": body(rng, size, n), "project": str(repo)}) for n in range(count)]
    feed = ("\n".join(lines) + "\n").encode()
    results = [measure("import", ["memory", "import", "-"], repo, env, feed)]
    extra = body(rng, size, count).encode()
    results.append(measure("remember", ["memory", "remember", "-"], repo, env, extra))
    results.append(measure("recall rare", ["memory", "recall", f"marker{count // 2}"], repo, env))
    results.append(measure("recall common", ["memory", "recall", "staging timeout"], repo, env))
    results.append(measure("drift", ["memory", "drift"], repo, env))
    results.append(measure("session", ["hook", "session"], repo, env))
    for result in results:
        result.update(size_kib=size_kib, count=count)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="64,256,1024", help="body sizes in KiB")
    parser.add_argument("--counts", default="1,30,120", help="numbers of bodies")
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
        counts = [int(c) for c in args.counts.split(",")]
    except ValueError:
        parser.error("--sizes and --counts take whole numbers separated by commas")
    if min(sizes + counts) < 1:
        parser.error("--sizes and --counts must be at least 1")
    for size in sizes:
        for count in counts:
            with tempfile.TemporaryDirectory(prefix="synapse-large-") as work:
                for result in run(size, count, Path(work)):
                    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
