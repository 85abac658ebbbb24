"""Committed client configurations a user did not write: a 100,000-deep `.mcp.json`
or `.codex/config.toml`, one of gigabytes, a NUL or an unknown `~user` in a pinned
SYNAPSE_DATA. `status` reads on with a note, `mcp config --write` refuses in one
line; neither exits 3."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from support import make_repo, run_cli

SYNAPSE = str(Path(sys.executable).with_name("synapse"))
DEEP_JSON = "[" * 100_000 + "]" * 100_000
PINNED = {
    "nul": "/tmp/a\u0000b",
    "no such user": "~nosuchuser-synapse/x",
}


def pinned_config(store: str) -> str:
    entry = {"command": "synapse", "args": ["mcp"], "env": {"SYNAPSE_DATA": store}}
    return json.dumps({"mcpServers": {"synapse": entry}})


def test_a_deeply_nested_client_file(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    (repo / ".mcp.json").write_text(DEEP_JSON, encoding="utf-8")
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_text("a = " + "[" * 100_000, encoding="utf-8")
    status = run_cli("status", cwd=repo)
    assert status.returncode == 0, status.stderr
    assert ".mcp.json: cannot be used: nested too deeply to read" in status.stdout
    for client in ("claude", "codex"):
        written = run_cli("mcp", "config", client, "--write", cwd=repo)
        assert written.returncode == 2, written.stderr
        assert written.stderr.count("\n") == 1 and "nothing was written" in written.stderr
    for client in ("claude", "codex"):
        wired = run_cli("setup", client, cwd=repo)
        assert wired.returncode == 2 and wired.stderr.count("\n") == 1, wired.stderr
        assert "nested too deeply" in wired.stderr
    assert (repo / ".mcp.json").read_text(encoding="utf-8") == DEEP_JSON


@pytest.mark.parametrize("kind", sorted(PINNED))
def test_a_pinned_store_no_folder_can_be(kind: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    (repo / ".mcp.json").write_text(pinned_config(PINNED[kind]), encoding="utf-8")
    status = run_cli("status", cwd=repo)
    assert status.returncode == 0, status.stderr
    assert ".mcp.json: cannot be used: SYNAPSE_DATA=" in status.stdout
    data = json.loads(run_cli("status", "--json", cwd=repo).stdout)
    [client] = data["mcp_clients"]
    assert client["problem"].startswith("SYNAPSE_DATA=")
    written = run_cli("mcp", "config", "claude", "--write", cwd=repo)
    assert written.returncode == 0, written.stderr
    # The same values in the user's own environment: one line, exit 2.
    own = run_cli("status", cwd=repo, env={"SYNAPSE_DATA": PINNED[kind].replace("\0", "")})
    if kind == "no such user":
        assert own.returncode == 2 and own.stderr.count("\n") == 1
        assert "no such user's home folder" in own.stderr


def _capped() -> None:
    # Far more than status needs, far less than the file: reading it whole would
    # take what the machine has, so the process is held to this.
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_client_file_of_gigabytes_is_not_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    with (repo / ".mcp.json").open("wb") as out:
        out.truncate(4 << 30)  # sparse: costs no disk, as it costs its maker none
    for args in (["status"], ["mcp", "config", "claude", "--write"]):
        done = subprocess.run(
            [SYNAPSE, *args], cwd=repo, capture_output=True, preexec_fn=_capped, check=False
        )
        said = done.stdout.decode() + done.stderr.decode()
        assert "internal error" not in said and "over 16777216 bytes" in said, (args, said)
        assert done.returncode == (0 if args == ["status"] else 2), said
    assert (repo / ".mcp.json").stat().st_size == 4 << 30


@pytest.mark.parametrize("name", [".mcp.json", ".claude/settings.json", ".cursor/mcp.json"])
def test_a_client_file_linked_to_a_fifo_is_not_waited_on(tmp_path: Path, name: str) -> None:
    # A committed link can lead to a FIFO (or a terminal) on the reader's machine:
    # opening it, or reading it, would wait for a writer that never comes.
    repo = make_repo(tmp_path / "r")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (repo / name).parent.mkdir(exist_ok=True)
    (repo / name).symlink_to(fifo)
    for args in (["status"], ["setup", "claude"], ["mcp", "config", "claude", "--write"]):
        try:
            # A guard against waiting for ever, not a measure: it takes well under a second.
            done = subprocess.run([SYNAPSE, *args], cwd=repo, capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args} waited on {name}, a FIFO")
        assert b"internal error" not in done.stderr, (args, done.stderr)
        assert done.returncode in (0, 2), (args, done.stderr)
    assert (repo / name).is_symlink()


def test_mcp_config_write_refuses_a_client_file_in_setups_words(tmp_path: Path) -> None:
    """A folder where `.mcp.json` goes was "cannot read …: [Errno 21] Is a directory: 3",
    Python's words and a file descriptor; `mcp config --write` now reads the file as
    `setup` does and says what setup says."""
    repo = make_repo(tmp_path / "r")
    (repo / ".mcp.json").mkdir()
    said = {}
    for args in (("mcp", "config", "claude", "--write"), ("setup", "claude")):
        done = run_cli(*args, cwd=repo)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        said[args[0]] = done.stderr
    assert said["mcp"] == said["setup"]
    assert (
        said["mcp"]
        == f"synapse: cannot read {repo / '.mcp.json'}: Is a directory; nothing was written\n"
    )
    (repo / ".mcp.json").rmdir()
    (repo / ".mcp.json").write_bytes(b"\xff")
    done = run_cli("mcp", "config", "claude", "--write", cwd=repo)
    assert (
        done.stderr == f"synapse: {repo / '.mcp.json'} is not UTF-8 (byte 0); nothing was written\n"
    )
    assert (repo / ".mcp.json").read_bytes() == b"\xff"
