"""Where a path that existed at an anchor commit is now, read from git alone.

Used to write the labels of the real-repository drift sets (never Synapse):
walks every non-merge commit between the anchor and HEAD, oldest first, and
applies git's renames and deletions to the path (a folder: to every file in it).

    python examples/drift_real/lineage.py CLONE ANCHOR PATH...
"""

from __future__ import annotations

import json
import subprocess
import sys


def git(clone: str, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", clone, *args], check=True, capture_output=True, text=True
    ).stdout


def changes(clone: str, anchor: str) -> list[tuple[str, list[list[str]]]]:
    out = git(
        clone,
        "log",
        "--reverse",
        "--topo-order",
        "--no-merges",
        "-M",
        "--name-status",
        "--format=@%H",
        f"{anchor}..HEAD",
    )
    commits: list[tuple[str, list[list[str]]]] = []
    for line in out.splitlines():
        if line.startswith("@"):
            commits.append((line[1:], []))
        elif line.strip():
            commits[-1][1].append(line.split("\t"))
    return commits


def follow(commits: list[tuple[str, list[list[str]]]], path: str) -> dict[str, str | None]:
    name: str | None = path
    steps: list[str] = []
    for sha, rows in commits:
        for row in rows:
            if name is None:
                break
            status = row[0]
            if status.startswith("R") and row[1] == name:
                steps.append(f"{sha[:10]} {row[1]} -> {row[2]} ({status})")
                name = row[2]
            elif status == "D" and row[1] == name:
                steps.append(f"{sha[:10]} deleted {name}")
                name = None
            elif status == "A" and name is None:
                pass
    return {"path": path, "now": name, "steps": "; ".join(steps)}


def main() -> None:
    clone, anchor, *paths = sys.argv[1:]
    commits = changes(clone, anchor)
    at_anchor = set(git(clone, "ls-tree", "-r", "--name-only", anchor).splitlines())
    at_head = set(git(clone, "ls-tree", "-r", "--name-only", "HEAD").splitlines())
    for path in paths:
        folder = path.rstrip("/") + "/"
        if path in at_anchor:
            row = follow(commits, path)
            row["at_head"] = path in at_head
            row["now_exists"] = row["now"] in at_head if row["now"] else False
        elif any(p.startswith(folder) for p in at_anchor):
            row = {
                "path": path,
                "folder": True,
                "at_head": any(p.startswith(folder) for p in at_head),
            }
        else:
            row = {"path": path, "absent_at_anchor": True}
        print(json.dumps(row))


if __name__ == "__main__":
    main()
