"""Every command that writes a file the user names (export, backup, eval's baseline)
refuses the store and its companions, folders and existing files (unless --force),
and writes through a temporary file so a failure leaves nothing half written."""

from __future__ import annotations

import hashlib
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_cli

from synapse_git.errors import BadInput
from synapse_git.service import Synapse

CASES = '[[case]]\nquery = "deploy"\nexpect = "make deploy"\n'


def digest(folder: Path) -> dict[str, str]:
    """Every file in the data folder with its content hash."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def stored(isolated_store: Path, outside: Path) -> Path:
    done = run_cli("memory", "remember", "--global", "run make deploy to ship", cwd=outside)
    assert done.returncode == 0, done.stderr
    return isolated_store / "memory.db"


def writers(target: Path, tmp_path: Path, *extra: str) -> list[list[str]]:
    cases = tmp_path / "cases.toml"
    cases.write_text(CASES, encoding="utf-8")
    return [
        ["memory", "export", str(target), *extra],
        ["memory", "backup", str(target), *extra],
        ["memory", "eval", str(cases), "--write-baseline", str(target), *extra],
    ]


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal", "-long-write", "-team-files"])
def test_no_command_writes_over_the_store_or_its_companions(
    stored: Path, tmp_path: Path, outside: Path, suffix: str
) -> None:
    target = stored.with_name(stored.name + suffix)
    for command in writers(target, tmp_path, "--force"):
        before = digest(stored.parent)
        done = run_cli(*command, cwd=outside)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "is the Synapse store" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert digest(stored.parent) == before
    listed = run_cli("memory", "list", "--json", cwd=outside)
    assert "make deploy" in listed.stdout


def test_a_link_or_relative_name_for_the_store_is_still_the_store(
    stored: Path, tmp_path: Path, outside: Path
) -> None:
    link = tmp_path / "innocent.jsonl"
    link.symlink_to(stored)
    hard = tmp_path / "hard.jsonl"
    os.link(stored, hard)
    before = digest(stored.parent)
    for target, cwd in ((link, outside), (hard, outside), (Path("memory.db"), stored.parent)):
        for command in writers(target, tmp_path, "--force"):
            done = run_cli(*command, cwd=cwd)
            assert done.returncode == 2, (command, done.stderr)
            assert "is the Synapse store" in done.stderr
    assert digest(stored.parent) == before


def test_a_folder_is_refused(stored: Path, tmp_path: Path, outside: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    for command in writers(folder, tmp_path, "--force"):
        done = run_cli(*command, cwd=outside)
        assert done.returncode == 2 and "is a folder" in done.stderr, command
    assert list(folder.iterdir()) == []


def test_an_existing_file_needs_force(stored: Path, tmp_path: Path, outside: Path) -> None:
    target = tmp_path / "precious.txt"
    for command in writers(target, tmp_path):
        target.write_bytes(b"the user's own words\n")
        done = run_cli(*command, cwd=outside)
        assert done.returncode == 2 and "--force" in done.stderr, command
        assert target.read_bytes() == b"the user's own words\n"
        forced = run_cli(*command, "--force", cwd=outside)
        assert forced.returncode == 0, (command, forced.stderr)
        assert target.read_bytes() != b"the user's own words\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def _limited(limit: int) -> None:
    # A file-size limit makes the kernel refuse writes past `limit` bytes, as a full
    # disk would; the signal it sends by default would kill instead of failing.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_full_disk_leaves_the_old_file_and_no_partial_one(
    stored: Path, tmp_path: Path, outside: Path
) -> None:
    for n in range(4):
        big = f"{n} " + "x" * 150_000
        done = run_cli("memory", "remember", "--global", "-", cwd=outside, stdin=big)
        assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    out.mkdir()
    target = out / "copy"
    exe = Path(sys.executable).with_name("synapse")
    for command in writers(target, tmp_path, "--force")[:2]:
        target.write_bytes(b"old content\n")
        done = subprocess.run(
            [str(exe), *command],
            cwd=outside,
            capture_output=True,
            text=True,
            preexec_fn=lambda: _limited(200_000),
            check=False,
        )
        assert done.returncode == 2, (command, done.stderr)
        assert "left as it was" in done.stderr or "unchanged" in done.stderr
        assert target.read_bytes() == b"old content\n"
        assert sorted(p.name for p in out.iterdir()) == ["copy"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/"),
        min_size=0,
        max_size=40,
    )
)
def test_any_file_name_is_written_whole_or_refused(
    isolated_store: Path, tmp_path: Path, name: str
) -> None:
    svc = Synapse()
    data = isolated_store
    folder = tmp_path / "fuzz"
    folder.mkdir(exist_ok=True)
    before = digest(data)
    for candidate in (name, os.path.join(str(data), name), os.path.join(str(folder), name)):
        try:
            path, count = svc.write_lines(candidate, ["one", "two"])
        except BadInput:
            assert digest(data) == before
            continue
        assert path.read_text(encoding="utf-8") == "one\ntwo\n" and count == 2
        assert not path.samefile(data / "memory.db") if (data / "memory.db").exists() else True
        path.unlink()
    assert not [p for p in folder.iterdir() if ".partial-" in p.name]


@pytest.mark.parametrize("suffix", ["", "-wal"])
def test_the_team_merge_driver_never_writes_over_the_store(
    stored: Path, tmp_path: Path, outside: Path, suffix: str
) -> None:
    target = stored.with_name(stored.name + suffix)
    if not target.exists():
        target.write_bytes(b"")  # an empty write-ahead log, as after a checkpoint
    base, theirs = tmp_path / "base", tmp_path / "theirs"
    base.write_bytes(b"")
    theirs.write_bytes(b"")
    before = digest(stored.parent)
    done = run_cli("hook", "merge-file", str(base), str(target), str(theirs), cwd=outside)
    assert done.returncode == 2 and "is the Synapse store" in done.stderr, done.stderr
    assert digest(stored.parent) == before
