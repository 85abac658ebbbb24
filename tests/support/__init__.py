"""What tests share besides fixtures: real git with a fixed identity, repositories,
the `synapse` command (in this process or as a real one), stores as an older
Synapse left them. Imported as `from support import …`."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from synapse_git.store import schema
from synapse_git.textrules import norm_key

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Synapse Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Synapse Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    # The user's own git settings (signing, hooks, default branch) stay out of tests.
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(cwd: Path, *args: str, check: bool = True) -> str:
    """Run real git with a fixed identity; returns stdout."""
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def run_git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Real git that may fail, its standard output and error read as one stream
    (git hands a hook's standard output to its own standard error)."""
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )


def checkout_copy(target: Path) -> Path:
    """This checkout's files as they are now (tracked, and untracked but not ignored)
    copied into `target`: what a build or a publish sees, without writing here."""
    root = Path(__file__).resolve().parents[2]
    listed = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = root / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def make_repo(path: Path, files: dict[str, str] | None = None, *, commit: bool = True) -> Path:
    """A real repository at `path` on branch main, with `files` committed."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    for name, text in (files or {"README.md": "hello\n"}).items():
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if commit:
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", "initial")
    return path


# Commands that serve until stopped, and environments only a new interpreter reads
# (its encoding, its module path), always get a real process.
_SERVING = ("ui",)
_PROCESS_ENV = ("PYTHONIOENCODING", "PYTHONPATH", "PYTHONUTF8")


def run_cli(
    *args: str,
    cwd: Path | None = None,
    stdin: bytes | str | None = None,
    env: dict[str, str] | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """The `synapse` command: in this process through the console script's own `main`
    (streams, environment and folder swapped for the call), or the installed script
    as a real process with `process` (entry points, servers, interpreter settings)."""
    serving = args[:1] in (_SERVING, ("mcp",)) and args[1:2] != ("config",)
    # Shell completion is found by the program's own name, which only a process has.
    completion = any(arg.endswith("-completion") for arg in args) or "_SYNAPSE_COMPLETE" in (
        env or {}
    )
    # Streams, environment and folder belong to the whole process: a test's own threads
    # running commands at once each get a process of their own.
    threaded = threading.current_thread() is not threading.main_thread()
    if process or serving or completion or threaded or any(k in (env or {}) for k in _PROCESS_ENV):
        return run_cli_process(*args, cwd=cwd, stdin=stdin, env=env)
    return _run_in_process(list(args), cwd, stdin, env or {})


def _run_in_process(
    args: list[str], cwd: Path | None, stdin: bytes | str | None, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    from click.testing import CliRunner

    from synapse_git.cli.entry import main

    before = os.getcwd()
    runner = CliRunner()
    with runner.isolation(input=stdin if stdin is not None else b"", env=env) as streams:
        out, err = streams[0], streams[1]
        try:
            if cwd is not None:
                os.chdir(cwd)
            try:
                code = main(args)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os.chdir(before)
    return subprocess.CompletedProcess(
        ["synapse", *args],
        code,
        out.getvalue().decode("utf-8", "replace"),
        err.getvalue().decode("utf-8", "replace"),
    )


def run_cli_process(
    *args: str,
    cwd: Path | None = None,
    stdin: bytes | str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The installed `synapse` command as a real process (stdin may be bytes)."""
    exe = Path(sys.executable).with_name("synapse")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [*command, *args],
        cwd=cwd,
        input=data,
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def run_unwaited(
    command: list[str], cwd: Path, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """One of the installed commands (`synapse`, `synapse-drift-hook`) as a real process,
    failing the test if it waits on something (a FIFO) instead of answering."""
    try:
        # A guard against waiting for ever, not a measure: it takes well under a second.
        return subprocess.run(
            [str(Path(sys.executable).with_name(command[0])), *command[1:]],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} waited instead of answering")


def old_store(path: Path, version: int) -> sqlite3.Connection:
    """A store at schema `version`, as an older Synapse left it, open in autocommit
    mode for the caller to add rows before the current code migrates it."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.create_function("norm_key", 1, norm_key, deterministic=True)  # version 7 calls it
    for script in schema.MIGRATIONS[:version]:
        for statement in schema.statements(script):
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {version}")
    return conn


def short_busy_timeout(monkeypatch: pytest.MonkeyPatch, seconds: float = 0.5) -> None:
    """The store's busy timeout, `seconds` instead of the real 10 s, for what this process
    opens: a test of what a writer says once a lock outlasts the timeout proves the same
    without the wait."""
    from synapse_git.store import database, readonly

    for module in (schema, database, readonly):
        monkeypatch.setattr(module, "BUSY_TIMEOUT_S", seconds)
