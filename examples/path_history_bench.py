"""Path history index benchmark (docs/drift.md, "The path history"): the one-time
build of the index over every ref of a real repository, then what keeps it up to
date — an update with nothing new, an update after 20 new commits, and the
rebuild after a rewritten tip — plus a few look-ups drift makes.

    python examples/path_history_bench.py REPOSITORY [PATH ...]

REPOSITORY is any git repository (a clone, or a bare mirror): it is cloned with
`git clone --no-checkout` into a temporary folder (its refs become remote
branches there, all indexed), and the index is written to another temporary
folder; both are removed afterwards. Each PATH is followed from the root commit
to HEAD, as drift follows a path a memory named. Prints JSON: git and Python
versions, commits and paths indexed, index size, and for each step the wall
time, the CPU time of this process and of git (children), and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import arguments

from synapse_git.drift.lineage import Lineage, when
from synapse_git.drift.path_history import PathHistory


def timed(step: Callable[[], Any]) -> tuple[Any, dict[str, float]]:
    before = (time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF))
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = step()
    after_self = resource.getrusage(resource.RUSAGE_SELF)
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return result, {
        "wall_s": round(time.perf_counter() - before[0], 3),
        "cpu_s": round(
            after_self.ru_utime + after_self.ru_stime - before[1].ru_utime - before[1].ru_stime,
            3,
        ),
        "git_cpu_s": round(
            after_children.ru_utime
            + after_children.ru_stime
            - children.ru_utime
            - children.ru_stime,
            3,
        ),
        "load_1m": round(os.getloadavg()[0], 2),
    }


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    ).stdout


def main(source: str, paths: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as clone_dir, tempfile.TemporaryDirectory() as data:
        clone = Path(clone_dir) / "repo"
        git(Path(clone_dir), "clone", "-q", "--no-checkout", source, str(clone))
        common = Path(git(clone, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())
        history = PathHistory(clone, common, Path(data))
        report: dict[str, Any] = {
            "git": git(clone, "--version").strip(),
            "python": platform.python_version(),
            "commits_in_all_refs": int(git(clone, "rev-list", "--all", "--count")),
            "cpus": os.cpu_count(),
        }
        _, report["build"] = timed(history.update)
        status = history.status()
        report["indexed_commits"], report["complete"] = status.commits, status.complete
        report["indexed_paths"] = len(history.names())
        report["index_bytes"] = history.path.stat().st_size
        _, report["update_nothing_new"] = timed(history.update)
        # New commits keep HEAD's tree: the clone has no work tree to commit from.
        for n in range(20):
            made = git(clone, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", f"bench {n}")
            git(clone, "update-ref", "HEAD", made.strip())
        _, report["update_20_new_commits"] = timed(history.update)
        amended = git(clone, "commit-tree", "HEAD^{tree}", "-p", "HEAD~1", "-m", "reworded")
        git(clone, "update-ref", "HEAD", amended.strip())
        git(clone, "reflog", "expire", "--expire=now", "--all")
        _, report["rebuild_after_amend"] = timed(history.update)
        lineage = Lineage(history, clone, git(clone, "rev-parse", "HEAD").strip())
        followed: dict[str, Any] = {}
        for path in paths:
            found, cost = timed(lambda path=path: lineage.follow(path, None))
            followed[path] = {
                "last_name": found.name,
                "deleted": when(found.deleted) if found.deleted else None,
                **cost,
            }
        report["follow"] = followed
        history.close()
        return report


def command_line() -> argparse.Namespace:
    parser = arguments.parser(__doc__)
    parser.add_argument("source", metavar="REPOSITORY")
    parser.add_argument("paths", nargs="*", default=[], metavar="PATH")
    args = parser.parse_args()
    if ":" not in args.source:  # a folder; a URL or host:path is left to the clone
        known = subprocess.run(
            ["git", "-C", args.source, "rev-parse", "--git-dir"], capture_output=True, check=False
        )
        if known.returncode != 0:
            parser.error(f"{args.source} is not a git repository")
    return args


if __name__ == "__main__":
    args = command_line()
    print(json.dumps(main(args.source, args.paths), indent=2))
