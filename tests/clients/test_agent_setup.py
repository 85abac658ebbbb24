"""`synapse setup claude|codex|cursor`: each client's documented files, written by the real
command into real folders, merged, repeated, previewed, undone byte for byte, and refused
when unparsable. HOME (and CODEX_HOME) point at temporary folders throughout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
PROMPT_EVENT = "UserPromptSubmit"

# The project files of each client, and the documented example each is seeded with.
PROJECT_FILES = {
    "claude": {".mcp.json": "claude-mcp.json", ".claude/settings.json": "claude-settings.json"},
    "codex": {".codex/config.toml": "codex-config.toml", ".codex/hooks.json": "codex-hooks.json"},
    "cursor": {".cursor/mcp.json": "cursor-mcp.json", ".cursor/hooks.json": "cursor-hooks.json"},
}
USER_FILES = {
    "claude": [".claude.json", ".claude/settings.json"],
    "codex": [".codex/config.toml", ".codex/hooks.json"],
    "cursor": [".cursor/mcp.json", ".cursor/hooks.json"],
}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(folder).parts
    }


def folders(folder: Path) -> list[str]:
    return sorted(
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_dir() and ".git" not in p.relative_to(folder).parts
    )


def setup(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("setup", *args, cwd=repo)


def load(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)


def commands(doc: dict[str, Any]) -> list[str]:
    """Every hook command in a hooks document, either shape."""
    found = []
    for entries in doc.get("hooks", {}).values():
        for entry in entries:
            inner = entry.get("hooks", [entry])
            found += [hook["command"] for hook in inner]
    return found


def check_documented_shape(client: str, files: dict[str, Any]) -> None:
    """What each client's documentation says its files hold."""
    if client == "claude":
        server = files["mcp"]["mcpServers"]["synapse"]
        assert server["type"] == "stdio" and server["args"] == ["mcp"]
        hooks = files["hooks"]["hooks"]
        (start,) = [g for g in hooks["SessionStart"] if "synapse" in str(g)]
        assert set(start["matcher"].split("|")) == {"startup", "resume", "clear", "compact"}
        (prompt,) = [g for g in hooks[PROMPT_EVENT] if "synapse" in str(g)]
        assert "matcher" not in prompt
        for group in (start, prompt):
            for hook in group["hooks"]:
                assert hook["type"] == "command" and isinstance(hook["timeout"], int)
    elif client == "codex":
        server = files["mcp"]["mcp_servers"]["synapse"]
        assert server["args"] == ["mcp"] and isinstance(server["command"], str)
        hooks = files["hooks"]["hooks"]
        assert any("hook session" in c for c in commands({"hooks": {"S": hooks["SessionStart"]}}))
        assert any("hook prompt" in c for c in commands({"hooks": {"U": hooks[PROMPT_EVENT]}}))
    else:
        server = files["mcp"]["mcpServers"]["synapse"]
        assert server["args"] == ["mcp"] and "type" not in server
        assert files["hooks"]["version"] == 1
        (mine,) = [h for h in files["hooks"]["hooks"]["sessionStart"] if "synapse" in h["command"]]
        assert set(mine) == {"command"}


def project_docs(repo: Path, client: str) -> dict[str, Any]:
    mcp_file, hooks_file = PROJECT_FILES[client]
    return {"mcp": load(repo / mcp_file), "hooks": load(repo / hooks_file)}


@pytest.mark.parametrize("client", sorted(PROJECT_FILES))
def test_setup_into_an_empty_folder_then_again_then_uninstall(
    repo: Path, home: Path, client: str
) -> None:
    before, dirs_before = tree(repo), folders(repo)
    done = setup(repo, client)
    assert done.returncode == 0, done.stderr
    for name in PROJECT_FILES[client]:
        assert "created" in done.stdout and name.split("/")[-1] in done.stdout
        assert (repo / name).is_file()
    check_documented_shape(client, project_docs(repo, client))
    written = tree(repo)
    again = setup(repo, client)
    assert again.returncode == 0
    assert again.stdout.count("unchanged") == 2 and "created" not in again.stdout
    assert tree(repo) == written
    gone = setup(repo, client, "--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert gone.stdout.count("removed") == 2
    assert tree(repo) == before and folders(repo) == dirs_before
    assert tree(home) == {}


@pytest.mark.parametrize("client", sorted(PROJECT_FILES))
def test_setup_merges_with_other_servers_and_hooks_and_uninstall_is_byte_identical(
    repo: Path, client: str
) -> None:
    for name, fixture in PROJECT_FILES[client].items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / fixture, repo / name)
    before = tree(repo)
    originals = {name: load(FIXTURES / fixture) for name, fixture in PROJECT_FILES[client].items()}
    done = setup(repo, client)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("updated") == 2
    assert "+" in done.stdout  # the diff of what changed
    docs = project_docs(repo, client)
    check_documented_shape(client, docs)
    (mcp_name, hooks_name) = PROJECT_FILES[client]
    key = "mcp_servers" if client == "codex" else "mcpServers"
    others = {k: v for k, v in docs["mcp"][key].items() if k != "synapse"}
    assert others == originals[mcp_name][key]
    if client == "codex":
        text = (repo / mcp_name).read_text()
        assert "# Codex settings, kept by hand" in text and "# set per machine" in text
        assert docs["mcp"]["profiles"] == originals[mcp_name]["profiles"]
    old_commands = commands(originals[hooks_name])
    assert set(old_commands) <= set(commands(docs["hooks"]))
    if client == "claude":
        assert docs["hooks"]["permissions"] == originals[hooks_name]["permissions"]
    written = tree(repo)
    assert setup(repo, client).stdout.count("unchanged") == 2
    assert tree(repo) == written
    gone = setup(repo, client, "--uninstall")
    assert gone.returncode == 0 and gone.stdout.count("restored") == 2
    assert tree(repo) == before


@pytest.mark.parametrize("client", sorted(PROJECT_FILES))
def test_dry_run_writes_nothing(repo: Path, isolated_store: Path, client: str) -> None:
    before, data_before = tree(repo), tree(isolated_store)
    done = setup(repo, client, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("would create") == 2 and "+++" in done.stdout
    assert tree(repo) == before and folders(repo) == []
    assert tree(isolated_store) == data_before
    setup(repo, client)
    written = tree(repo)
    assert "would remove" in setup(repo, client, "--uninstall", "--dry-run").stdout
    assert tree(repo) == written


@pytest.mark.parametrize("client", sorted(PROJECT_FILES))
def test_an_unparsable_file_is_refused_and_nothing_is_written(repo: Path, client: str) -> None:
    mcp_name, hooks_name = PROJECT_FILES[client]
    (repo / hooks_name).parent.mkdir(parents=True, exist_ok=True)
    (repo / hooks_name).write_bytes(b'{"hooks": {"Stop": [}\n')
    before = tree(repo)
    done = setup(repo, client)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "not valid JSON" in done.stderr and "nothing was written" in done.stderr
    assert tree(repo) == before and not (repo / mcp_name).exists()
    (repo / hooks_name).unlink()
    (repo / mcp_name).write_bytes(b"[mcp_servers.x\n" if client == "codex" else b"{,}")
    before = tree(repo)
    refused = setup(repo, client)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert tree(repo) == before
    assert setup(repo, client, "--uninstall").returncode == 2
    assert tree(repo) == before


@pytest.mark.parametrize("client", sorted(PROJECT_FILES))
def test_project_scope_writes_nothing_personal(
    repo: Path, home: Path, isolated_store: Path, client: str
) -> None:
    done = setup(repo, client)
    assert done.returncode == 0
    for name in PROJECT_FILES[client]:
        text = (repo / name).read_text()
        assert "SYNAPSE_DATA" not in text and str(isolated_store) not in text
        assert (
            str(home) not in text
            and sys.prefix not in text
            and "/" not in text.replace("startup|resume", "").replace("https://", "")
        )
    assert tree(home) == {}
    # The store here is chosen by SYNAPSE_DATA: setup says how to pin it personally.
    assert "note:" in done.stdout and "--scope" in done.stdout


@pytest.mark.parametrize("client", sorted(USER_FILES))
def test_user_scope_pins_this_store_in_the_home_files_only(
    repo: Path, home: Path, isolated_store: Path, client: str
) -> None:
    before = tree(repo)
    if client == "claude":
        (home / ".claude.json").write_bytes((FIXTURES / "claude-user.json").read_bytes())
    home_before = tree(home)
    done = setup(repo, client, "--scope", "user")
    assert done.returncode == 0, done.stderr
    assert tree(repo) == before
    for name in USER_FILES[client]:
        text = (home / name).read_text()
        assert str(isolated_store) in text
    if client == "claude":
        doc = load(home / ".claude.json")
        assert doc["numStartups"] == 12 and "notes" in doc["mcpServers"]
        assert doc["mcpServers"]["synapse"]["env"] == {"SYNAPSE_DATA": str(isolated_store)}
    assert setup(repo, client, "--scope", "user").stdout.count("unchanged") == 2
    assert setup(repo, client, "--scope", "user", "--uninstall").returncode == 0
    assert tree(home) == home_before


def test_claude_local_scope_pins_into_the_personal_files(
    repo: Path, home: Path, isolated_store: Path
) -> None:
    before = tree(repo)
    done = setup(repo, "claude", "--scope", "local")
    assert done.returncode == 0, done.stderr
    user = load(home / ".claude.json")
    server = user["projects"][str(repo.resolve())]["mcpServers"]["synapse"]
    assert server["env"] == {"SYNAPSE_DATA": str(isolated_store)}
    assert os.path.isabs(server["command"])
    local = load(repo / ".claude" / "settings.local.json")
    assert all(str(isolated_store) in c for c in commands(local))
    assert not (repo / ".mcp.json").exists() and not (repo / ".claude" / "settings.json").exists()
    assert setup(repo, "claude", "--scope", "local", "--uninstall").returncode == 0
    assert tree(home) == {} and tree(repo) == before and folders(repo) == []


@pytest.mark.parametrize("client", ["codex", "cursor"])
def test_local_scope_is_claude_only(repo: Path, client: str) -> None:
    done = setup(repo, client, "--scope", "local")
    assert done.returncode == 2 and "no local scope" in done.stderr
    assert folders(repo) == []


def test_uninstall_after_a_hand_edit_takes_out_only_synapse(repo: Path) -> None:
    assert setup(repo, "claude").returncode == 0
    settings = repo / ".claude" / "settings.json"
    doc = load(settings)
    doc["model"] = "opus"
    settings.write_text(json.dumps(doc))
    assert setup(repo, "claude", "--uninstall").returncode == 0
    assert load(settings) == {"model": "opus"}
    assert not (repo / ".mcp.json").exists()


def test_crlf_files_come_back_byte_for_byte(repo: Path) -> None:
    original = (FIXTURES / "claude-settings.json").read_bytes().replace(b"\n", b"\r\n")
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_bytes(original)
    assert setup(repo, "claude").returncode == 0
    assert setup(repo, "claude", "--uninstall").returncode == 0
    assert (repo / ".claude" / "settings.json").read_bytes() == original


def test_the_written_hook_commands_run_and_answer(repo: Path, tmp_path: Path) -> None:
    """The commands setup wrote, run as the client runs them (through the shell)."""
    from synapse_git.service import Synapse

    svc = Synapse()
    svc.remember("Integration tests need `make db-up` first.", svc.scope(repo))
    assert setup(repo, "claude").returncode == 0
    hooks = load(repo / ".claude" / "settings.json")["hooks"]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    start = hooks["SessionStart"][0]["hooks"][0]["command"]
    out = subprocess.run(
        start, shell=True, cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert "make db-up" in json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    prompt = hooks[PROMPT_EVENT][0]["hooks"][0]["command"]
    event = {"session_id": "x", "cwd": str(repo), "hook_event_name": PROMPT_EVENT}
    event["prompt"] = "how do I run the integration tests?"
    out = subprocess.run(
        prompt,
        shell=True,
        cwd=tmp_path,
        env=env,
        input=json.dumps(event),
        capture_output=True,
        text=True,
        check=False,
    )
    assert "make db-up" in json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert setup(repo, "cursor").returncode == 0
    cursor = load(repo / ".cursor" / "hooks.json")["hooks"]["sessionStart"][0]["command"]
    out = subprocess.run(
        cursor, shell=True, cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert "make db-up" in json.loads(out.stdout)["additional_context"]


def test_status_shows_what_is_wired_here(repo: Path) -> None:
    assert setup(repo, "claude").returncode == 0
    assert setup(repo, "cursor").returncode == 0
    status = json.loads(run_cli("status", "--json", cwd=repo).stdout)
    wired = {(a["client"], a["scope"], Path(a["file"]).name): a["wired"] for a in status["agents"]}
    assert wired[("claude", "project", ".mcp.json")] == ["mcp"]
    assert wired[("claude", "project", "settings.json")] == ["SessionStart", PROMPT_EVENT]
    assert wired[("cursor", "project", "hooks.json")] == ["sessionStart"]
    assert not any(client == "codex" for client, _, _ in wired)
    text = run_cli("status", cwd=repo).stdout
    assert "agent     claude (project): SessionStart, UserPromptSubmit in" in text


def test_the_first_hints_name_setup(repo: Path) -> None:
    """demo and status point a new user at `synapse setup`, not at `mcp config --write`,
    which puts this machine's paths into the file a team commits."""
    text = run_cli("status", cwd=repo).stdout
    assert "mcp       no client file here\n" in text
    assert "agent     none wired here: `synapse setup claude|codex|cursor`" in text
    demo = run_cli("demo", cwd=repo)
    assert demo.returncode == 0, demo.stderr
    assert "`synapse setup claude|codex|cursor` for an agent" in demo.stdout
    assert "mcp config" not in text + demo.stdout


# -- the clients' own command lines, where installed (they run without network) ---------


def _client_cli(name: str) -> str | None:
    extra = os.environ.get("SYNAPSE_TEST_CLIENT_BIN")
    if extra and (Path(extra) / name).exists():
        return str(Path(extra) / name)
    return shutil.which(name)


@pytest.mark.skipif(_client_cli("claude") is None, reason="the claude CLI is not installed")
def test_claude_mcp_list_sees_the_servers_setup_wrote(repo: Path, home: Path) -> None:
    claude = _client_cli("claude")
    assert claude is not None
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    assert setup(repo, "claude", "--scope", "local").returncode == 0
    done = subprocess.run(
        [claude, "mcp", "list"], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )
    assert "synapse:" in done.stdout and "Connected" in done.stdout, done.stdout + done.stderr


@pytest.mark.skipif(_client_cli("codex") is None, reason="the codex CLI is not installed")
def test_codex_mcp_list_sees_the_server_setup_wrote(repo: Path, home: Path) -> None:
    codex = _client_cli("codex")
    assert codex is not None
    assert setup(repo, "codex", "--scope", "user").returncode == 0
    done = subprocess.run(
        [codex, "mcp", "get", "synapse"],
        cwd=repo,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "args: mcp" in done.stdout and "enabled: true" in done.stdout


def test_the_hand_copy_example_is_what_setup_writes(repo: Path) -> None:
    assert setup(repo, "claude").returncode == 0
    example = FIXTURES.parents[2] / "hooks" / "agents" / "claude-settings.json"
    assert load(example) == load(repo / ".claude" / "settings.json")


def test_a_linked_settings_file_is_written_where_it_points(repo: Path, tmp_path: Path) -> None:
    kept = tmp_path / "dotfiles" / "settings.json"
    kept.parent.mkdir()
    kept.write_bytes((FIXTURES / "claude-settings.json").read_bytes())
    original = kept.read_bytes()
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").symlink_to(kept)
    assert setup(repo, "claude").returncode == 0
    assert (repo / ".claude" / "settings.json").is_symlink()
    assert "hook prompt" in kept.read_text()
    assert setup(repo, "claude", "--uninstall").returncode == 0
    assert (repo / ".claude" / "settings.json").is_symlink()
    assert kept.read_bytes() == original


def test_setup_points_at_the_clients_own_memory_file(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Run `make test` first\n")
    done = setup(repo, "claude")
    assert "synapse memory import --from claude-md CLAUDE.md" in done.stdout
    assert (repo / "CLAUDE.md").read_text() == "- Run `make test` first\n"


def test_project_setup_says_when_the_bare_command_is_not_this_synapse(repo: Path) -> None:
    here = str(Path(sys.executable).parent)
    found = run_cli("setup", "claude", "--dry-run", cwd=repo, env={"PATH": f"{here}:/usr/bin:/bin"})
    assert found.returncode == 0 and "from PATH" not in found.stdout
    lost = run_cli("setup", "claude", "--dry-run", cwd=repo, env={"PATH": "/usr/bin:/bin"})
    assert lost.returncode == 0 and "run `synapse` from PATH" in lost.stdout


def test_mcp_config_write_warns_that_the_shared_file_names_personal_paths(repo: Path) -> None:
    done = run_cli("mcp", "config", "claude", "--write", cwd=repo)
    assert done.returncode == 0
    assert "synapse setup claude --scope local" in done.stderr


def test_an_unwritable_record_stops_setup_before_any_file_changes(
    repo: Path, isolated_store: Path
) -> None:
    (isolated_store / "setup.json").mkdir()  # cannot be replaced by a file
    done = setup(repo, "claude")
    assert done.returncode == 2 and "cannot record" in done.stderr
    assert folders(repo) == [] and not (repo / ".mcp.json").exists()


def _reformatted(path: Path, **extra: Any) -> None:
    """The file edited as a person or their editor does: laid out anew, keys added."""
    path.write_text(json.dumps({**load(path), **extra}, indent=4) + "\n")


def test_uninstall_removes_a_file_setup_made_that_holds_nothing_of_anyones(repo: Path) -> None:
    # Edited since setup wrote them, so they are not simply restored: what setup brought
    # in goes, and files it made that hold nothing else go with their folder.
    assert setup(repo, "cursor").returncode == 0
    for name in ("hooks.json", "mcp.json"):
        _reformatted(repo / ".cursor" / name)
    gone = setup(repo, "cursor", "--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert gone.stdout.count("removed") == 2
    assert not (repo / ".cursor").exists()


@pytest.mark.parametrize(
    "before",
    [
        {"version": 1},
        {"hooks": {"afterFileEdit": [{"command": "fmt"}]}},
        {"version": 1, "hooks": {}},
    ],
)
def test_uninstall_after_an_edit_takes_out_what_setup_brought_into_a_cursor_file(
    repo: Path, before: dict[str, Any]
) -> None:
    hooks = repo / ".cursor" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps(before))
    assert setup(repo, "cursor").returncode == 0
    _reformatted(hooks)
    assert setup(repo, "cursor", "--uninstall").returncode == 0
    # The user's own keys stay, an empty `hooks` too; `version` and a `hooks` emptied of
    # ours, where setup added them, go.
    assert load(hooks) == before


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)


def test_claude_local_settings_are_kept_out_of_git_in_info_exclude(repo: Path) -> None:
    # The file holds this machine's paths and store: `git add -A` must not take it.
    done = setup(repo, "claude", "--scope", "local")
    assert done.returncode == 0, done.stderr
    assert "git leaves .claude/settings.local.json out now" in done.stdout
    assert _git(repo, "status", "--porcelain").stdout == ""
    exclude = repo / ".git" / "info" / "exclude"
    assert exclude.read_text().splitlines().count("/.claude/settings.local.json") == 1
    # Ignored now: a second run adds no second line, and says nothing of it.
    again = setup(repo, "claude", "--scope", "local")
    assert "git leaves" not in again.stdout
    assert exclude.read_text().splitlines().count("/.claude/settings.local.json") == 1


def test_claude_local_settings_ignored_or_tracked_already_leave_exclude_alone(
    repo: Path,
) -> None:
    exclude = repo / ".git" / "info" / "exclude"
    (repo / ".gitignore").write_text(".claude/\n")
    before = exclude.read_bytes() if exclude.exists() else None
    assert setup(repo, "claude", "--scope", "local").returncode == 0
    assert (exclude.read_bytes() if exclude.exists() else None) == before


def test_an_exclude_file_that_is_a_link_is_not_written_through(repo: Path, tmp_path: Path) -> None:
    exclude = repo / ".git" / "info" / "exclude"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("# not the repository's\n")
    exclude.parent.mkdir(exist_ok=True)
    exclude.unlink(missing_ok=True)
    exclude.symlink_to(elsewhere)
    done = setup(repo, "claude", "--scope", "local")
    assert done.returncode == 0, done.stderr
    assert elsewhere.read_text() == "# not the repository's\n"
    assert "git leaves" not in done.stdout
