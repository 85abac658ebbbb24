"""A project's shared Claude Code hooks and the user's own, side by side: Claude Code runs
every hook of every settings file, so the shared ones (marked by project setup) stay
silent where the user's own answer the same event. The hooks are the command lines
setup wrote, run through the shell as Claude Code runs them, in a real repository,
with HOME, the default store and the pinned store all in temporary folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

PLUGIN = Path(__file__).resolve().parents[2] / "plugins" / "synapse"
NOTE = "Integration tests need `make db-up` first."
PROMPT = "how do I run the integration tests?"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


@pytest.fixture
def pinned(repo: Path) -> Path:
    """The store SYNAPSE_DATA names (the one local and user setup pin), holding NOTE."""
    from synapse_git.service import Synapse

    svc = Synapse()
    svc.remember(NOTE, svc.scope(repo))
    return Path(os.environ["SYNAPSE_DATA"])


def setup(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = run_cli("setup", "claude", *args, cwd=repo)
    assert done.returncode == 0, done.stderr
    return done


def hooks(path: Path) -> dict[str, str]:
    """The Synapse command of each event in the Claude Code settings at `path`."""
    found = json.loads(path.read_text())["hooks"]
    return {event: groups[0]["hooks"][0]["command"] for event, groups in found.items()}


def fire(command: str, repo: Path, event: str) -> str:
    """Run one hook command as Claude Code does: through the shell, in the project, with
    no SYNAPSE_DATA of its own (a bare command opens the default store), its JSON on
    stdin; what the agent is given."""
    env = {k: v for k, v in os.environ.items() if k != "SYNAPSE_DATA"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env["CLAUDE_PROJECT_DIR"] = str(repo)
    env["CLAUDE_PLUGIN_ROOT"] = str(PLUGIN)
    # A session of its own each time: a prompt hook tells a memory once per session.
    session = uuid.uuid4().hex
    payload: dict[str, Any] = {"session_id": session, "cwd": str(repo), "hook_event_name": event}
    if event == "UserPromptSubmit":
        payload["prompt"] = PROMPT
    else:
        payload["source"] = "startup"
    out = subprocess.run(
        command,
        shell=True,
        cwd=repo,
        env=env,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    if not out.stdout.strip():
        return ""
    return str(json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"])


def told(repo: Path, *files: Path) -> dict[str, list[str]]:
    """Per event, what every Synapse hook of `files` gave the agent (empty ones left out)."""
    given: dict[str, list[str]] = {}
    for path in files:
        if not path.exists():
            continue
        for event, command in hooks(path).items():
            text = fire(command, repo, event)
            if text:
                given.setdefault(event, []).append(text)
    return given


def test_project_and_local_setup_tell_the_agent_once_from_the_pinned_store(
    repo: Path, pinned: Path
) -> None:
    setup(repo)
    done = setup(repo, "--scope", "local")
    shared = repo / ".claude" / "settings.json"
    own = repo / ".claude" / "settings.local.json"
    assert all(c.startswith("SYNAPSE_SHARED_HOOK=claude ") for c in hooks(shared).values())
    assert all("SYNAPSE_SHARED_HOOK" not in c for c in hooks(own).values())
    assert "unmarked" not in done.stdout + done.stderr
    given = told(repo, shared, own)
    assert sorted(given) == ["SessionStart", "UserPromptSubmit"]
    for event, texts in given.items():
        assert len(texts) == 1, event
        assert "make db-up" in texts[0]


def test_a_users_own_hooks_in_the_home_settings_also_silence_the_shared_ones(
    repo: Path, pinned: Path, home: Path
) -> None:
    setup(repo)
    setup(repo, "--scope", "user")
    given = told(repo, repo / ".claude" / "settings.json", home / ".claude" / "settings.json")
    assert {event: len(texts) for event, texts in given.items()} == {
        "SessionStart": 1,
        "UserPromptSubmit": 1,
    }
    assert all("make db-up" in texts[0] for texts in given.values())


def test_the_shared_hooks_answer_alone(repo: Path, pinned: Path) -> None:
    """With no hooks of the user's own, the shared ones speak, from the default store."""
    from synapse_git.service import Synapse

    setup(repo)
    env_store = os.environ.pop("SYNAPSE_DATA")
    try:
        svc = Synapse()  # the default store: XDG_DATA_HOME is a temporary folder
        svc.remember("Integration tests need `make ship` first.", svc.scope(repo))
    finally:
        os.environ["SYNAPSE_DATA"] = env_store
    for event, command in hooks(repo / ".claude" / "settings.json").items():
        assert "make ship" in fire(command, repo, event)


@pytest.mark.parametrize(
    "own",
    [
        "/nowhere/bin/synapse hook session --format claude",  # a program no longer there
        "SYNAPSE_SHARED_HOOK=claude synapse hook session --format claude",  # shared, copied
        "synapse hook prompt --format claude",  # another event's hook
        "echo synapse hook session",  # not Synapse's
    ],
)
def test_a_hook_of_the_users_that_cannot_answer_leaves_the_shared_one_speaking(
    repo: Path, pinned: Path, own: str
) -> None:
    setup(repo)
    local = repo / ".claude" / "settings.local.json"
    group = {"matcher": "startup", "hooks": [{"type": "command", "command": own}]}
    local.write_text(json.dumps({"hooks": {"SessionStart": [group]}}))
    start = hooks(repo / ".claude" / "settings.json")["SessionStart"]
    # Pointed at the pinned store, the shared hook has something to say.
    assert "make db-up" in fire(f"SYNAPSE_DATA={pinned} {start}", repo, "SessionStart")


@pytest.mark.parametrize("text", ["{not json", '{"hooks": []}', '["x"]', ""])
def test_unreadable_own_settings_leave_the_shared_hook_speaking(
    repo: Path, pinned: Path, text: str
) -> None:
    setup(repo)
    (repo / ".claude" / "settings.local.json").write_text(text)
    start = hooks(repo / ".claude" / "settings.json")["SessionStart"]
    assert "make db-up" in fire(f"SYNAPSE_DATA={pinned} {start}", repo, "SessionStart")


def unmarked_project_hooks(repo: Path) -> Path:
    """The project's settings as a setup before the mark wrote them."""
    shared = repo / ".claude" / "settings.json"
    shared.parent.mkdir()
    old = {"type": "command", "command": "synapse hook session --format claude", "timeout": 10}
    shared.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [old]}]}}))
    return shared


def test_setup_says_when_the_project_hooks_are_unmarked_and_marks_them(
    repo: Path, pinned: Path
) -> None:
    shared = unmarked_project_hooks(repo)
    done = setup(repo, "--scope", "local")
    assert "unmarked" in done.stdout
    again = setup(repo)
    assert hooks(shared)["SessionStart"].startswith("SYNAPSE_SHARED_HOOK=claude ")
    assert "settings.local.json answer here" in again.stdout
    assert len(told(repo, shared, repo / ".claude" / "settings.local.json")["SessionStart"]) == 1


def enable_plugin(path: Path, on: bool) -> None:
    """Claude Code's enabledPlugins entry for the Synapse plugin, in the settings at `path`."""
    doc = json.loads(path.read_text()) if path.exists() else {}
    doc.setdefault("enabledPlugins", {})["synapse@synapse"] = on
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))


def test_the_plugin_and_a_project_setup_tell_the_agent_once(repo: Path, home: Path) -> None:
    """The plugin's hooks and the project's run the same bare `synapse`: the project's
    give way to the plugin's where the plugin is on."""
    from synapse_git.service import Synapse

    setup(repo)
    env_store = os.environ.pop("SYNAPSE_DATA")
    try:
        svc = Synapse()  # the default store, which both bare commands open
        svc.remember(NOTE, svc.scope(repo))
    finally:
        os.environ["SYNAPSE_DATA"] = env_store
    plugin_hooks = PLUGIN / "hooks" / "hooks.json"
    shared = repo / ".claude" / "settings.json"
    enable_plugin(home / ".claude" / "settings.json", True)
    given = told(repo, shared, plugin_hooks)
    assert {event: len(texts) for event, texts in given.items()} == {
        "SessionStart": 1,
        "UserPromptSubmit": 1,
    }
    # Turned off for this project in the local settings: the plugin's hooks do not run
    # there, and the project's speak again.
    enable_plugin(repo / ".claude" / "settings.local.json", False)
    given = told(repo, shared)
    assert {event: len(texts) for event, texts in given.items()} == {
        "SessionStart": 1,
        "UserPromptSubmit": 1,
    }


def test_the_plugin_and_the_project_give_way_to_a_local_setup(
    repo: Path, pinned: Path, home: Path
) -> None:
    setup(repo)
    setup(repo, "--scope", "local")
    enable_plugin(home / ".claude" / "settings.json", True)
    files = (
        repo / ".claude" / "settings.json",
        repo / ".claude" / "settings.local.json",
        PLUGIN / "hooks" / "hooks.json",
    )
    given = told(repo, *files)
    assert {event: len(texts) for event, texts in given.items()} == {
        "SessionStart": 1,
        "UserPromptSubmit": 1,
    }
    assert all("make db-up" in texts[0] for texts in given.values())


def cursor_told(repo: Path, *files: Path) -> list[str]:
    """What every Synapse session-start hook of the Cursor hook files gave the agent."""
    given = []
    env = {k: v for k, v in os.environ.items() if k != "SYNAPSE_DATA"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    for path in files:
        for entry in json.loads(path.read_text())["hooks"]["sessionStart"]:
            out = subprocess.run(
                entry["command"],
                shell=True,
                cwd=repo,
                env=env,
                input=json.dumps({"workspace_roots": [str(repo)]}),
                capture_output=True,
                text=True,
                check=False,
                timeout=60,
            )
            assert out.returncode == 0, out.stderr
            if out.stdout.strip():
                given.append(str(json.loads(out.stdout)["additional_context"]))
    return given


def test_cursor_project_and_user_setup_tell_the_agent_once(
    repo: Path, pinned: Path, home: Path
) -> None:
    assert run_cli("setup", "cursor", cwd=repo).returncode == 0
    shared = repo / ".cursor" / "hooks.json"
    (alone,) = cursor_told(repo, shared)  # the default store: nothing remembered there
    assert "make db-up" not in alone
    assert run_cli("setup", "cursor", "--scope", "user", cwd=repo).returncode == 0
    (given,) = cursor_told(repo, shared, home / ".cursor" / "hooks.json")
    assert "make db-up" in given


def test_status_says_what_the_project_hooks_do_beside_the_users_own(
    repo: Path, pinned: Path
) -> None:
    shared = unmarked_project_hooks(repo)
    setup(repo, "--scope", "local")

    def beside() -> str | None:
        done = run_cli("status", "--json", cwd=repo)
        assert done.returncode == 0, done.stderr
        (found,) = [
            a
            for a in json.loads(done.stdout)["agents"]
            if a["scope"] == "project" and a["file"] == str(shared)
        ]
        return found["beside"]

    assert "told twice" in (beside() or "")
    setup(repo)
    assert "silent for you" in (beside() or "")
    assert "silent for you" in run_cli("status", cwd=repo).stdout


SHELL_COMMENT = "echo ready # don't forget"  # shell reads it; shlex finds a quote unclosed


def test_a_hook_shlex_cannot_read_beside_the_users_own_leaves_it_answering(
    repo: Path, pinned: Path, home: Path
) -> None:
    setup(repo)
    setup(repo, "--scope", "user")
    own = home / ".claude" / "settings.json"
    doc = json.loads(own.read_text())
    doc["hooks"]["SessionStart"][0]["hooks"].insert(
        0, {"type": "command", "command": SHELL_COMMENT}
    )
    own.write_text(json.dumps(doc))
    start = hooks(repo / ".claude" / "settings.json")["SessionStart"]
    assert fire(f"SYNAPSE_DATA={pinned} {start}", repo, "SessionStart") == ""


def test_status_reads_a_cursor_hook_shlex_cannot_read(repo: Path, pinned: Path, home: Path) -> None:
    assert run_cli("setup", "cursor", cwd=repo).returncode == 0
    assert run_cli("setup", "cursor", "--scope", "user", cwd=repo).returncode == 0
    own = home / ".cursor" / "hooks.json"
    doc = json.loads(own.read_text())
    doc["hooks"]["sessionStart"].insert(0, {"command": SHELL_COMMENT})
    own.write_text(json.dumps(doc))
    done = run_cli("status", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "silent for you" in done.stdout


def test_a_hook_command_far_longer_than_synapses_is_not_the_users_own(
    repo: Path, pinned: Path
) -> None:
    """A committed settings.local.json whose one word fills most of a mebibyte: shlex
    would take seconds over it on every prompt, past the hook's timeout."""
    setup(repo)
    own = "synapse hook session --format claude --budget " + "9" * 900_000
    group = {"matcher": "startup", "hooks": [{"type": "command", "command": own}]}
    (repo / ".claude" / "settings.local.json").write_text(
        json.dumps({"hooks": {"SessionStart": [group]}})
    )
    start = hooks(repo / ".claude" / "settings.json")["SessionStart"]
    assert "make db-up" in fire(f"SYNAPSE_DATA={pinned} {start}", repo, "SessionStart")


def test_a_users_own_session_hook_for_fewer_starts_leaves_the_shared_one_speaking(
    repo: Path, pinned: Path
) -> None:
    """Own hooks run at startup only: on resume, clear and compact no hook of theirs
    runs, so the shared one, which runs then too, is not silent for them."""
    setup(repo)
    setup(repo, "--scope", "local")
    local = repo / ".claude" / "settings.local.json"
    doc = json.loads(local.read_text())
    doc["hooks"]["SessionStart"][0]["matcher"] = "startup"
    local.write_text(json.dumps(doc))
    start = hooks(repo / ".claude" / "settings.json")["SessionStart"]
    assert "make db-up" in fire(f"SYNAPSE_DATA={pinned} {start}", repo, "SessionStart")


def test_a_plugin_the_project_alone_turns_on_leaves_the_shared_hooks_speaking(
    repo: Path, pinned: Path
) -> None:
    """The team's settings name the plugin, but a teammate who never installed it has
    no plugin hooks to run: the project's must answer for them."""
    setup(repo)
    shared = repo / ".claude" / "settings.json"
    enable_plugin(shared, True)
    start = hooks(shared)["SessionStart"]
    assert "make db-up" in fire(f"SYNAPSE_DATA={pinned} {start}", repo, "SessionStart")
