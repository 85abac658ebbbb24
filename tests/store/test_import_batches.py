"""Import batches: `memory import` prints the batch it made; `memory forget --import BATCH`
takes that one import back, in one transaction, and nothing else."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from support import run_cli

from synapse_git.service import Synapse


def lines(*bodies: str) -> str:
    return "".join(json.dumps({"body": body, "project": None}) + "\n" for body in bodies)


def live_bodies(data: Path) -> set[str]:
    with closing(sqlite3.connect(data / "memory.db")) as conn:
        return {row[0] for row in conn.execute("SELECT body FROM memories WHERE state = 'live'")}


def test_forget_import_takes_back_one_batch_and_nothing_else(
    outside: Path, isolated_store: Path
) -> None:
    svc = Synapse()
    kept = svc.remember("remembered by hand", svc.scope(outside), is_global=True).id
    first = run_cli("memory", "import", "-", stdin=lines("one", "two", "three"), cwd=outside)
    assert first.returncode == 0, first.stderr
    assert "batch 1; undo: synapse memory forget --import 1" in first.stdout
    second = run_cli("memory", "import", "-", "--json", stdin=lines("four", "two"), cwd=outside)
    assert json.loads(second.stdout) == {"imported": 1, "duplicates": 1, "lines": 2, "batch": 2}

    done = run_cli("memory", "forget", "--import", "1", cwd=outside)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "forgot 3 memories of import 1"
    assert live_bodies(isolated_store) == {"remembered by hand", "four"}
    assert svc.history(kept, svc.scope(outside)).memory.live
    # Forgotten, not deleted: each one can be restored, with its history.
    history = run_cli("memory", "history", "2", cwd=outside)
    assert "forgotten with import 1" in history.stdout
    again = run_cli("memory", "forget", "--import", "1", "--json", cwd=outside)
    assert json.loads(again.stdout) == {"batch": 1, "forgotten": 0, "left": 3}


def test_an_import_of_only_duplicates_makes_no_batch(outside: Path) -> None:
    assert run_cli("memory", "import", "-", stdin=lines("a"), cwd=outside).returncode == 0
    done = run_cli("memory", "import", "-", stdin=lines("a"), cwd=outside)
    assert done.returncode == 0 and "batch" not in done.stdout


def test_a_batch_is_forgotten_whole_or_not_at_all(outside: Path, isolated_store: Path) -> None:
    assert run_cli("memory", "import", "-", stdin=lines("a", "b", "c"), cwd=outside).returncode == 0
    with closing(sqlite3.connect(isolated_store / "memory.db")) as conn, conn:
        # The third memory refuses to change state: the two before it must not stay forgotten.
        conn.execute(
            "CREATE TRIGGER refuse BEFORE UPDATE OF state ON memories WHEN old.body = 'c'"
            " BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    done = run_cli("memory", "forget", "--import", "1", cwd=outside)
    assert done.returncode == 2 and "nothing was written" in done.stderr
    assert live_bodies(isolated_store) == {"a", "b", "c"}


def test_bad_forget_arguments_change_nothing(outside: Path, isolated_store: Path) -> None:
    assert run_cli("memory", "import", "-", stdin=lines("a"), cwd=outside).returncode == 0
    for args, expected in (
        (["--import", "7"], "no import batch 7"),
        (["--import", "99999999999999999999"], "no import batch"),
        ([], "give a memory ID or --import BATCH"),
        (["1", "--import", "1"], "give a memory ID or --import BATCH"),
    ):
        done = run_cli("memory", "forget", *args, cwd=outside)
        assert done.returncode == 2, (args, done.stderr)
        assert expected in done.stderr and len(done.stderr.splitlines()) == 1
    assert live_bodies(isolated_store) == {"a"}
