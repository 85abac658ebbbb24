"""A writer killed with SIGKILL at any moment leaves a store that opens, checks clean and
holds every memory whose call had returned; an import is all or nothing."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from synapse_git.service import Synapse
from synapse_git.store import staging

KILLS_OF_REMEMBER = 20
KILLS_OF_IMPORT = 6
KILLS_OF_CLI_IMPORT = 4
# Enough lines that an import outlasts the moment it is killed at, now that import is fast.
IMPORT_LINES = 5000


def body_of(round_: int, n: int) -> str:
    return f"round {round_} memory {n}: café\tnaïve\x00end {'y' * (n % 40)}"


def remember_forever(round_: int, folder: str, out: int) -> None:
    """Remember until killed; report each id on `out` once its call returned."""
    svc = Synapse()
    scope = svc.scope(folder)
    os.write(out, b"ready\n")
    for n in range(100_000):
        got = svc.remember(body_of(round_, n), scope, is_global=n % 3 == 0)
        os.write(out, f"{n} {got.id}\n".encode())


def import_until_killed(lines: list[str], hold_at: int, out: int) -> None:
    """Import; with `hold_at`, stop inside the import's transaction at that line (rows of
    the lines before it already written) and say so, to be killed there for certain."""
    svc = Synapse()

    def started(done: int) -> None:
        if done == 1:
            os.write(out, b"ready\n")
        if done == hold_at:
            os.write(out, b"held\n")
            time.sleep(60)

    svc.import_lines(lines, started)
    os.write(out, b"returned\n")


def run_and_kill(
    target: object,
    args: tuple[object, ...],
    rng: random.Random,
    within: float = 0.35,
    until: bytes = b"ready\n",
) -> tuple[list[str], int | None]:
    """Fork a writer, let it say `until`, then kill it at a random moment (at once when it
    is held rather than ready); its report lines."""
    read, write = os.pipe()
    context = multiprocessing.get_context("fork")
    proc = context.Process(target=target, args=(*args, write))
    proc.start()
    os.close(write)
    seen = b""
    while until not in seen:
        chunk = os.read(read, 4096)
        assert chunk, f"the writer ended before it said {until!r}"
        seen += chunk
    if until == b"ready\n":
        time.sleep(rng.uniform(0.0, within))
    assert proc.pid is not None
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    # An import may finish before its moment comes; a remember burst never does.
    assert proc.exitcode in (0, -signal.SIGKILL)
    while chunk := os.read(read, 65536):
        seen += chunk
    os.close(read)
    return seen.decode().splitlines(), proc.exitcode


def assert_store_sound(svc: Synapse) -> None:
    report = svc.check()
    assert report.ok, report.problems


def rows(svc: Synapse) -> dict[int, str]:
    with svc.connection() as conn:
        return dict(conn.execute("SELECT id, body FROM memories WHERE state = 'live'"))


def test_killed_remember_bursts_lose_no_returned_memory(repo: Path) -> None:
    rng = random.Random(7)
    svc = Synapse()
    returned = kills = 0
    for round_ in range(KILLS_OF_REMEMBER):
        lines, code = run_and_kill(remember_forever, (round_, str(repo)), rng)
        kills += code == -signal.SIGKILL
        assert_store_sound(svc)
        stored = rows(svc)
        for line in lines[1:]:
            n, memory_id = map(int, line.split())
            assert stored[int(memory_id)] == body_of(round_, n)
            returned += 1
    assert returned > 0
    assert kills == KILLS_OF_REMEMBER
    # The store still takes writes after every kill.
    assert svc.remember("after the kills", svc.scope(repo)).duplicate_of is None
    assert_store_sound(svc)


def test_killed_imports_are_all_or_nothing(repo: Path, tmp_path: Path) -> None:
    rng = random.Random(11)
    svc = Synapse()
    outcomes: set[int] = set()
    for round_ in range(KILLS_OF_IMPORT):
        lines = [
            json.dumps({"body": f"import {round_} line {n} — ✓", "project": str(repo)})
            for n in range(IMPORT_LINES)
        ]
        # Odd rounds are held inside the transaction, past its first written rows, so a
        # kill lands there however fast the import runs; even rounds die where they are.
        held = round_ % 2 == 1
        hold_at = rng.randrange(staging.ROWS + 2, IMPORT_LINES) if held else 0
        report, _ = run_and_kill(
            import_until_killed,
            (lines, hold_at),
            rng,
            within=0.6,
            until=b"held\n" if held else b"ready\n",
        )
        assert_store_sound(svc)
        found = sum(body.startswith(f"import {round_} ") for body in rows(svc).values())
        assert found in (0, IMPORT_LINES)
        assert found == IMPORT_LINES or "returned" not in report
        if held:
            assert found == 0, "a kill inside the transaction left rows behind"
        outcomes.add(found)
    assert 0 in outcomes


def test_killed_cli_imports_leave_a_sound_store(repo: Path, tmp_path: Path) -> None:
    rng = random.Random(13)
    svc = Synapse()
    exe = Path(sys.executable).with_name("synapse")
    for round_ in range(KILLS_OF_CLI_IMPORT):
        source = tmp_path / f"import-{round_}.jsonl"
        source.write_text(
            "".join(
                json.dumps({"body": f"cli import {round_} line {n}", "project": None}) + "\n"
                for n in range(IMPORT_LINES)
            ),
            encoding="utf-8",
        )
        proc = subprocess.Popen(
            [str(exe), "memory", "import", str(source)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.2, 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert_store_sound(svc)
        found = sum(body.startswith(f"cli import {round_} ") for body in rows(svc).values())
        assert found in (0, IMPORT_LINES)


def test_the_store_after_kills_is_a_sound_sqlite_file(repo: Path) -> None:
    rng = random.Random(3)
    for round_ in range(2):
        run_and_kill(remember_forever, (100 + round_, str(repo)), rng)
    with Synapse().connection() as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert isinstance(conn, sqlite3.Connection)
