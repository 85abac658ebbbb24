"""Teammates for the team-memory tests: clones of one bare remote, each with its own
store, its own git identity and the hooks installed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from support import GIT_ENV, make_repo, run_cli

TEAM_FILE = ".synapse/memories.jsonl"


class Clone:
    """One teammate: a clone, a store of their own, a git identity."""

    def __init__(self, path: Path, data: Path, name: str) -> None:
        self.path, self.data, self.name = path, data, name
        self.env = {
            **GIT_ENV,
            "SYNAPSE_DATA": str(data),
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": f"{name.lower()}@example.com",
            "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": f"{name.lower()}@example.com",
        }

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["git", *args],
            cwd=self.path,
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)}: {done.stdout}{done.stderr}")
        return done

    def cli(self, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = run_cli(*args, cwd=self.path, env=self.env)
        if ok:
            assert done.returncode == 0, done.stderr
        return done

    def remember(self, body: str, *extra: str) -> int:
        return int(json.loads(self.cli("memory", "remember", body, "--json", *extra).stdout)["id"])

    def recall(self, question: str) -> list[dict[str, object]]:
        found = json.loads(self.cli("memory", "recall", question, "--json").stdout)
        hits: list[dict[str, object]] = found["hits"]
        return hits

    def commit_all(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def team_lines(self) -> list[dict[str, object]]:
        path = self.path / TEAM_FILE
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def make_team(tmp_path: Path, names: tuple[str, ...] = ("Alice", "Bob")) -> list[Clone]:
    """A bare remote of a small repository and one clone of it for each name."""
    origin = make_repo(tmp_path / "origin", {"README.md": "team\n", "src/app.py": "x = 1\n"})
    bare = tmp_path / "remote.git"
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(origin), str(bare)],
        check=True,
        env={**os.environ, **GIT_ENV},
    )
    clones = []
    for name in names:
        path = tmp_path / name.lower()
        subprocess.run(
            ["git", "clone", "-q", str(bare), str(path)],
            check=True,
            env={**os.environ, **GIT_ENV},
        )
        data = tmp_path / f"{name.lower()}-data"
        data.mkdir()
        clone = Clone(path, data, name)
        clone.git("config", "pull.rebase", "false")
        clone.cli("hook", "install")
        clones.append(clone)
    return clones
