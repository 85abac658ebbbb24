"""Random bytes, symlinks and special files as the team paths (`.synapse`, the team
file, `.gitattributes`): a sync and a share never read or write outside the
worktree, hold bounded memory, and change nothing in the store when they refuse."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import make_repo

from synapse_git.errors import SynapseError
from synapse_git.service import Synapse
from synapse_git.team import records

CANARY = "CANARY fact of another repository"
OUTSIDE_LINE = (
    '{"author":"X <x@x>","body":"' + CANARY + '","created_at":"2025-01-01T00:00:00+00:00",'
    '"id":"canary","source":"","state":"live","supersedes":null,'
    '"updated_at":"2025-01-01T00:00:00+00:00"}\n'
)
# What a team path may be: (kind, payload bytes for a regular file).
TEAM_KINDS = ["bytes", "lines", "link-outside", "link-dev-zero", "link-proc", "fifo", "folder",
              "missing", "dir-link"]  # fmt: skip
ATTRIBUTE_KINDS = ["bytes", "link-outside", "folder", "fifo", "missing"]


def _remove(path: Path) -> None:
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _store(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return list(conn.execute("SELECT id, body, state, superseded_by FROM memories")) + list(
            conn.execute("SELECT memory_id, uid, author, origin, line FROM shared")
        )


def _place(repo: Path, rel: str, kind: str, payload: bytes, outside: Path) -> None:
    target = repo / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if kind == "bytes":
        target.write_bytes(payload)
    elif kind == "lines":
        target.write_bytes(OUTSIDE_LINE.replace(CANARY, "inside fact").encode() + payload)
    elif kind == "link-outside":
        target.symlink_to(outside / ".synapse" / "memories.jsonl")
    elif kind == "link-dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "link-proc":
        target.symlink_to("/proc/self/pagemap")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    team_kind=st.sampled_from(TEAM_KINDS),
    attributes_kind=st.sampled_from(ATTRIBUTE_KINDS),
    payload=st.binary(max_size=2048),
)
def test_team_paths_hold_no_way_out(
    tmp_path: Path, team_kind: str, attributes_kind: str, payload: bytes
) -> None:
    base = tmp_path / f"case-{os.urandom(4).hex()}"
    outside = base / "outside"
    (outside / ".synapse").mkdir(parents=True)
    (outside / ".synapse" / "memories.jsonl").write_text(OUTSIDE_LINE)
    (outside / "config.toml").write_text("[recall]\n")
    repo = make_repo(base / "repo", commit=True)
    if team_kind == "dir-link":
        (repo / ".synapse").symlink_to(outside / ".synapse")
    else:
        _place(repo, records.FILE, team_kind, payload, outside)
    if attributes_kind == "link-outside":
        (repo / ".gitattributes").symlink_to(outside / "config.toml")
    else:
        _place(repo, ".gitattributes", attributes_kind, payload, outside)
    before_outside = _snapshot(outside)
    svc = Synapse()
    scope = svc.scope(repo)
    mine = svc.remember("A fact of this repository to share.", scope).id
    db = svc.config.db_path

    tracemalloc.start()
    try:
        for action in (lambda: svc.sync_team(scope), lambda: svc.share([mine], scope)):
            state = _store(db)
            try:
                action()
            except SynapseError:
                assert _store(db) == state  # a refusal changes nothing
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 16 * 1024 * 1024
    assert _snapshot(outside) == before_outside
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert not conn.execute("SELECT 1 FROM memories WHERE body LIKE 'CANARY%'").fetchall()
    # Nothing new beside the repository either (a write through `..` or a link).
    assert sorted(p.name for p in base.iterdir()) == ["outside", "repo"]
    _remove(base / "repo")
