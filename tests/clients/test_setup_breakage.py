"""`synapse setup` on client files as a user's machine leaves them: read-only, in a
folder it cannot write, with a byte order mark, with comments, in a linked worktree.
Each ends in a correct merged file or one line that changes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from support import run_cli


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("CODEX_HOME", str(folder / ".codex"))
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    """Every file and folder below `folder` but git's own, with each file's bytes."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if ".git" not in path.relative_to(folder).parts:
            found[name] = path.read_bytes() if path.is_file() else b"<folder>"
    return found


def setup(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("setup", *args, cwd=repo)


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr


def test_a_file_that_cannot_be_written_stops_setup_before_any_file_changes(
    repo: Path, isolated_store: Path
) -> None:
    # The settings file's new text cannot be written beside it (a folder holds its
    # place), so .mcp.json, planned first, must not be written either.
    (repo / ".claude" / ".settings.json.synapse-new").mkdir(parents=True)
    before = tree(repo)
    done = setup(repo, "claude")
    refused(done, "cannot write", "settings.json", "nothing was written")
    assert tree(repo) == before
    assert not (isolated_store / "setup.json").exists()


def test_a_read_only_file_is_refused_not_replaced(repo: Path) -> None:
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n')
    settings.chmod(0o444)
    before = tree(repo)
    done = setup(repo, "claude")
    refused(done, "read-only", str(settings))
    assert tree(repo) == before and settings.stat().st_mode & 0o777 == 0o444
    settings.chmod(0o644)
    assert setup(repo, "claude").returncode == 0


def test_claude_local_scope_in_a_linked_worktree_is_kept_under_the_main_worktree(
    repo: Path, home: Path, tmp_path: Path
) -> None:
    # Claude Code reads a linked worktree's local servers from its main worktree's entry.
    linked = tmp_path / "linked tree"
    subprocess.run(["git", "worktree", "add", "-q", "--detach", str(linked)], cwd=repo, check=True)
    done = setup(linked, "claude", "--scope", "local")
    assert done.returncode == 0, done.stderr
    projects = json.loads((home / ".claude.json").read_text())["projects"]
    assert list(projects) == [str(repo.resolve())]
    assert "synapse" in projects[str(repo.resolve())]["mcpServers"]
    assert (linked / ".claude" / "settings.local.json").is_file()
    assert not (repo / ".claude").exists()
    status = json.loads(run_cli("status", "--json", cwd=linked).stdout)
    assert {a["client"] for a in status["agents"] if a["scope"] == "local"} == {"claude"}
    assert len([a for a in status["agents"] if a["scope"] == "local"]) == 2
    assert setup(linked, "claude", "--scope", "local", "--uninstall").returncode == 0
    assert tree(home) == {} and not (linked / ".claude").exists()
    claude = _client_cli("claude")
    if claude is None:
        return  # the client's own view, where it is installed (tests/clients/test_agent_setup.py)
    assert setup(linked, "claude", "--scope", "local").returncode == 0
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    listed = subprocess.run(
        [claude, "mcp", "list"], cwd=linked, env=env, capture_output=True, text=True, timeout=120
    )
    assert "synapse:" in listed.stdout and "Connected" in listed.stdout, listed.stdout


def _client_cli(name: str) -> str | None:
    extra = os.environ.get("SYNAPSE_TEST_CLIENT_BIN")
    found = Path(extra) / name if extra else None
    return str(found) if found is not None and found.exists() else shutil.which(name)


BOM = "\ufeff".encode()


@pytest.mark.parametrize(
    ("client", "name", "text"),
    [
        ("claude", ".claude/settings.json", '{\r\n  "model": "opus"\r\n}\r\n'),
        ("cursor", ".cursor/mcp.json", '{"mcpServers": {"other": {"command": "o"}}}'),
        ("codex", ".codex/config.toml", '# kept\r\nm = "x"\r\n[mcp_servers.o]\r\nargs = []\r\n'),
    ],
)
def test_a_byte_order_mark_and_crlf_line_ends_are_kept(
    repo: Path, client: str, name: str, text: str
) -> None:
    # Windows editors write both; Claude Code and Codex read such files (a BOM is skipped).
    original = BOM + text.encode()
    (repo / name).parent.mkdir(parents=True)
    (repo / name).write_bytes(original)
    done = setup(repo, client)
    assert done.returncode == 0, done.stderr
    written = (repo / name).read_bytes()
    assert written.startswith(BOM) and b"synapse" in written
    if b"\r\n" in original:
        assert written.count(b"\n") == written.count(b"\r\n")
    body = written[len(BOM) :].decode()
    doc = tomllib.loads(body) if name.endswith(".toml") else json.loads(body)
    servers = doc.get("mcp_servers") or doc.get("mcpServers")
    assert servers is None or "o" in servers or "other" in servers
    assert "unchanged" in setup(repo, client).stdout
    assert (repo / name).read_bytes() == written
    status = json.loads(run_cli("status", "--json", cwd=repo).stdout)
    assert all(found["server"] for found in status["mcp_clients"])
    assert setup(repo, client, "--uninstall").returncode == 0
    assert (repo / name).read_bytes() == original


def test_codex_project_setup_says_how_codex_comes_to_read_it(repo: Path, home: Path) -> None:
    # Codex ignores a project's .codex/ until the project is trusted in its own config.
    done = setup(repo, "codex")
    assert done.returncode == 0, done.stderr
    (note,) = [line for line in done.stdout.splitlines() if "only in a project it trusts" in line]
    table = note.split("or add ")[1].split(" to ")[0]
    assert str(home / ".codex" / "config.toml") in note
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(table.replace("] ", "]\n") + "\n")
    assert "only in a project it trusts" not in setup(repo, "codex").stdout
    codex = _client_cli("codex")
    if codex is not None:
        shown = subprocess.run(
            [codex, "mcp", "get", "synapse"], cwd=repo, capture_output=True, text=True, timeout=120
        )
        assert shown.returncode == 0 and "args: mcp" in shown.stdout, shown.stderr


def test_a_file_with_comments_is_refused_saying_so(repo: Path) -> None:
    # Cursor reads comments and trailing commas in its JSON; rewriting would drop them.
    jsonc = '{\n  // mine\n  "mcpServers": {"o": {"url": "https://x/*y*/"},},\n  /* end */\n}\n'
    (repo / ".cursor").mkdir()
    (repo / ".cursor" / "mcp.json").write_text(jsonc)
    before = tree(repo)
    refused(setup(repo, "cursor"), "comments or trailing commas", "by hand")
    assert tree(repo) == before
    (repo / ".cursor" / "mcp.json").write_text('{"mcpServers": {"o": {"url": "// not one"}}')
    refused(setup(repo, "cursor"), "not valid JSON")


@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_personal_files_setup_creates_are_private_and_others_keep_their_mode(
    repo: Path, home: Path, client: str
) -> None:
    # Claude Code makes ~/.claude.json 0600 and keeps the mode of one it finds, then
    # writes account details into it: a file setup makes there must not be world-readable.
    kept = {".claude": home / ".claude", ".codex": home / ".codex", ".cursor": home / ".cursor"}
    kept[f".{client}"].mkdir()
    mine = kept[f".{client}"] / ("config.toml" if client == "codex" else "settings.json")
    mine.write_text("" if client == "codex" else "{}")
    mine.chmod(0o664)
    assert setup(repo, client, "--scope", "user").returncode == 0
    made = [path for path in home.rglob("*") if path.is_file() and path != mine]
    assert made and all(path.stat().st_mode & 0o777 == 0o600 for path in made), made
    if client != "cursor":  # cursor's user files are mcp.json and hooks.json
        assert mine.stat().st_mode & 0o777 == 0o664 and "synapse" in mine.read_text()
    # Project files are the team's, made as any file is (the umask decides).
    assert setup(repo, client).returncode == 0
    mask = os.umask(0o022)
    os.umask(mask)
    shared = [p for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts]
    assert shared and all(p.stat().st_mode & 0o777 == 0o666 & ~mask for p in shared)


def test_the_record_of_replaced_files_is_private(
    repo: Path, home: Path, isolated_store: Path
) -> None:
    # It keeps what each file held, ~/.claude.json (0600, account details) included.
    (home / ".claude.json").write_text('{"oauthAccount": {"emailAddress": "me@example.com"}}')
    (home / ".claude.json").chmod(0o600)
    assert setup(repo, "claude", "--scope", "user").returncode == 0
    record = isolated_store / "setup.json"
    assert "me@example.com" in record.read_text()
    assert record.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    "text",
    [
        'mcp_servers.synapse.command = "x"\n',
        '[mcp_servers]\nsynapse = { command = "x", args = [] }\nother = { command = "o" }\n',
    ],
)
def test_a_codex_entry_in_another_form_is_refused_as_such_not_as_bad_toml(
    repo: Path, text: str
) -> None:
    # The file is valid TOML; what setup cannot do is edit the entry's form.
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_text(text)
    before = tree(repo)
    for args in ((), ("--uninstall",)):
        refused(setup(repo, "codex", *args), "cannot be edited safely")
        assert tree(repo) == before
    written = run_cli("mcp", "config", "codex", "--write", cwd=repo)
    refused(written, "cannot be merged safely")
    assert "not valid TOML" not in written.stderr and tree(repo) == before


@pytest.mark.parametrize("client", ["claude", "codex", "cursor"])
def test_uninstall_after_an_edit_and_a_second_setup_leaves_nothing_wired(
    repo: Path, client: str
) -> None:
    # The second setup finds a text that already runs Synapse: uninstall must not put
    # that text back, only take Synapse's entries out of what is there.
    assert setup(repo, client).returncode == 0
    named = ".claude/settings.json" if client == "claude" else f".{client}/hooks.json"
    hooks = repo / named
    doc = json.loads(hooks.read_text())
    doc["mine"] = True
    text = json.dumps(doc).replace("--format", "--budget lean --format")
    hooks.write_text(text)
    assert "updated" in setup(repo, client).stdout
    assert setup(repo, client, "--uninstall").returncode == 0
    left = json.loads(hooks.read_text())
    assert left["mine"] is True and "synapse" not in json.dumps(left)
    status = json.loads(run_cli("status", "--json", cwd=repo).stdout)
    assert status["agents"] == []


def test_uninstalling_one_setup_keeps_another_that_shares_the_file(
    repo_factory: Callable[..., Path], home: Path
) -> None:
    # ~/.claude.json holds the user scope's server and each project's local one.
    first, second = repo_factory("first"), repo_factory("second")
    user_file = home / ".claude.json"
    user_file.write_text('{"numStartups": 3}\n')
    assert setup(first, "claude", "--scope", "user").returncode == 0
    assert setup(first, "claude", "--scope", "local").returncode == 0
    assert setup(second, "claude", "--scope", "local").returncode == 0
    assert setup(first, "claude", "--scope", "local", "--uninstall").returncode == 0
    doc = json.loads(user_file.read_text())
    assert "synapse" in doc["mcpServers"]
    assert "synapse" in doc["projects"][str(second.resolve())]["mcpServers"]
    assert "synapse" not in doc["projects"].get(str(first.resolve()), {}).get("mcpServers", {})
    assert setup(second, "claude", "--scope", "local", "--uninstall").returncode == 0
    assert setup(first, "claude", "--scope", "user", "--uninstall").returncode == 0
    doc = json.loads(user_file.read_text())
    assert doc["numStartups"] == 3 and "synapse" not in json.dumps(doc)


def test_pinned_hooks_in_odd_paths_run_through_the_shell_and_never_fail_a_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands local and user scope write, with the store and the repository in
    folders named with spaces, quotes and non-ASCII, fired as the client fires them."""
    from support import make_repo

    from synapse_git.service import Synapse

    odd = tmp_path / 'it\'s a "dir" ü'
    repo = make_repo(odd / "the repo")
    store = odd / "the store"
    monkeypatch.setenv("SYNAPSE_DATA", str(store))
    Synapse().remember("Integration tests need `make db-up` first.", Synapse().scope(repo))
    assert setup(repo, "claude", "--scope", "local").returncode == 0
    assert setup(repo, "codex", "--scope", "user").returncode == 0
    claude = json.loads((repo / ".claude" / "settings.local.json").read_text())["hooks"]
    codex = json.loads((odd.parent / "home" / ".codex" / "hooks.json").read_text())["hooks"]
    env = {k: v for k, v in os.environ.items() if k != "SYNAPSE_DATA"}  # the pin decides
    for client, hooks in (("claude", claude), ("codex", codex)):
        start = hooks["SessionStart"][0]["hooks"][0]["command"]
        out = subprocess.run(start, shell=True, cwd=repo, env=env, capture_output=True, text=True)
        said = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "make db-up" in said, out.stderr
        prompt = hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
        asked = {"session_id": client, "cwd": str(repo), "prompt": "integration tests?"}
        hostile = [
            json.dumps(asked).encode(),
            json.dumps({**asked, "prompt": "\x00\x1b[2J\u202e" * 5000}).encode(),
            b'{"cwd": %s, "prompt": "\xff\xfe integration"}' % json.dumps(str(repo)).encode(),
            b"\xff" * (2 * 1024 * 1024),
        ]
        for number, stdin in enumerate(hostile):
            out = subprocess.run(
                prompt, shell=True, cwd=tmp_path, env=env, input=stdin, capture_output=True
            )
            assert out.returncode == 0 and b"Traceback" not in out.stderr
            assert len(out.stderr.splitlines()) <= 1
            if number == 0:
                assert b"make db-up" in out.stdout
            if out.stdout:
                json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_fifo_in_place_of_a_client_file_is_refused_not_waited_on(repo: Path) -> None:
    # Opening a FIFO to read waits for a writer: setup and status would never return.
    os.mkfifo(repo / ".mcp.json")
    exe = str(Path(sys.executable).with_name("synapse"))
    for args in (["setup", "claude"], ["status"]):
        done = subprocess.run([exe, *args], cwd=repo, capture_output=True, text=True, timeout=60)
        if args[0] == "setup":
            refused(done, "not a regular file")
        else:
            assert done.returncode == 0, done.stderr
    assert not (repo / ".claude").exists()
