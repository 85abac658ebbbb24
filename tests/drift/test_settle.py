"""Settle suggestions never corrupt text when run: whole-path replacement, a full
corrected body (never a placeholder), every word quoted for the shell. Each
suggestion here is run through a real shell, as a user would paste it."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from support import git, make_repo, run_cli, run_git

from synapse_git.drift import settle
from synapse_git.service import Synapse

BIN = str(Path(sys.executable).parent)
LINES = "".join(f"line {n}\n" for n in range(40))


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `command` as pasted into a POSIX shell, with this Synapse first on PATH."""
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run(
        ["/bin/sh", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def body_of(memory_id: int, cwd: Path) -> tuple[str, str]:
    done = run_cli("memory", "history", str(memory_id), "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    memory = json.loads(done.stdout)["memory"]
    return memory["body"], memory["state"]


def test_a_rename_replaces_whole_paths_only() -> None:
    text = "Edit a.py (not data.py, src/a.py, a.pyc or .a.py); see ./a.py and `a.py`."
    assert settle.replace_path(text, "a.py", "b.py") == (
        "Edit b.py (not data.py, src/a.py, a.pyc or .a.py); see ./b.py and `b.py`."
    )
    assert settle.replace_path("a.py.bak and a.py", "a.py", "b.py") == "a.py.bak and b.py"


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=80),
    old=st.from_regex(r"[a-z]{1,3}(/[a-z]{1,3})?\.[a-z]{1,2}", fullmatch=True),
    new=st.text(min_size=1, max_size=20),
)
def test_replacing_a_path_touches_nothing_else(text: str, old: str, new: str) -> None:
    result = settle.replace_path(text, old, new)
    # Putting the old path back where the new one went gives the text again, when
    # the new path does not occur in the text already.
    if new not in text and old not in new:
        assert result.replace(new, old) == text
    assert settle.replace_path(text, old, old) == text


@settings(max_examples=60, deadline=None)
@given(body=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1))
def test_every_suggested_edit_is_the_body_exactly_when_run(body: str) -> None:
    body = body.replace("\0", "")
    fixed = settle.corrected(body + " old.py", ["old.py"], [("old.py", "new.py")])
    assert fixed is not None
    line = settle.replacing("edit", 7, fixed)
    words = shlex.split(line)
    assert words == ["synapse", "memory", "edit", "7", "--", fixed]
    echoed = subprocess.run(
        ["/bin/sh", "-c", "printf '%s' " + shlex.quote(fixed)], capture_output=True, check=False
    )
    assert echoed.stdout == fixed.encode("utf-8", "surrogateescape")


def test_the_drift_suggestion_for_a_rename_fixes_only_the_path(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"a.py": LINES, "data.py": "d = 1\n"})
    svc = Synapse()
    body = "- Edit a.py, never data.py; it's `a.py` that runs $(touch pwned)."
    mid = svc.remember(body, svc.scope(repo)).id
    git(repo, "mv", "a.py", "b.py")
    git(repo, "commit", "-q", "-m", "rename")
    [found] = svc.drift(svc.scope(repo), ["stale"]).findings
    done = shell(found.suggest, repo)
    assert done.returncode == 0, done.stderr
    assert body_of(mid, repo) == (
        "- Edit b.py, never data.py; it's `b.py` that runs $(touch pwned).",
        "live",
    )
    assert not (repo / "pwned").exists()


def test_a_deleted_path_suggests_forgetting_not_an_ellipsis(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"run.sh": "echo\n"})
    svc = Synapse()
    mid = svc.remember("Start it with run.sh", svc.scope(repo)).id
    git(repo, "rm", "-q", "run.sh")
    git(repo, "commit", "-q", "-m", "drop")
    [found] = svc.drift(svc.scope(repo), ["stale"]).findings
    assert "…" not in found.suggest
    assert shell(found.suggest, repo).returncode == 0
    assert body_of(mid, repo) == ("Start it with run.sh", "forgotten")


def test_the_commit_hook_suggestion_runs_as_printed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"a.py": LINES, "data.py": "d = 1\n"})
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo).returncode == 0
    body = "Tests import a.py and data.py;\nrun 'a.py' with `python a.py`"
    mid = json.loads(run_cli("memory", "remember", body, "--json", cwd=repo).stdout)["id"]
    git(repo, "mv", "a.py", "b.py")
    blocked = run_git(repo, "commit", "-m", "rename")
    assert blocked.returncode != 0
    start = blocked.stdout.index("update: ") + len("update: ")
    end = blocked.stdout.index("\n    or:", start)
    done = shell(blocked.stdout[start:end], repo)
    assert done.returncode == 0, done.stderr
    assert body_of(mid, repo)[0] == "Tests import b.py and data.py;\nrun 'b.py' with `python b.py`"


def test_the_project_move_hint_is_inert_when_pasted(tmp_path: Path) -> None:
    old = make_repo(tmp_path / "x$(touch pwned)'y")
    svc = Synapse()
    svc.remember("travels with the repo", svc.scope(old))
    new = tmp_path / "moved"
    shutil.move(old, new)
    shown = run_cli("project", "show", cwd=new)
    hint = shown.stdout.splitlines()[-1]
    done = shell(hint.split("run: ", 1)[1], tmp_path)
    assert done.returncode == 0, done.stderr
    assert not any(p.name == "pwned" for p in tmp_path.rglob("pwned"))
    assert [m.body for m in svc.list_memories(svc.scope(new)).memories] == ["travels with the repo"]
