"""`memory backup` makes a consistent copy while writers run; export → import round-trips
every live memory byte for byte with its project, source and timestamps."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import time
from pathlib import Path

import pytest
from support import make_repo, run_cli

from synapse_git.errors import BadInput, NotFound
from synapse_git.service import Synapse
from synapse_git.settings import load

WRITERS = 3
EACH = 120


def rows(svc: Synapse) -> set[tuple[object, ...]]:
    with svc.connection() as conn:
        return set(
            conn.execute(
                "SELECT body, source, project, created_at, updated_at FROM memories"
                " WHERE state = 'live'"
            )
        )


def open_copy(copy: Path, tmp_path: Path, name: str) -> Synapse:
    data = tmp_path / name
    data.mkdir()
    shutil.copy(copy, data / "memory.db")
    return Synapse(load(data))


def test_backup_writes_a_checked_copy(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    for n in range(20):
        svc.remember(f"memory {n} — ✓\x00", svc.scope(repo), source=f"src/{n}.py")
    svc.forget(3, svc.scope(repo))
    target = tmp_path / "backups" / "synapse.db"
    target.parent.mkdir()
    done = run_cli("memory", "backup", str(target), "--json", cwd=repo)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report == {"path": str(target), "live": 19, "bytes": target.stat().st_size}
    assert sorted(p.name for p in target.parent.iterdir()) == ["synapse.db"]
    copy = open_copy(target, tmp_path, "restored")
    assert copy.check().ok
    assert rows(copy) == rows(svc)
    # Hidden memories and history come along too: the copy is the whole store.
    assert [v.change for v in copy.history(3, copy.scope(repo)).versions] == ["forgotten"]


def test_backup_refuses_to_overwrite_and_names_the_problem(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    with pytest.raises(NotFound, match="nothing to back up"):
        svc.backup(tmp_path / "first.db")
    svc.remember("something", svc.scope(repo))
    existing = tmp_path / "exists.db"
    existing.write_text("keep me", encoding="utf-8")
    done = run_cli("memory", "backup", str(existing), cwd=repo)
    assert done.returncode == 2 and "already exists" in done.stderr
    assert existing.read_text(encoding="utf-8") == "keep me"
    with pytest.raises(BadInput, match="does not exist"):
        svc.backup(tmp_path / "no-such-folder" / "b.db")


def write_many(writer: int, folder: str) -> None:
    svc = Synapse()
    scope = svc.scope(folder)
    for n in range(EACH):
        svc.remember(f"writer {writer} memory {n}", scope)


def test_backups_taken_while_writers_run_are_consistent(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    svc.remember("before the writers", svc.scope(repo))
    context = multiprocessing.get_context("fork")
    procs = [context.Process(target=write_many, args=(w, str(repo))) for w in range(WRITERS)]
    for proc in procs:
        proc.start()
    copies = []
    while any(proc.is_alive() for proc in procs) or not copies:
        target = tmp_path / f"during-{len(copies)}.db"
        copies.append((svc.backup(target), target))
        time.sleep(0.05)
    for proc in procs:
        proc.join()
        assert proc.exitcode == 0
    sizes = []
    for n, (report, target) in enumerate(copies):
        copy = open_copy(target, tmp_path, f"copy-{n}")
        assert copy.check().ok
        bodies = [row[0] for row in rows(copy)]
        assert len(bodies) == report.live
        # Each writer remembers in order, so a consistent copy holds a prefix of each.
        for writer in range(WRITERS):
            seen = sorted(
                int(b.rsplit(" ", 1)[1]) for b in bodies if b.startswith(f"writer {writer} ")
            )
            assert seen == list(range(len(seen)))
        sizes.append(report.live)
    assert sizes == sorted(sizes)
    # At least one copy caught the writers half way.
    assert any(1 < live < 1 + WRITERS * EACH for live in sizes), sizes
    final = svc.backup(tmp_path / "after.db")
    assert final.live == 1 + WRITERS * EACH


ODD_BODIES = [
    "plain",
    "tab\there\x00and NUL",
    "line\u2028separator and \u0085 next-line and \x1c file-sep",
    "windows\r\nline\rends\n",
    "  leading and trailing spaces  ",
    "emoji 🚀 and combining é and RTL שלום",
    "big " + "é€𝄞" * 30_000,
    '{"looks": "like json"}\n{"on": "two lines"}',
]


def test_export_then_import_round_trips_every_live_memory(tmp_path: Path) -> None:
    alpha = make_repo(tmp_path / "alpha")
    beta = make_repo(tmp_path / "beta")
    svc = Synapse()
    for n, body in enumerate(ODD_BODIES):
        folder = (alpha, beta)[n % 2]
        svc.remember(body, svc.scope(folder), source=f"src/é{n}.py\t\u2028", is_global=n == 3)
    edited = svc.remember("to be edited", svc.scope(alpha)).id
    svc.edit(edited, svc.scope(alpha), body="edited: the newer text", source="")
    forgotten = svc.remember("to be forgotten", svc.scope(beta)).id
    svc.forget(forgotten, svc.scope(beta))

    exported = tmp_path / "all.jsonl"
    done = run_cli("memory", "export", str(exported), cwd=alpha)
    assert done.returncode == 0, done.stderr
    empty = tmp_path / "empty-store"
    done = run_cli(
        "memory", "import", str(exported), "--json", cwd=alpha, env={"SYNAPSE_DATA": str(empty)}
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["imported"] == len(ODD_BODIES) + 1
    copy = Synapse(load(empty))
    original = rows(svc)
    assert rows(copy) == original
    assert "to be forgotten" not in {row[0] for row in original}
    assert len(original) == len(ODD_BODIES) + 1
    # And the stdout form of export gives the same lines.
    streamed = run_cli("memory", "export", cwd=beta)
    assert streamed.stdout == exported.read_text(encoding="utf-8")
