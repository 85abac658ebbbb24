"""`synapse mcp config` and `synapse status`: a client started with any environment opens
the store the CLI uses, and status says which store each of them opens."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from mcp import StdioServerParameters
from mcp.client.stdio import get_default_environment
from mcp_harness import SYNAPSE, started_from
from support import make_repo, run_cli


@pytest.fixture
def shell(tmp_path: Path) -> dict[str, str]:
    """A user's shell that chooses the store by XDG_DATA_HOME alone."""
    return {"SYNAPSE_DATA": "", "XDG_DATA_HOME": str(tmp_path / "xdg")}


def test_a_client_started_with_only_path_opens_the_store_the_cli_wrote(
    tmp_path: Path, shell: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo")
    body = "The staging database is pg-stage-3 on port 6543"
    assert run_cli("memory", "remember", body, cwd=repo, env=shell).returncode == 0
    written = run_cli("mcp", "config", "claude", "--write", cwd=repo, env=shell)
    assert written.returncode == 0, written.stderr
    assert written.stdout.strip() == f"created  {repo / '.mcp.json'}"
    server = json.loads((repo / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["synapse"]
    assert server == {
        "type": "stdio",
        "command": str(SYNAPSE),
        "args": ["mcp"],
        "env": {"SYNAPSE_DATA": str(tmp_path / "xdg" / "synapse")},
    }
    # The SDK passes a client only what it deems safe to inherit: leave it PATH alone.
    for key in list(os.environ):
        if key != "PATH":
            monkeypatch.delenv(key)
    assert set(get_default_environment()) == {"PATH"}
    params = StdioServerParameters(
        command=server["command"], args=server["args"], env=server["env"], cwd=str(repo)
    )
    with started_from(params, [repo]) as session:
        found = session.ok("recall", {"query": "staging database port"})
    assert [hit["body"] for hit in found["hits"]] == [body]


def test_status_names_the_store_its_origin_counts_hooks_and_clients(
    tmp_path: Path, shell: dict[str, str]
) -> None:
    repo = make_repo(tmp_path / "repo")
    assert run_cli("memory", "remember", "mine", cwd=repo, env=shell).returncode == 0
    shared = run_cli("memory", "remember", "everyone's", "--global", cwd=repo, env=shell)
    assert shared.returncode == 0
    assert run_cli("hook", "install", "--hooks", "pre-commit", cwd=repo, env=shell).returncode == 0
    assert run_cli("mcp", "config", "codex", "--write", cwd=repo, env=shell).returncode == 0
    (repo / ".mcp.json").write_text(
        '{"mcpServers": {"synapse": {"command": "synapse", "args": ["mcp"]}}}', encoding="utf-8"
    )
    done = run_cli("status", "--json", cwd=repo, env=shell)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    store = tmp_path / "xdg" / "synapse"
    assert status["store"]["path"] == str(store / "memory.db")
    assert status["store"]["chosen_by"] == "XDG_DATA_HOME"
    assert status["store"]["schema"] == status["store"]["schema_supported"]
    assert status["memories"] == {"global": 1, "project": 1}
    assert status["project"] == os.path.realpath(repo)
    assert status["hooks"]["pre-commit"] == "synapse"
    assert status["hooks"]["post-checkout"] == "absent"
    by_client = {client["client"]: client for client in status["mcp_clients"]}
    assert by_client["codex"]["same_store"] is True
    # The tests keep recall lexical (SYNAPSE_SEMANTIC=off), and status says so.
    assert status["semantic"]["on"] is False
    assert status["semantic"]["reason"] == "turned off by SYNAPSE_SEMANTIC"
    assert (status["semantic"]["vectors"], status["semantic"]["live"]) == (0, 2)
    assert by_client["claude"] == {
        "client": "claude",
        "file": str(repo / ".mcp.json"),
        "server": True,
        "store": None,
        "same_store": None,
        "problem": None,
    }
    text = run_cli("status", cwd=repo, env=shell).stdout
    assert f"{store / 'memory.db'} (chosen by XDG_DATA_HOME)" in text
    assert "memories  1 global, 1 in this project" in text
    assert "config.toml: opens this store" in text
    assert ".mcp.json: store not pinned" in text
    assert "semantic  off: turned off by SYNAPSE_SEMANTIC (0 of 2 live memories" in text
    # Another store: the same files read from a shell that chose a different one.
    elsewhere = run_cli("status", cwd=repo, env={"SYNAPSE_DATA": str(tmp_path / "other")})
    assert f"config.toml: opens ANOTHER store: {store}" in elsewhere.stdout
    assert "memories  0 global, 0 in this project" in elsewhere.stdout


def test_codex_config_merges_beside_other_servers_and_settings(
    tmp_path: Path, shell: dict[str, str]
) -> None:
    repo = make_repo(tmp_path / "repo")
    config = repo / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(
        'model = "o4"\n\n[mcp_servers.synapse]\ncommand = "synapse"\nargs = ["mcp"]\n\n'
        '[mcp_servers.synapse.env]\nFOO = "1"\n\n[mcp_servers.other]\ncommand = "other"\n',
        encoding="utf-8",
    )
    done = run_cli("mcp", "config", "codex", "--write", cwd=repo, env=shell)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("updated")
    doc = tomllib.loads(config.read_text(encoding="utf-8"))
    assert doc["model"] == "o4"
    assert doc["mcp_servers"]["other"] == {"command": "other"}
    assert doc["mcp_servers"]["synapse"] == {
        "command": str(SYNAPSE),
        "args": ["mcp"],
        "env": {"SYNAPSE_DATA": str(tmp_path / "xdg" / "synapse")},
    }
    again = run_cli("mcp", "config", "codex", "--write", cwd=repo, env=shell)
    assert again.stdout.startswith("unchanged")
    printed = run_cli("mcp", "config", "codex", cwd=repo, env=shell).stdout
    assert tomllib.loads(printed)["mcp_servers"]["synapse"] == doc["mcp_servers"]["synapse"]


@pytest.mark.parametrize("bom", ["\ufeff", ""])
@pytest.mark.parametrize(
    ("client", "name", "text"),
    [
        ("claude", ".mcp.json", '{\r\n  "mcpServers": {"other": {"command": "o"}}\r\n}\r\n'),
        ("codex", ".codex/config.toml", '# kept\r\nm = "x"\r\n[mcp_servers.o]\r\nargs = []\r\n'),
    ],
)
def test_write_keeps_a_byte_order_mark_and_crlf_line_ends(
    tmp_path: Path, shell: dict[str, str], bom: str, client: str, name: str, text: str
) -> None:
    # Windows editors write both, and the clients read such files; `synapse setup`
    # keeps them (tests/clients/test_setup_breakage.py), and so does --write.
    repo = make_repo(tmp_path / "repo")
    (repo / name).parent.mkdir(exist_ok=True)
    (repo / name).write_bytes((bom + text).encode())
    done = run_cli("mcp", "config", client, "--write", cwd=repo, env=shell)
    assert done.returncode == 0 and done.stdout.startswith("updated"), done.stderr
    written = (repo / name).read_bytes()
    assert written.startswith(bom.encode()) and written.count(b"\n") == written.count(b"\r\n")
    body = written.decode().removeprefix(bom)
    doc = tomllib.loads(body) if client == "codex" else json.loads(body)
    servers = doc.get("mcp_servers") or doc["mcpServers"]
    assert sorted(servers) == ["o" if client == "codex" else "other", "synapse"]
    again = run_cli("mcp", "config", client, "--write", cwd=repo, env=shell)
    assert again.stdout.startswith("unchanged") and (repo / name).read_bytes() == written


@pytest.mark.parametrize(
    ("args", "setup", "expected"),
    [
        (["mcp", "config", "vscode"], None, "unknown client 'vscode'"),
        (["mcp", "config", "json", "--write"], None, "--write needs a client with a project file"),
        (["mcp", "config", "claude", "--write"], ".mcp.json", "is not valid JSON"),
        (["mcp", "config", "codex", "--write"], ".codex/config.toml", "is not valid TOML"),
    ],
)
def test_bad_config_requests_change_nothing(
    tmp_path: Path, shell: dict[str, str], args: list[str], setup: str | None, expected: str
) -> None:
    repo = make_repo(tmp_path / "repo")
    if setup is not None:
        (repo / setup).parent.mkdir(parents=True, exist_ok=True)
        (repo / setup).write_text("{not [valid", encoding="utf-8")
    before = sorted(p.name for p in repo.rglob("*") if ".git" not in p.parts)
    done = run_cli(*args, cwd=repo, env=shell)
    assert done.returncode == 2 and expected in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert sorted(p.name for p in repo.rglob("*") if ".git" not in p.parts) == before
    if setup is not None:
        assert (repo / setup).read_text(encoding="utf-8") == "{not [valid"
