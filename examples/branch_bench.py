"""What branch-aware visibility costs recall and the git hooks (docs/branches.md).

    python examples/branch_bench.py [--files 1200] [--commits 10000] [--branches 50]
                                    [--memories 1000] [--rounds 11]

Builds a repository with `git fast-import` (FILES files, COMMITS commits on
main), then BRANCHES branches off main's last few hundred commits, each with
MEMORIES / BRANCHES commits changing one file each (half new files, half
existing ones). MEMORIES project memories are imported, each anchored at one
branch commit and naming the file it changed: every memory is on a branch not
merged into main, and main is checked out. The same memories imported with
`"everywhere": true` are the baseline: the same store, the same questions, and
no branch work at all.

Measured as real processes, the median of ROUNDS each, the two stores
alternating (so load drift hits both); CPU time of the process tree beside
each wall figure and the 1-minute load average before and after:

- `synapse memory recall` of a question matching many memories, the
  reachability already kept for this HEAD (warm);
- the same with the kept answer removed before each run (cold: what the first
  recall after HEAD or a branch moved pays);
- `git commit` of a one-file change with the hooks installed, each store in
  turn, and with `core.hooksPath=/dev/null`;
- `git checkout` from main to a branch and back, the same three ways;
- `branches.compute` in this process: the git work for every distinct anchor.

Everything happens in a temporary folder; the user's store is never opened.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
OFF = ["-c", "core.hooksPath=/dev/null"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def run(
    args: list[str], cwd: Path, env: dict[str, str], data: bytes | None = None
) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the process tree, output) of one real process."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        args,
        cwd=cwd,
        env=env,
        input=data,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    wall = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stdout.decode(errors='replace')[:2000]}")
    return wall, _children_cpu() - cpu, done.stdout.decode("utf-8", "replace")


def history(
    files: int, commits: int, branches: int, per_branch: int
) -> tuple[bytes, list[list[int]]]:
    """A fast-import stream; and, per branch, the marks of its commits."""
    out: list[bytes] = []
    stamp = 1_600_000_000
    mark = 0

    def blob(text: str) -> bytes:
        data = text.encode()
        return b"data %d\n" % len(data) + data + b"\n"

    def commit(ref: str, parent: int | None, changes: list[bytes]) -> int:
        nonlocal mark, stamp
        mark += 1
        stamp += 60
        who = b"Bench <bench@example.com> %d +0000" % stamp
        out.append(
            b"commit " + ref.encode() + b"\nmark :%d\nauthor %s\ncommitter %s\n" % (mark, who, who)
        )
        out.append(blob(f"change {mark}"))
        if parent is not None:
            out.append(b"from :%d\n" % parent)
        out.extend(changes)
        out.append(b"\n")
        return mark

    first = [
        b"M 100644 inline src/pkg%d/mod%d.py\n" % (n % 40, n) + blob(f"# module {n}\n")
        for n in range(files)
    ]
    main = [commit("refs/heads/main", None, first)]
    for n in range(1, commits):
        target = n % files
        change = b"M 100644 inline src/pkg%d/mod%d.py\n" % (target % 40, target) + blob(
            f"# module {target} v{n}\n"
        )
        main.append(commit("refs/heads/main", main[-1], [change]))
    marks: list[list[int]] = []
    for b in range(branches):
        parent = main[-1 - (b * 7) % min(400, len(main) - 1)]
        line: list[int] = []
        for k in range(per_branch):
            if k % 2 == 0:
                path = f"src/feature{b}/part{k}.py"
            else:
                n = (b * 37 + k * 11) % files
                path = f"src/pkg{n % 40}/mod{n}.py"
            change = b"M 100644 inline " + path.encode() + b"\n" + blob(f"# {path} on branch {b}\n")
            parent = commit(f"refs/heads/topic{b}", parent, [change])
            line.append(parent)
        marks.append(line)
    return b"".join(out), marks


def changed_path(b: int, k: int, files: int) -> str:
    if k % 2 == 0:
        return f"src/feature{b}/part{k}.py"
    n = (b * 37 + k * 11) % files
    return f"src/pkg{n % 40}/mod{n}.py"


class Pairs:
    def __init__(self) -> None:
        self.wall: dict[bool, list[float]] = {True: [], False: []}
        self.cpu: dict[bool, list[float]] = {True: [], False: []}
        self.load_before = os.getloadavg()[0]

    def add(self, on: bool, sample: tuple[float, float, str]) -> None:
        self.wall[on].append(sample[0])
        self.cpu[on].append(sample[1])

    def result(self, on: str, off: str) -> dict[str, object]:
        def med(values: list[float]) -> float:
            return round(statistics.median(values), 1)

        return {
            f"{on}_ms": med(self.wall[True]),
            f"{off}_ms": med(self.wall[False]),
            "added_ms": round(med(self.wall[True]) - med(self.wall[False]), 1),
            f"{on}_cpu_ms": med(self.cpu[True]),
            "added_cpu_ms": round(med(self.cpu[True]) - med(self.cpu[False]), 1),
            "samples": len(self.wall[True]),
            "load_1min_before": round(self.load_before, 2),
            "load_1min_after": round(os.getloadavg()[0], 2),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1200)
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--branches", type=int, default=50)
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    if min(vars(args).values()) < 1:
        parser.error("--files, --commits, --branches, --memories and --rounds must be at least 1")
    per_branch = max(1, args.memories // args.branches)
    work = Path(tempfile.mkdtemp(prefix="synapse-branch-bench-"))
    try:
        report = bench(work, args.files, args.commits, args.branches, per_branch, args.rounds)
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bench(
    work: Path, files: int, commits: int, branches: int, per_branch: int, rounds: int
) -> dict[str, object]:
    repo = work / "repo"
    repo.mkdir()
    base = {**os.environ, **GIT_ENV, "HOME": str(work), "XDG_CONFIG_HOME": str(work / "config")}
    base.pop("SYNAPSE_DATA", None)
    run(["git", "init", "-q", "-b", "main"], repo, base)
    stream, marks = history(files, commits, branches, per_branch)
    built = time.perf_counter()
    marks_file = work / "marks"
    run(["git", "fast-import", "--quiet", f"--export-marks={marks_file}"], repo, base, stream)
    run(["git", "checkout", "-q", "-f", "main"], repo, base)
    ids = dict(line.split() for line in marks_file.read_text().splitlines())
    report: dict[str, object] = {
        "repository": {
            "files": files + branches * ((per_branch + 1) // 2),
            "commits": commits + branches * per_branch,
            "branches": branches,
            "built_s": round(time.perf_counter() - built, 1),
        }
    }
    stores: dict[bool, dict[str, str]] = {}
    for labelled in (True, False):
        data = work / ("data-branches" if labelled else "data-everywhere")
        env = {**base, "SYNAPSE_DATA": str(data), "SYNAPSE_SEMANTIC": "off"}
        lines = []
        for b, line in enumerate(marks):
            for k, mark in enumerate(line):
                path = changed_path(b, k, files)
                entry = {
                    "body": f"The cache for topic {b} step {k} is set up in {path}",
                    "project": str(repo),
                    "head_commit": ids[f":{mark}"],
                }
                if not labelled:
                    entry["everywhere"] = True
                lines.append(json.dumps(entry))
        source = work / f"memories-{labelled}.jsonl"
        source.write_text("\n".join(lines) + "\n", encoding="utf-8")
        run([str(BIN / "synapse"), "memory", "import", str(source)], repo, env)
        stores[labelled] = env
    run([str(BIN / "synapse"), "hook", "install"], repo, stores[True])
    report["memories"] = len(marks) * per_branch

    question = [str(BIN / "synapse"), "memory", "recall", "cache topic step", "--json"]
    out = json.loads(run(question, repo, stores[True])[2])
    report["recall_labelled_hits"] = sum(1 for f in out["drift"] if f["kind"] == "unmerged")
    warm = Pairs()
    for _ in range(rounds):
        for labelled in (True, False):
            warm.add(labelled, run(question, repo, stores[labelled]))
    report["recall_warm"] = warm.result("branch_aware", "everywhere")

    cold = Pairs()
    kept = Path(stores[True]["SYNAPSE_DATA"]) / "branches"
    for _ in range(rounds):
        for labelled in (True, False):
            shutil.rmtree(kept, ignore_errors=True)
            cold.add(labelled, run(question, repo, stores[labelled]))
    report["recall_cold"] = cold.result("branch_aware", "everywhere")

    # The hooks read the store SYNAPSE_DATA names: the same hooks, either store.
    commit, commit_off = Pairs(), Pairs()
    for n in range(rounds):
        for labelled in (True, False):
            target = repo / "src" / "pkg0" / "mod0.py"
            target.write_text(f"# edit {n} {labelled}\n", encoding="utf-8")
            run(["git", "add", "-A"], repo, stores[labelled])
            commit.add(
                labelled, run(["git", "commit", "-q", "-m", f"e{n}"], repo, stores[labelled])
            )
        target.write_text(f"# edit {n} off\n", encoding="utf-8")
        run(["git", "add", "-A"], repo, base)
        commit_off.add(True, run(["git", *OFF, "commit", "-q", "-m", f"o{n}"], repo, base))
    report["git_commit"] = {
        **commit.result("branch_aware", "everywhere"),
        "without_hooks_ms": round(statistics.median(commit_off.wall[True]), 1),
        "without_hooks_cpu_ms": round(statistics.median(commit_off.cpu[True]), 1),
    }

    checkout, checkout_off = Pairs(), Pairs()
    for _ in range(rounds):
        for labelled, env, extra in (
            (True, stores[True], []),
            (False, stores[False], []),
            (None, base, OFF),
        ):
            wall = cpu = 0.0
            for ref in ("topic0", "main"):
                w, c, _ = run(["git", *extra, "checkout", "-q", ref], repo, env)
                wall += w
                cpu += c
            if labelled is None:
                checkout_off.add(True, (wall / 2, cpu / 2, ""))
            else:
                checkout.add(labelled, (wall / 2, cpu / 2, ""))
    report["git_checkout_branch"] = {
        **checkout.result("branch_aware", "everywhere"),
        "without_hooks_ms": round(statistics.median(checkout_off.wall[True]), 1),
        "without_hooks_cpu_ms": round(statistics.median(checkout_off.cpu[True]), 1),
    }

    from synapse_git.git import branches as reach

    head = run(["git", "rev-parse", "HEAD"], repo, base)[2].strip()
    anchors = [ids[f":{mark}"] for line in marks for mark in line]
    times = []
    cpu_times = []
    for _ in range(rounds):
        load = os.getloadavg()[0]
        start, start_cpu = time.perf_counter(), _children_cpu() + time.process_time() * 1000
        found = reach.compute(repo, head, anchors)
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append(_children_cpu() + time.process_time() * 1000 - start_cpu)
    report["compute_all_anchors"] = {
        "anchors": len(set(anchors)),
        "on_a_branch": sum(1 for s in found.values() if s.state == reach.BRANCH),
        "median_ms": round(statistics.median(times), 1),
        "median_cpu_ms": round(statistics.median(cpu_times), 1),
        "load_1min_before": round(load, 2),
        "load_1min_after": round(os.getloadavg()[0], 2),
    }
    return report


if __name__ == "__main__":
    main()
