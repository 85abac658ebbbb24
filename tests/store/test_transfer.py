"""JSON Lines import and export (docs/recall.md)."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from synapse_git.errors import BadInput
from synapse_git.service import Synapse
from synapse_git.settings import Config
from synapse_git.store import memories


def test_export_then_import_keeps_project_source_and_timestamps(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    edited = svc.remember("first wording", here, source="docs/a.md").id
    svc.edit(edited, here, body="edited wording\twith a tab and \x00 NUL")
    svc.remember("global, with ünïcode and 🚀", here, is_global=True, source="habits")
    hidden = svc.remember("forgotten", here).id
    svc.forget(hidden, here)
    exported = list(svc.export())
    assert len(exported) == 2  # live memories only

    other = Synapse(Config(data_dir=tmp_path / "other-store"))
    report = other.import_lines(exported)
    assert (report.imported, report.duplicates, report.lines) == (2, 0, 2)
    assert list(other.export()) == exported
    first = json.loads(exported[0])
    assert first["project"] == os.path.realpath(repo)
    assert first["source"] == "docs/a.md"
    assert first["created_at"] < first["updated_at"]
    listed = other.list_memories(other.scope(repo))
    assert {m.project for m in listed.memories} == {None, os.path.realpath(repo)}
    # Importing the same lines again adds nothing.
    assert other.import_lines(exported).duplicates == 2


def test_a_project_folder_resolves_to_its_repository(repo: Path) -> None:
    svc = Synapse()
    sub = repo / "src"
    sub.mkdir()
    line = json.dumps({"body": "from a subfolder", "project": str(sub)})
    svc.import_lines([line])
    assert svc.list_memories(svc.scope(repo)).memories[0].project == os.path.realpath(repo)


def test_timestamps_are_normalized_to_utc() -> None:
    svc = Synapse()
    line = json.dumps({"body": "dated", "project": None, "created_at": "2024-03-01T12:00:00+02:00"})
    svc.import_lines([line])
    assert json.loads(next(svc.export()))["created_at"] == "2024-03-01T10:00:00.000000+00:00"


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"body": ""}', "body is empty"),
        ('{"body": 7}', '"body" must be a string'),
        ('{"body": "x", "created_at": "yesterday"}', "not an ISO 8601 timestamp"),
        ('{"body": "x", "source": "' + "s" * 4097 + '"}', "source is 4097 bytes"),
    ],
)
def test_a_malformed_line_stops_the_import_and_names_its_line(
    bad: str, why: str, outside: Path
) -> None:
    svc = Synapse()
    good = [json.dumps({"body": f"good {n}", "project": None}) for n in range(3)]
    with pytest.raises(BadInput) as caught:
        svc.import_lines([*good, "", bad, good[0]])
    message = str(caught.value)
    assert message.startswith("line 5: ") and why in message
    assert message.endswith("nothing was imported")
    assert svc.list_memories(svc.scope(outside)).total == 0


def test_a_project_folder_outside_git_is_refused(outside: Path) -> None:
    svc = Synapse()
    with pytest.raises(BadInput, match=r"line 1: project folder .* is not inside a git"):
        svc.import_lines([json.dumps({"body": "x", "project": str(outside)})])


def test_everywhere_travels_through_export_and_import(repo: Path, tmp_path: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    svc.remember("holds on every branch", here, everywhere=True)
    svc.remember("holds on this line", here)
    exported = list(svc.export())
    marks = {json.loads(line)["body"]: json.loads(line).get("everywhere") for line in exported}
    assert marks == {"holds on every branch": True, "holds on this line": None}
    other = Synapse(Config(data_dir=tmp_path / "other-store"))
    other.import_lines(exported)
    assert list(other.export()) == exported


def test_a_memory_marked_everywhere_as_export_starts_keeps_its_mark(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process marks a memory `everywhere` just as an export reads the store:
    the line says so when the row does. The flags and the rows were two reads, and a
    mark made between them left the exported line without it."""
    svc = Synapse()
    here = svc.scope(repo)
    svc.remember("holds on every branch", here)
    other = Synapse()
    real = memories.live_rows

    def marked_first(conn: sqlite3.Connection) -> Iterator[tuple[memories.Memory, bool]]:
        other.remember("holds on every branch", other.scope(repo), everywhere=True)
        return real(conn)

    monkeypatch.setattr(memories, "live_rows", marked_first)
    (line,) = svc.export()
    assert json.loads(line).get("everywhere") is True


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"everywhere": "yes"}, '"everywhere" must be true or false'),
        ({"everywhere": True, "project": None}, "global one holds everywhere"),
    ],
)
def test_a_bad_everywhere_stops_the_import(
    repo: Path, extra: dict[str, object], words: str
) -> None:
    svc = Synapse()
    line = json.dumps({"body": "x", "project": str(repo), **extra})
    with pytest.raises(BadInput, match=words):
        svc.import_lines([line])
    assert list(svc.export()) == []
