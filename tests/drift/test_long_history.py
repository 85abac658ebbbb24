"""Drift on a repository with a long history: renames, then deletions, then
hundreds of commits more, for memories written before them. Built with `git fast-import` (a real
repository, hundreds of commits in a moment), checked with the real CLI and the
real post-checkout hook."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support import GIT_ENV, git, make_repo, run_cli, run_git

from synapse_git.session import snapshots

FILLER = 320  # commits after the deletions


def _fast_import(repo: Path, steps: list[tuple[str, list[str]]]) -> None:
    """Append one commit per step to main; a step is (message, [M path text | D path])."""
    head = git(repo, "rev-parse", "HEAD").strip()
    out: list[str] = []
    when = 1_700_000_000
    for number, (message, changes) in enumerate(steps, start=1):
        when += 60
        out += [
            "commit refs/heads/main",
            f"mark :{number}",
            f"committer Synapse Test <test@example.com> {when} +0000",
            f"data {len(message.encode())}",
            message,
            f"from {head}" if number == 1 else f"from :{number - 1}",
        ]
        for change in changes:
            if change.startswith("D "):
                out.append(change)
            else:
                _, path, text = change.split(" ", 2)
                data = text.encode() + b"\n"
                out += [f"M 100644 inline {path}", f"data {len(data)}", text]
        out.append("")
    subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=repo,
        input="\n".join(out) + "\n",
        text=True,
        check=True,
        env={**GIT_ENV, "PATH": "/usr/bin:/bin:/usr/local/bin"},
    )
    git(repo, "reset", "-q", "--hard", "main")


PARSER = "def parse(text):\n    return text.split()  # the one parser of the project"
LEGACY = "def export(rows):\n    return ','.join(rows)  # the legacy exporter, kept for now"
ANCIENT = "Ancient notes: how the first release was cut, step by step, by hand."


def _long_history(tmp_path: Path) -> Path:
    repo = make_repo(
        tmp_path / "long",
        {
            "src/old_name.py": PARSER + "\n",
            "tools/legacy.py": LEGACY + "\n",
            "docs/ancient.md": ANCIENT + "\n",
            "lib/keep.py": "KEEP = 1\n",
        },
    )
    steps: list[tuple[str, list[str]]] = [
        ("rename the parser", ["D src/old_name.py", f"M src/mid_name.py {PARSER}"]),
        ("rename it again", ["D src/mid_name.py", f"M src/new_name.py {PARSER}"]),
        ("rename the exporter", ["D tools/legacy.py", f"M tools/legacy2.py {LEGACY}"]),
        ("drop the exporter", ["D tools/legacy2.py"]),
        ("drop the ancient notes", ["D docs/ancient.md"]),
    ]
    git(repo, "branch", "first")  # where the memories are written
    git(repo, "branch", "recent")  # moved to the deletions below
    _fast_import(repo, steps)
    git(repo, "branch", "-f", "recent", "main")
    _fast_import(repo, [(f"filler {n}", [f"M lib/filler.txt line {n}"]) for n in range(FILLER)])
    return repo


def _remember(repo: Path, body: str) -> int:
    done = run_cli("memory", "remember", body, "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["id"])


def test_renames_then_deletions_long_ago(tmp_path: Path) -> None:
    repo = _long_history(tmp_path)
    assert int(git(repo, "rev-list", "--count", "HEAD").strip()) > FILLER
    git(repo, "checkout", "-q", "first")
    parser = _remember(repo, "The parser lives in src/old_name.py")
    legacy = _remember(repo, "Exports go through tools/legacy.py")
    ancient = _remember(repo, "How releases were cut: docs/ancient.md")
    plan = _remember(repo, "The plan goes in docs/plan.md")
    git(repo, "checkout", "-q", "main")
    done = run_cli("memory", "drift", "--json", cwd=repo)
    assert done.returncode == 1, done.stderr
    found = {(f["kind"], f["ids"][0]): f for f in json.loads(done.stdout)["findings"]}
    # A rename chain is followed to what exists...
    assert found["stale", parser]["renamed"] == {"src/old_name.py": "src/new_name.py"}
    # ...or says that the last name was deleted, never suggesting a gone path.
    assert "renamed" not in found["stale", legacy]
    assert (
        "tools/legacy.py was renamed to tools/legacy2.py, since deleted"
        in (found["stale", legacy]["detail"])
    )
    # Deleted long ago: stale, not "never seen", and when it was deleted is said.
    assert ("unverified", ancient) not in found
    assert found["stale", ancient]["paths"] == ["docs/ancient.md"]
    sha, day = git(repo, "log", "-1", "--format=%H %cs", "--", "docs/ancient.md").split()
    deleting = f"{sha[:10]} ({day})"
    assert f"docs/ancient.md was deleted in {deleting}" in found["stale", ancient]["detail"]
    assert "never seen here" in found["unverified", plan]["detail"]


def test_post_checkout_fine_again_leaves_out_paths_still_missing(tmp_path: Path) -> None:
    repo = _long_history(tmp_path)
    git(repo, "checkout", "-q", "first")
    ancient = _remember(repo, "How releases were cut: docs/ancient.md")
    git(repo, "checkout", "-q", "recent")
    assert run_cli("hook", "install", cwd=repo).returncode == 0
    to_recent = run_git(repo, "checkout", "-b", "side")  # the snapshot on `recent`'s commit
    assert "synapse: checked 1 memory" in to_recent.stdout, to_recent.stdout
    assert "stale (1):" in to_recent.stdout
    to_main = run_git(repo, "checkout", "main")
    assert to_main.returncode == 0
    # Only the memory naming a path that differs between the two commits is checked.
    assert "synapse: re-checked 0 of 1 memory" in to_main.stdout
    assert "fine again" not in to_main.stdout, to_main.stdout
    assert f"[{ancient}]" not in to_main.stdout


def test_fine_again_never_lists_a_memory_left_unverified() -> None:
    before = snapshots.nothing("/r", "/r", "a")._replace(stale={"7": ["docs/a.md"]})
    after = snapshots.nothing("/r", "/r", "b")._replace(unverified=("7",))
    refresh = snapshots.compare(before, after)
    assert refresh.fine_again == {}
    assert snapshots.compare(before, snapshots.nothing("/r", "/r", "b")).fine_again == {"7": ""}
