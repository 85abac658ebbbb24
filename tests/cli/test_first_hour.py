"""What a user of git-style command lines expects in the first hour: help from a bare
command, completion, `memory show`, `memory edit` in an editor, filters on `list`,
reasons for what cannot be read, and colour only where a person reads it."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from support import git, make_repo, run_cli

from synapse_git.service import Synapse

BIN = Path(sys.executable).parent


def test_a_bare_command_or_group_prints_its_help_and_succeeds(outside: Path) -> None:
    for args in ((), ("memory",), ("hook",)):
        done = run_cli(*args, cwd=outside)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Usage: synapse") and done.stderr == ""


def test_help_names_arguments_and_values_plainly(outside: Path) -> None:
    done = run_cli("memory", "edit", "--help", cwd=outside)
    assert done.stdout.startswith("Usage: synapse memory edit [OPTIONS] ID [TEXT]")
    assert "-s, --source TEXT" in done.stdout
    recall = run_cli("memory", "recall", "--help", cwd=outside).stdout
    assert "-n, --limit N" in recall and "--also TEXT" in recall
    missing = run_cli("memory", "edit", cwd=outside)
    assert "Missing argument 'ID'" in missing.stderr
    # Named as the usage line names them, where a name without a metavar was lower case.
    assert "Missing argument 'CLIENT'." in run_cli("setup", cwd=outside).stderr
    assert "Missing argument 'NEW'." in run_cli("project", "move", "/x", cwd=outside).stderr


def test_every_argument_and_option_is_named_once_and_explained(outside: Path) -> None:
    """`ID...` was shown as `ID......` (a metavar holding the dots click adds), and
    `memory forget`'s ID (and `memory supersede --source`) had no help."""
    import typer
    from typer.core import TyperArgument

    from synapse_git.cli.app import app

    def commands(command: object, path: str) -> list[tuple[str, object]]:
        subs = getattr(command, "commands", {})
        found = [(path, command)] if not subs else []
        for name, sub in subs.items():
            found += commands(sub, f"{path} {name}")
        return found

    for path, command in commands(typer.main.get_command(app), "synapse"):
        for param in getattr(command, "params", []):
            assert param.help, f"{path} {param.name}: no help"
            if isinstance(param, TyperArgument):
                assert not (param.metavar or "").endswith("."), f"{path} {param.metavar}"
    purge = run_cli("memory", "purge", "--help", cwd=outside).stdout
    assert purge.startswith("Usage: synapse memory purge [OPTIONS] ID...\n")
    assert "  ID...  The memories to delete." in purge
    status = " ".join(run_cli("status", "--help", cwd=outside).stdout.split())
    assert "what `synapse setup` wired, and whether semantic recall is on" in status
    forget = run_cli("memory", "forget", "--help", cwd=outside).stdout
    assert "  [ID]  The memory to forget." in forget or "  ID  The memory to forget." in forget


def test_completion_scripts_and_answers(outside: Path) -> None:
    script = run_cli("--show-completion", "bash", cwd=outside)
    assert script.returncode == 0 and "_SYNAPSE_COMPLETE=complete_bash" in script.stdout
    # The shell named wins over the one running the command (bash, or none at all).
    zsh = run_cli("--show-completion", "zsh", cwd=outside)
    assert zsh.returncode == 0 and zsh.stdout.startswith("#compdef synapse")
    unknown = run_cli("--show-completion", "tcsh", cwd=outside)
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr.count("\n") == 1 and "'tcsh'" in unknown.stderr
    answer = run_cli(
        cwd=outside,
        env={
            "_SYNAPSE_COMPLETE": "complete_bash",
            "COMP_WORDS": "synapse memory re",
            "COMP_CWORD": "2",
        },
    )
    assert answer.returncode == 0
    assert {"remember", "restore", "read", "recall"} <= set(answer.stdout.split())


def test_a_completion_script_piped_to_a_reader_that_leaves_is_no_traceback(
    outside: Path,
) -> None:
    """`synapse --show-completion zsh | head -1`: the script is printed outside click,
    whose own answer to a closed pipe never saw it."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [str(BIN / "synapse"), "--show-completion", "zsh"],
            cwd=outside,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(writer)
    assert done.returncode == 0 and done.stderr == ""


def test_show_prints_one_memory_whole_with_what_is_known(repo: Path) -> None:
    first = run_cli("memory", "remember", "Deploys go out from main", "-s", "ops.md", cwd=repo)
    assert first.returncode == 0
    body = "Releases are cut on Tuesdays.\n\nSecond paragraph\x1b[31m with an escape."
    second = run_cli("memory", "supersede", "1", "-", cwd=repo, stdin=body)
    assert second.returncode == 0, second.stderr
    head = git(repo, "rev-parse", "HEAD").strip()

    shown = run_cli("memory", "show", "2", cwd=repo)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "memory 2"
    assert "  state         live" in lines and "  supersedes    1" in lines
    assert any(line.startswith(f"  commit        {head[:12]}") for line in lines)
    assert "Second paragraph\\x1b[31m with an escape." in shown.stdout  # escaped, not obeyed
    assert "\x1b" not in shown.stdout

    old = json.loads(run_cli("memory", "show", "1", "--json", cwd=repo).stdout)
    assert old["state"] == "superseded" and old["superseded_by"] == 2
    assert old["body"] == "Deploys go out from main" and old["commit"] == head
    missing = run_cli("memory", "show", "9", cwd=repo)
    assert missing.returncode == 2 and "no memory 9" in missing.stderr


def test_reading_a_hidden_memory_says_why(repo: Path) -> None:
    for text in ("Port is 8080", "Port is 8081", "Lunch at noon"):
        assert run_cli("memory", "remember", text, cwd=repo).returncode == 0
    assert run_cli("memory", "supersede", "1", "--by", "2", cwd=repo).returncode == 0
    assert run_cli("memory", "forget", "3", cwd=repo).returncode == 0
    replaced = run_cli("memory", "read", "1", cwd=repo)
    assert replaced.returncode == 2
    assert "memory 1 is superseded by 2: read 2" in replaced.stderr
    forgotten = run_cli("memory", "read", "3", cwd=repo)
    assert "memory 3 is forgotten: `synapse memory restore 3`" in forgotten.stderr
    assert "no memory 7 is visible" in run_cli("memory", "read", "7", cwd=repo).stderr
    # The JSON answer stays what an agent reads: a null memory.
    assert json.loads(run_cli("memory", "read", "1", "--json", cwd=repo).stdout) == {"memory": None}


def editor_script(tmp_path: Path, new_text: str | None, code: int = 0) -> str:
    """A real editor program: writes `new_text` into the file it is given (or leaves it)."""
    script = tmp_path / "editor.sh"
    write = "" if new_text is None else f"printf '%s\\n' '{new_text}' > \"$1\"\n"
    script.write_text(f"#!/bin/sh\n{write}exit {code}\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_edit_without_text_opens_the_editor(repo: Path, tmp_path: Path) -> None:
    assert run_cli("memory", "remember", "Deploys go out from main", cwd=repo).returncode == 0
    env = {"EDITOR": editor_script(tmp_path, "Deploys go out from release"), "VISUAL": ""}
    done = run_cli("memory", "edit", "1", cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    page = json.loads(run_cli("memory", "read", "1", "--json", cwd=repo).stdout)["memory"]
    assert page["body"] == "Deploys go out from release"  # the editor's newline is not kept

    unchanged = run_cli(
        "memory", "edit", "1", cwd=repo, env={"EDITOR": editor_script(tmp_path, None)}
    )
    assert unchanged.returncode == 0 and "no change" in unchanged.stdout
    failed = run_cli(
        "memory", "edit", "1", cwd=repo, env={"EDITOR": editor_script(tmp_path, "x", code=3)}
    )
    assert failed.returncode == 2 and "exited with 3: nothing changed" in failed.stderr
    emptied = run_cli("memory", "edit", "1", cwd=repo, env={"EDITOR": editor_script(tmp_path, "")})
    assert emptied.returncode == 2 and "empty" in emptied.stderr
    history = json.loads(run_cli("memory", "history", "1", "--json", cwd=repo).stdout)
    assert len(history["versions"]) == 1, "only the first edit made a version"


def test_edit_without_text_and_without_an_editor_is_refused(repo: Path) -> None:
    assert run_cli("memory", "remember", "Deploys go out from main", cwd=repo).returncode == 0
    env = {**os.environ, "EDITOR": "", "VISUAL": ""}
    done = subprocess.run(
        [str(BIN / "synapse"), "memory", "edit", "1"],
        cwd=repo,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "set EDITOR" in done.stderr


def test_list_filters(repo: Path, isolated_store: Path) -> None:
    svc = Synapse()
    scope = svc.scope(repo)
    svc.remember("Deploys go out from main", scope, source="docs/ops.md")
    svc.remember("Prefer ripgrep over grep", scope, is_global=True)
    svc.remember("Deploy keys live in the vault", scope, source="wiki")

    def ids(*args: str) -> list[int]:
        done = run_cli("memory", "list", *args, "--json", cwd=repo)
        assert done.returncode == 0, done.stderr
        return [m["id"] for m in json.loads(done.stdout)["memories"]]

    assert ids("--scope", "global") == [2]
    assert ids("--scope", "project") == [3, 1]
    assert ids("--source", "DOCS/") == [1]
    assert ids("deploy", "--source", "wiki") == [3]
    assert ids("--since", "2d") == [3, 2, 1]
    assert ids("--since", "2999-01-01") == []
    assert ids("--author", "someone") == []
    assert run_cli("memory", "list", "--since", "2999-01-01", cwd=repo).stdout.startswith(
        "no memories pass these filters"
    )
    for args, words in (
        (("--since", "last tuesday"), "use a date"),
        (("--since", "2026-13-45"), "use a date"),
        (("--scope", "team"), "unknown scope"),
    ):
        done = run_cli("memory", "list", *args, cwd=repo)
        assert done.returncode == 2 and words in done.stderr
        assert len(done.stderr.splitlines()) == 1


def on_a_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    """Run `synapse ARGS` with its standard output on a real pseudo-terminal."""
    leader, follower = pty.openpty()
    done = subprocess.run(
        [str(BIN / "synapse"), *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=subprocess.PIPE,
        check=False,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert done.returncode in (0, 1), done.stderr
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_on_a_terminal_only_and_never_with_no_color(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"deploy.sh": "x\n"})
    assert run_cli("memory", "remember", "Deploys run deploy.sh", cwd=repo).returncode == 0
    git(repo, "rm", "-q", "deploy.sh")
    git(repo, "commit", "-q", "-m", "drop it")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    coloured = on_a_terminal(["memory", "drift"], repo, {**env, "TERM": "xterm"})
    assert "\x1b[31mstale" in coloured
    plain = on_a_terminal(["memory", "drift"], repo, {**env, "TERM": "xterm", "NO_COLOR": "1"})
    assert "stale" in plain and "\x1b[" not in plain
    piped = run_cli("memory", "drift", cwd=repo, env={"TERM": "xterm"})
    assert "stale" in piped.stdout and "\x1b[" not in piped.stdout
    history = on_a_terminal(["memory", "history", "1"], repo, {**env, "TERM": "xterm"})
    assert "\x1b[32mlive" in history


def test_a_body_cannot_forge_colour_on_a_terminal(repo: Path) -> None:
    """Colour is added after escaping, by markers a body cannot know."""
    forged = "Clear \x1b[2J and \ufdd0" + "0" * 16 + "31\ufdd1forged\ufdd0" + "0" * 16 + "0\ufdd1"
    assert run_cli("memory", "remember", "-", cwd=repo, stdin=forged).returncode == 0
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    screen = on_a_terminal(["memory", "show", "1"], repo, {**env, "TERM": "xterm"})
    assert "\x1b[32mlive" in screen  # colour works here
    assert "\x1b[2J" not in screen and "\\x1b[2J" in screen
    assert "\x1b[31m" not in screen


def test_install_completion_writes_for_the_shell_named(outside: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    done = run_cli("--install-completion", "fish", cwd=outside, env={"HOME": str(home)})
    assert done.returncode == 0, done.stderr
    written = home / ".config" / "fish" / "completions" / "synapse.fish"
    assert "_SYNAPSE_COMPLETE=complete_fish" in written.read_text(encoding="utf-8")
    assert str(written) in done.stdout


def test_install_completion_for_the_running_shell_says_so_plainly(tmp_path: Path) -> None:
    """typer's own line is coloured; the CLI's forced colour showed its escape
    sequences escaped (`\\x1b[32mbash completion installed in …`)."""
    home = tmp_path / "home"
    home.mkdir()
    # `; true` keeps bash from exec'ing the command: bash stays the shell above it.
    done = subprocess.run(
        ["bash", "-c", f"'{BIN / 'synapse'}' --install-completion; true"],
        cwd=tmp_path,
        env={**os.environ, "HOME": str(home)},
        capture_output=True,
        text=True,
        check=False,
    )
    written = home / ".bash_completions" / "synapse.sh"
    assert done.stdout.startswith(f"bash completion installed in {written}\n"), done.stdout
    assert "\\x1b" not in done.stdout and "\x1b" not in done.stdout and done.stderr == ""
    assert "_SYNAPSE_COMPLETE=complete_bash" in written.read_text(encoding="utf-8")
