"""Two `synapse setup` at once: each reads the client files and the record of what
setup replaced (`setup.json` in the data folder), edits them in memory and writes
them back. ~/.claude.json holds the user scope's server and every project's local
one, and the record is one file for every setup: the second one's reads must come
after the first one's writes, or it writes the old content back over them. Two
setups in two threads over real files; the first one is slowed between its reads
and its writes, so the second certainly runs in that moment."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from synapse_git.clients import file_writes
from synapse_git.clients import setup as client_setup
from synapse_git.service import Synapse

SLOW_S = 0.5


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("CODEX_HOME", str(folder / ".codex"))
    return folder


@pytest.fixture
def first_write_slowed(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Set once the thread named "first" has read every file and is about to write,
    which it then does SLOW_S later."""
    writing = threading.Event()
    real = file_writes.stage

    def slowed(
        writes: Sequence[tuple[Path, str | None]], *, private: bool = False
    ) -> file_writes.Staged:
        if threading.current_thread().name == "first":
            writing.set()
            time.sleep(SLOW_S)
        return real(writes, private=private)

    monkeypatch.setattr(file_writes, "stage", slowed)
    yield writing


def while_first_writes(writing: threading.Event, first: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=first, name="first")
    thread.start()
    assert writing.wait(30), "the first setup never reached its writes"
    return thread


def test_two_local_setups_at_once_keep_both_projects_servers(
    repo_factory: Callable[..., Path], home: Path, first_write_slowed: threading.Event
) -> None:
    one, other = repo_factory("one"), repo_factory("other")
    claude = home / ".claude.json"
    claude.write_text('{"numStartups": 3}\n', encoding="utf-8")
    svc = Synapse()
    thread = while_first_writes(
        first_write_slowed, lambda: svc.setup_client("claude", svc.scope(one), "local")
    )
    svc.setup_client("claude", svc.scope(other), "local")
    thread.join()
    doc = json.loads(claude.read_text(encoding="utf-8"))
    assert doc["numStartups"] == 3
    for project in (one, other):
        assert "synapse" in doc["projects"][str(project.resolve())]["mcpServers"]


def test_two_clients_set_up_at_once_are_both_recorded_for_uninstall(
    repo: Path, home: Path, first_write_slowed: threading.Event
) -> None:
    svc = Synapse()
    scope = svc.scope(repo)
    thread = while_first_writes(
        first_write_slowed, lambda: svc.setup_client("claude", scope, "project")
    )
    svc.setup_client("cursor", scope, "project")
    thread.join()
    recorded = json.loads((svc.config.data_dir / client_setup.RECORD_FILE).read_text())["files"]
    made = {
        str(change.path)
        for client in ("claude", "cursor")
        for change in svc.setup_client(
            client, scope, "project", dry_run=True, uninstall=True
        ).changes
    }
    assert made <= set(recorded)
    # What setup made, uninstall removes: no file of either client is left behind.
    for client in ("claude", "cursor"):
        svc.setup_client(client, scope, "project", uninstall=True)
    assert not (repo / ".mcp.json").exists() and not (repo / ".cursor").exists()
