"""`synapse memory …` as a real process: JSON shapes (docs/json.md), exact reading, the
lifecycle commands, and bad input that changes nothing."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from support import run_cli

from synapse_git.escaping import visible
from synapse_git.service import Synapse
from synapse_git.settings import MAX_BODY_BYTES, MAX_SOURCE_BYTES


def ok(*args: str, cwd: Path, stdin: bytes | str | None = None) -> str:
    done = run_cli(*args, cwd=cwd, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def snapshot(data: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    path = data / "memory.db"
    if not path.exists():
        return [], []
    with closing(sqlite3.connect(path)) as conn:
        return (
            conn.execute("SELECT * FROM memories ORDER BY id").fetchall(),
            conn.execute("SELECT * FROM history ORDER BY id").fetchall(),
        )


def test_json_shapes_of_remember_read_and_list(repo: Path) -> None:
    key = os.path.realpath(repo)
    made = json.loads(
        ok("memory", "remember", "Deploys use make deploy", "-s", "ops", "--json", cwd=repo)
    )
    assert made == {"id": made["id"], "project": key, "duplicate_of": None, "drift": []}
    again = json.loads(ok("memory", "remember", "deploys USE make deploy", "--json", cwd=repo))
    assert again == {"id": made["id"], "project": key, "duplicate_of": made["id"], "drift": []}

    page = json.loads(ok("memory", "read", str(made["id"]), "--json", cwd=repo))
    assert page == {
        "memory": {
            "id": made["id"],
            "project": key,
            "source": "ops",
            "sourceabridged": False,
            "body": "Deploys use make deploy",
            "offset": 0,
            "next": None,
            "total": 23,
        }
    }

    listed = json.loads(ok("memory", "list", "--json", cwd=repo))
    assert set(listed) == {"project", "total", "memories"}
    assert (listed["project"], listed["total"]) == (key, 1)
    (row,) = listed["memories"]
    assert set(row) == {"id", "project", "source", "body", "created_at", "updated_at"}
    assert (row["id"], row["body"], row["source"]) == (made["id"], "Deploys use make deploy", "ops")


def test_read_pages_from_stdin_body_come_back_byte_exact(repo: Path) -> None:
    # Escape sequences, NUL, CRLF and multibyte text, over several lean pages: the JSON
    # pages are the body itself; the text output is the same page with its control
    # characters shown escaped, and stderr says where the next one starts.
    body = "\x1b[31mred\x1b[0m\ttab\x00nul é€🚀\r\n" * 200
    made = json.loads(ok("memory", "remember", "-", "--json", cwd=repo, stdin=body.encode()))
    pages = []
    offset = "0"
    while True:
        args = ("memory", "read", str(made["id"]), "--budget", "lean", "--offset", offset)
        done = run_cli(*args, cwd=repo)
        assert done.returncode == 0, done.stderr
        page = json.loads(ok(*args, "--json", cwd=repo))["memory"]
        assert len(page["body"].encode()) <= 2800
        assert done.stdout == visible(page["body"])
        pages.append(page["body"])
        if not done.stderr:
            break
        offset = re.search(r"--offset (\d+)$", done.stderr.strip()).group(1)  # type: ignore[union-attr]
        assert int(offset) == len("".join(pages).encode()) == page["next"]
    assert len(pages) == 3
    assert "".join(pages) == body


def test_offset_errors_on_the_command_line(repo: Path) -> None:
    svc = Synapse()
    memory_id = svc.remember("🚀 launch", svc.scope(repo)).id
    inside = run_cli("memory", "read", str(memory_id), "--offset", "2", cwd=repo)
    assert inside.returncode == 2
    assert inside.stderr == f"synapse: offset 2 is inside a UTF-8 character of memory {memory_id}\n"
    end = json.loads(ok("memory", "read", str(memory_id), "--offset", "11", "--json", cwd=repo))
    assert (end["memory"]["body"], end["memory"]["next"]) == ("", None)


def test_lifecycle_commands(repo: Path) -> None:
    svc = Synapse()
    first = svc.remember("timeout is 30 s", svc.scope(repo)).id
    out = ok("memory", "supersede", str(first), "timeout is 60 s", cwd=repo)
    second = int(out.split()[1])
    assert out == f"remembered {second} ({os.path.realpath(repo)})\n  supersedes {first}\n"
    history = ok("memory", "history", str(first), cwd=repo)
    assert f"memory {first} (superseded)" in history
    assert f"superseded by {second}" in history and f"chain {first} -> {second}" in history
    assert ok("memory", "forget", str(second), cwd=repo).startswith(f"forgotten {second}:")
    restored = json.loads(ok("memory", "restore", str(first), "--json", cwd=repo))
    assert (restored["state"], restored["superseded_by"]) == ("live", None)
    edited = ok("memory", "edit", str(first), "timeout is 90 s", cwd=repo)
    assert edited == f"edited {first}: timeout is 90 s\n"
    assert [m.body for m in svc.list_memories(svc.scope(repo)).memories] == ["timeout is 90 s"]


BAD = {
    "empty body": (("memory", "remember", ""), None, "synapse: body is empty"),
    "body of 1 MiB + 1": (
        ("memory", "remember", "-"),
        b"x" * (MAX_BODY_BYTES + 1),
        f"synapse: body is over {MAX_BODY_BYTES} bytes; the limit is {MAX_BODY_BYTES} bytes",
    ),
    "source over 4 KiB": (
        ("memory", "remember", "fine", "--source", "s" * (MAX_SOURCE_BYTES + 1)),
        None,
        f"synapse: source is {MAX_SOURCE_BYTES + 1} bytes; the limit is {MAX_SOURCE_BYTES}",
    ),
    "invalid UTF-8 on stdin": (
        ("memory", "remember", "-"),
        b"caf\xe9 au lait",
        "synapse: standard input is not valid UTF-8 (byte 3)",
    ),
    "a source that is not UTF-8": (
        ("memory", "remember", "fine", "--source", "caf\udce9"),  # the byte 0xE9 in argv
        None,
        "synapse: source is not valid Unicode",
    ),
    "unknown id to read": (("memory", "read", "404"), None, "synapse: no memory 404 is visible"),
    "unknown id to edit": (("memory", "edit", "404", "x"), None, "synapse: no memory 404"),
    "unknown id to supersede": (
        ("memory", "supersede", "404", "new text"),
        None,
        "synapse: no memory 404",
    ),
    "unknown id in history": (("memory", "history", "404"), None, "synapse: no memory 404"),
    "unknown budget": (
        ("memory", "read", "1", "--budget", "huge"),
        None,
        "synapse: unknown budget 'huge'",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    case: str, repo: Path, isolated_store: Path
) -> None:
    args, stdin, message = BAD[case]
    if case != "empty body":  # one case runs before the store even exists
        svc = Synapse()
        svc.remember("the one memory", svc.scope(repo))
    before = snapshot(isolated_store)
    done = run_cli(*args, cwd=repo, stdin=stdin)
    assert done.returncode == 2
    assert done.stderr.startswith(message)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""
    assert snapshot(isolated_store) == before
    if case == "empty body":
        assert not (isolated_store / "memory.db").exists()


def test_list_filters_and_counts_what_it_leaves_out(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    ids = [svc.remember(f"Deploy step {n}", here).id for n in range(3)]
    svc.remember("unrelated", here)
    out = ok("memory", "list", "DEPLOY", "--limit", "2", cwd=repo).splitlines()
    assert [int(line.split()[0]) for line in out[:2]] == ids[:0:-1]
    assert out[0].split()[1] == "project"
    assert out[2:] == ["… and 1 more (use --limit)"]
