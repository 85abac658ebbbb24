"""What Synapse's git hooks add to git on a real repository with a long history.

    python examples/repo_hook_bench.py CLONE TAG [--memories 400] [--rounds 11] [--code DIR]

CLONE is a work tree of a real repository with its full history (measured:
pypa/pip, 1,070 files, 16k commits); TAG a far tag of it. The clone is copied
(`git clone`, hard links) into a temporary folder, with a temporary store of
MEMORIES project memories remembered at HEAD, each naming one tracked file
(plus five conflicting pairs among them), and the hooks installed. Then, as wall clock
and CPU time of real processes, the median of ROUNDS each, with the hooks and
with `-c core.hooksPath=/dev/null` alternating (so load drift hits both):

- `git commit` of a one-file change;
- `git checkout` of TAG from the default branch and back (both directions);
- `git rebase` of 20 commits (a branch from 60 commits back, each commit
  changing one file a memory names) onto the default branch;
- the tree diff a refresh needs (TAG against the default branch), as
  `git diff --name-only` and through pygit2.

`--code DIR` runs another checkout of Synapse's code (PYTHONPATH=DIR) with
this installation's commands: the figures before and after a change. Prints
JSON with the 1-minute load average before and after each figure; everything
is removed afterwards and the user's store is never opened.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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


def run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall ms, CPU ms of the process tree, output) of one real process."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False
    )
    wall = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stdout.decode(errors='replace')}")
    return wall, _children_cpu() - cpu, done.stdout.decode("utf-8", "replace")


def git(root: Path, env: dict[str, str], *args: str) -> str:
    return run(["git", *args], root, env)[2]


class Pairs:
    """Samples with and without the hooks, and the load around them."""

    def __init__(self) -> None:
        self.wall: dict[bool, list[float]] = {True: [], False: []}
        self.cpu: dict[bool, list[float]] = {True: [], False: []}
        self.load_before = os.getloadavg()[0]
        self.output = ""

    def add(self, hooked: bool, sample: tuple[float, float, str]) -> None:
        self.wall[hooked].append(sample[0])
        self.cpu[hooked].append(sample[1])
        if hooked:
            self.output = sample[2]

    def result(self) -> dict[str, object]:
        def med(values: list[float]) -> float:
            return round(statistics.median(values), 1)

        return {
            "with_hooks_ms": med(self.wall[True]),
            "without_ms": med(self.wall[False]),
            "added_ms": round(med(self.wall[True]) - med(self.wall[False]), 1),
            "added_cpu_ms": round(med(self.cpu[True]) - med(self.cpu[False]), 1),
            "samples": len(self.wall[True]),
            "load_1min_before": round(self.load_before, 2),
            "load_1min_after": round(os.getloadavg()[0], 2),
            "hook_said": self.output.strip().splitlines()[-3:],
        }


SEED = """
import json, sys
from synapse_git.service import Synapse
svc = Synapse()
scope = svc.scope(sys.argv[1])
for body in json.load(open(sys.argv[2], encoding="utf-8")):
    svc.remember(body, scope, source="bench")
"""


def seed(root: Path, env: dict[str, str], count: int, data: Path) -> list[str]:
    """COUNT memories naming tracked files (five conflicting pairs among them),
    remembered at HEAD as `remember` does, so each records its commit."""
    files = [name for name in git(root, env, "ls-files").splitlines() if "/" in name]
    chosen = random.Random(23).sample(files, min(count - 10, len(files)))
    bodies = [f"Read {name} before changing anything near it." for name in chosen]
    for n in range(5):
        bodies.append(f"The request timeout of service {n} is 30 s.")
        bodies.append(f"The request timeout of service {n} is 60 s.")
    data.write_text(json.dumps(bodies), encoding="utf-8")
    run([sys.executable, "-c", SEED, str(root), str(data)], root, env)
    return chosen


PYGIT2_DIFF = """
import sys, time
start = time.process_time()
import pygit2
loaded = time.process_time()
repo = pygit2.Repository(sys.argv[1])
old, new = (repo.revparse_single(name).peel(pygit2.Tree) for name in sys.argv[2:4])
names = [delta.new_file.path for delta in old.diff_to_tree(new).deltas]
done = time.process_time()
print(len(names), round((loaded - start) * 1000, 1), round((done - loaded) * 1000, 1))
"""


def tree_diff(root: Path, env: dict[str, str], tag: str, branch: str, rounds: int) -> object:
    """The paths differing between TAG and the branch: `git diff --name-only` as a
    process, against pygit2 in a Python process (its import counted apart)."""
    by_git: list[tuple[float, float]] = []
    by_pygit2: list[tuple[float, float, float, float]] = []
    load = os.getloadavg()[0]
    paths = 0
    for _ in range(rounds):
        wall, cpu, out = run(
            ["git", "diff", "--name-only", "-z", "--no-renames", tag, branch], root, env
        )
        by_git.append((wall, cpu))
        paths = out.count("\0")
        wall, cpu, out = run([sys.executable, "-c", PYGIT2_DIFF, str(root), tag, branch], root, env)
        _, imported, diffed = out.split()
        by_pygit2.append((wall, cpu, float(imported), float(diffed)))

    def med(values: list[float]) -> float:
        return round(statistics.median(values), 1)

    return {
        "paths": paths,
        "git_diff_process": {
            "ms": med([w for w, _ in by_git]),
            "cpu_ms": med([c for _, c in by_git]),
        },
        "pygit2_process": {
            "ms": med([s[0] for s in by_pygit2]),
            "cpu_ms": med([s[1] for s in by_pygit2]),
            "import_cpu_ms": med([s[2] for s in by_pygit2]),
            "diff_cpu_ms": med([s[3] for s in by_pygit2]),
        },
        "load_1min_before": round(load, 2),
        "load_1min_after": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("tag")
    parser.add_argument("--memories", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--code", type=Path, help="run this checkout of Synapse's code")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="synapse-repo-bench-"))
    try:
        env = {
            **os.environ,
            **GIT_ENV,
            "SYNAPSE_DATA": str(workdir / "data"),
            "PATH": f"{BIN}:{os.environ.get('PATH', '')}",
        }
        env.pop("XDG_DATA_HOME", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if args.code is not None:
            env["PYTHONPATH"] = str(args.code.resolve())
        root = (workdir / "repo").resolve()
        run(["git", "clone", "-q", str(args.clone.resolve()), str(root)], workdir, env)
        main_branch = git(root, env, "rev-parse", "--abbrev-ref", "HEAD").strip()
        named = seed(root, env, args.memories, workdir / "seed.jsonl")
        run([str(BIN / "synapse"), "hook", "install"], root, env)
        first = run([str(BIN / "synapse"), "hook", "post-checkout", "x", "y", "1"], root, env)
        result: dict[str, object] = {
            "python": sys.version.split()[0],
            "code": str(args.code) if args.code else "installed",
            "commits": int(git(root, env, "rev-list", "--count", "HEAD")),
            "files": len(git(root, env, "ls-files").splitlines()),
            "memories": args.memories,
            "rounds": args.rounds,
            "first_refresh": {"ms": round(first[0], 1), "cpu_ms": round(first[1], 1)},
        }
        rounds = args.rounds

        # git commit of a one-file change.
        commits = Pairs()
        for i in range(rounds * 2 + 1):
            (root / "BENCH.txt").write_text(f"change {i}\n", encoding="utf-8")
            git(root, env, "add", "BENCH.txt")
            hooked = i % 2 == 1  # round 0 is an untimed warm-up
            command = ["git", *([] if hooked else OFF), "commit", "-q", "-m", f"bench {i}"]
            sample = run(command, root, env)
            if i:
                commits.add(hooked, sample)
        result["commit"] = commits.result()

        # git checkout of a far tag and back, both directions timed.
        checkouts = Pairs()
        for i in range(rounds + 1):
            for hooked in (True, False) if i % 2 else (False, True):
                pre = [] if hooked else OFF
                there = run(["git", *pre, "checkout", "-q", args.tag], root, env)
                back = run(["git", *pre, "checkout", "-q", main_branch], root, env)
                if i:
                    checkouts.add(hooked, there)
                    checkouts.add(hooked, back)
        result["checkout_far_tag"] = checkouts.result()

        # git rebase of 20 commits from 60 commits back onto the default branch.
        moved = set(git(root, env, "diff", "--name-only", "HEAD~60", "HEAD").splitlines())
        quiet = [name for name in named if name not in moved][:20]
        git(root, env, *OFF, "checkout", "-q", "-b", "feature", "HEAD~60")
        for n, name in enumerate(quiet):
            with (root / name).open("a", encoding="utf-8") as handle:
                handle.write(f"\n# bench {n}\n")
            git(root, env, "add", name)
            git(root, env, *OFF, "commit", "-q", "-m", f"feature {n}")
        start = git(root, env, "rev-parse", "HEAD").strip()
        rebases = Pairs()
        for i in range(rounds * 2 + 1):
            hooked = i % 2 == 1
            pre = [] if hooked else OFF
            # Untimed: back to the branch as it was, the snapshot brought there too.
            git(root, env, "checkout", "-q", "-B", "feature", start)
            sample = run(["git", *pre, "rebase", "-q", main_branch], root, env)
            if i:
                rebases.add(hooked, sample)
        result["rebase_20_commits"] = rebases.result()
        result["tree_diff_far_tag"] = tree_diff(root, env, args.tag, main_branch, rounds)
        print(json.dumps(result, indent=2))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
