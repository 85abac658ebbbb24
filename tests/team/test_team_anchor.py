"""A shared memory carries the commit it was written at (`head_commit`, optional in the
team file: lines written before it stay valid and byte-identical)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from team_harness import make_team

from synapse_git.team import records

OLD_LINE = (
    '{"author":"A <a@example.com>","body":"Deploys go out on Tuesday.",'
    '"created_at":"2026-01-01T00:00:00.000000+00:00","id":"u1","source":"",'
    '"state":"live","supersedes":null,"updated_at":"2026-01-01T00:00:00.000000+00:00"}'
)


def test_a_line_without_head_commit_reads_and_renders_as_before() -> None:
    record = records.parse_line(OLD_LINE)
    assert record.head_commit is None and record.line() == OLD_LINE
    anchored = OLD_LINE[:-1] + ',"head_commit":"' + "a" * 40 + '"}'
    assert records.parse_line(anchored).head_commit == "a" * 40


@pytest.mark.parametrize("value", ['"abc"', "7", '"' + "A" * 40 + '"'])
def test_a_bad_head_commit_is_a_bad_line(value: str) -> None:
    with pytest.raises(ValueError, match="head_commit must be a full commit id"):
        records.parse_line(OLD_LINE[:-1] + ',"head_commit":' + value + "}")


def test_the_teammate_gets_the_commit_the_memory_was_written_at(tmp_path: Path) -> None:
    alice, bob = make_team(tmp_path)
    head = alice.git("rev-parse", "HEAD").stdout.strip()
    alice.remember("Deploys go out from the release branch every Tuesday.", "--share")
    [line] = alice.team_lines()
    assert line["head_commit"] == head
    alice.commit_all("Share a memory")
    alice.git("push", "-q", "origin", "main")
    bob.git("pull", "-q", "origin", "main")
    with closing(sqlite3.connect(bob.data / "memory.db")) as conn:
        found = conn.execute("SELECT head_commit FROM memories").fetchall()
    assert found == [(head,)]
