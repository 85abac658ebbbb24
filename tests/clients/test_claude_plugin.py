"""The Claude Code plugin in the repository: its marketplace entry, manifest, hooks and
MCP configuration have the documented shape, and the commands they name run."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKETPLACE = ROOT / ".claude-plugin" / "marketplace.json"


def plugin_root() -> Path:
    entry = json.loads(MARKETPLACE.read_text())["plugins"][0]
    return (ROOT / entry["source"]).resolve()


def test_the_marketplace_lists_the_synapse_plugin() -> None:
    market = json.loads(MARKETPLACE.read_text())
    assert isinstance(market["name"], str) and market["name"]
    assert isinstance(market["owner"]["name"], str)
    (entry,) = market["plugins"]
    assert entry["name"] == "synapse"
    assert entry["source"].startswith("./")
    assert plugin_root().is_relative_to(ROOT)


def test_the_manifest_and_its_parts_have_the_documented_shape() -> None:
    root = plugin_root()
    manifest = json.loads((root / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "synapse"
    # Only the manifest lives in .claude-plugin/; the parts sit at the plugin root.
    assert sorted(p.name for p in (root / ".claude-plugin").iterdir()) == ["plugin.json"]
    hooks = json.loads((root / "hooks" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit"}
    (start,) = hooks["SessionStart"]
    assert set(start["matcher"].split("|")) == {"startup", "resume", "clear", "compact"}
    (prompt,) = hooks["UserPromptSubmit"]
    assert "matcher" not in prompt
    for group in (start, prompt):
        (hook,) = group["hooks"]
        assert hook["type"] == "command" and isinstance(hook["timeout"], int)
        assert hook["command"].startswith(
            'SYNAPSE_SHARED_HOOK=claude-plugin "${CLAUDE_PLUGIN_ROOT}/'
        )
    server = json.loads((root / ".mcp.json").read_text())["mcpServers"]["synapse"]
    assert server["command"].startswith("${CLAUDE_PLUGIN_ROOT}/")
    assert server["args"] == ["mcp"]
    script = root / server["command"].removeprefix("${CLAUDE_PLUGIN_ROOT}/")
    assert script.stat().st_mode & stat.S_IXUSR
    tracked = subprocess.run(
        ["git", "ls-files", "-s", str(script.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    if tracked:  # committed executable, so a clone runs it
        assert tracked.startswith("100755")


def _run(command: str, path: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CLAUDE_PLUGIN_ROOT": str(plugin_root()), "PATH": path}
    return subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_hooks_run_synapse_and_never_stop_a_session_without_it(repo: Path) -> None:
    hooks = json.loads((plugin_root() / "hooks" / "hooks.json").read_text())["hooks"]
    start = hooks["SessionStart"][0]["hooks"][0]["command"]
    prompt = hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
    with_synapse = f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin"
    done = _run(start, with_synapse, repo)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    event = json.dumps({"prompt": "how do we deploy?", "cwd": str(repo), "session_id": "p"})
    assert _run(prompt, with_synapse, repo, event).returncode == 0
    for command in (start, prompt):
        missing = _run(command, "/nonexistent", repo)
        assert missing.returncode == 0 and missing.stdout == ""
        assert "synapse is not on PATH" in missing.stderr


CLAUDE = os.environ.get("SYNAPSE_TEST_CLIENT_BIN")


def _claude() -> str | None:
    if CLAUDE and (Path(CLAUDE) / "claude").exists():
        return str(Path(CLAUDE) / "claude")
    return shutil.which("claude")


@pytest.mark.skipif(_claude() is None, reason="the claude CLI is not installed")
def test_claude_validates_installs_and_connects_the_plugin(repo: Path, tmp_path: Path) -> None:
    claude = _claude()
    assert claude is not None
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }

    def run(*args: str) -> str:
        done = subprocess.run(
            [claude, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert "Validation passed" in run("plugin", "validate", str(ROOT))
    run("plugin", "marketplace", "add", str(ROOT))
    run("plugin", "install", "synapse@synapse")
    listed = run("mcp", "list")
    assert "plugin:synapse:synapse" in listed and "Connected" in listed
