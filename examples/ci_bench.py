"""`synapse ci check` benchmark: a pull request against a team file of N shared
memories, in a temporary repository removed afterwards.

    python examples/ci_bench.py [MEMORIES]   (default 10000)

The base commit has N files and a team file of N live memories, each naming one
file and saying a value of its own; the change deletes 100 of the files, renames
100 others and adds 10 memories, one of them contradicting an old one. Each
format of the check runs as CI runs it, in a new process; prints JSON with the
wall and the child's CPU seconds of each, the findings, and the load average.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arguments import counts

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env={**os.environ, **GIT_ENV}, check=True)


def build(repo: Path, count: int) -> None:
    from synapse_git.team import records

    def line(uid: str, body: str) -> str:
        stamp = "2026-01-01T00:00:00Z"
        return records.Record(
            uid, body, "", "Bench <b@example.com>", stamp, stamp, None, "live"
        ).line()

    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    lines = []
    for number in range(count):
        folder = repo / "src" / f"area{number % 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"module{number}.py").write_text(f"VALUE = {number}\n", encoding="utf-8")
        lines.append(
            line(
                f"m{number:06d}",
                f"The service{number} timeout is {number + 5} s; see"
                f" src/area{number % 100}/module{number}.py.",
            )
        )
    (repo / ".synapse").mkdir()
    (repo / records.FILE).write_text("".join(f"{text}\n" for text in lines), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "change")
    for number in range(100):
        git(repo, "rm", "-q", f"src/area{number % 100}/module{number}.py")
    for number in range(100, 200):
        old = f"src/area{number % 100}/module{number}.py"
        git(repo, "mv", old, old.replace("module", "renamed"))
    added = [line(f"n{n:06d}", f"Release {n} notes are kept in the wiki.") for n in range(9)]
    added.append(line("n999999", "The service300 timeout is 99 s."))
    with (repo / records.FILE).open("a", encoding="utf-8") as handle:
        handle.write("".join(f"{text}\n" for text in added))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "change")


def run(repo: Path, output: str) -> dict[str, object]:
    before = os.times()
    wall = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "synapse_git", "ci", "check", "--base", "main", "--format", output],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - wall
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    figures: dict[str, object] = {
        "exit": done.returncode,
        "cpu_s": round(cpu, 3),
        "wall_s": round(wall, 3),
    }
    if output == "json":
        report = json.loads(done.stdout)
        kinds: dict[str, int] = {}
        for finding in report["findings"]:
            kinds[finding["kind"]] = kinds.get(finding["kind"], 0) + 1
        figures["findings"] = kinds
    return figures


def main() -> None:
    # The change renames files 100 to 199 and contradicts memory 300.
    (count,) = counts(__doc__, None, MEMORIES=(10000, 301, None))
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        build(repo, count)
        results = {output: run(repo, output) for output in ("json", "github", "sarif")}
    print(
        json.dumps(
            {
                "memories": count,
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "load_average": [round(load, 2) for load in os.getloadavg()],
                "runs": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
