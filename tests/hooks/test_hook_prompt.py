"""`synapse hook prompt`: memory at the prompt, through the installed command with real
stores and real repositories."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support import git, run_cli

from synapse_git.service import Synapse


def seed(repo: Path, bodies: list[str]) -> list[int]:
    # Seeding only, in-process: the hook run afterwards is the real process.
    svc = Synapse()
    scope = svc.scope(repo)
    return [svc.remember(body, scope).id for body in bodies]


def event(repo: Path, prompt: str, session: str = "s-1") -> str:
    return json.dumps(
        {
            "session_id": session,
            "transcript_path": "/nonexistent/t.jsonl",
            "cwd": str(repo),
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }
    )


def context(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    text = out["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str)
    return text


FACTS = [
    "Integration tests need `make db-up` first; they use port 5433.",
    "Deploys go out with scripts/ship.sh, never on Fridays.",
    "The API timeout is 60 s, set in config/api.toml.",
]


def test_an_answered_prompt_gets_the_memory_that_answers_it(repo: Path) -> None:
    ids = seed(repo, FACTS)
    done = run_cli("hook", "prompt", stdin=event(repo, "how do I run the integration tests?"))
    text = context(done)
    assert f"[{ids[0]}]" in text and "make db-up" in text
    # What readmemory needs to read it whole: the id and the project key.
    assert json.dumps(str(repo.resolve())) in text and "readmemory" in text
    assert "ship.sh" not in text
    assert len(text) <= 1500
    assert done.stderr == ""


def test_an_unanswerable_prompt_injects_nothing(repo: Path) -> None:
    seed(repo, FACTS)
    for prompt in ("what is the capital of Mongolia?", "", "   ", "ok"):
        done = run_cli("hook", "prompt", stdin=event(repo, prompt))
        assert done.returncode == 0
        assert done.stdout == "", prompt
        assert done.stderr == ""


def test_a_repeat_in_the_same_session_is_not_injected_twice(
    repo: Path, isolated_store: Path
) -> None:
    ids = seed(repo, FACTS)
    ask = "when do deploys go out?"
    first = context(run_cli("hook", "prompt", stdin=event(repo, ask, "one")))
    assert f"[{ids[1]}]" in first
    again = run_cli("hook", "prompt", stdin=event(repo, ask, "one"))
    assert again.returncode == 0 and again.stdout == ""
    # Another session has not been given it yet.
    other = context(run_cli("hook", "prompt", stdin=event(repo, ask, "two")))
    assert f"[{ids[1]}]" in other
    remembered = json.loads((isolated_store / "prompt-given.json").read_text())
    assert len(remembered) == 2
    assert all(entry["ids"] == [ids[1]] for entry in remembered.values())


def test_a_broken_store_lets_the_prompt_through(repo: Path, isolated_store: Path) -> None:
    (isolated_store / "memory.db").write_bytes(b"this is not a database" * 100)
    done = run_cli("hook", "prompt", stdin=event(repo, "how do I run the integration tests?"))
    assert done.returncode == 0
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("synapse: memory at the prompt skipped")


def test_bad_input_lets_the_prompt_through(repo: Path) -> None:
    seed(repo, FACTS)
    for stdin in ("not json", "[1, 2]", '{"prompt": 5}', "x" * (1024 * 1024 + 10)):
        done = run_cli("hook", "prompt", stdin=stdin, cwd=repo)
        assert done.returncode == 0
        assert done.stdout == ""
        assert len(done.stderr.splitlines()) <= 1
    bad = run_cli("hook", "prompt", "--format", "nope", stdin=event(repo, "deploys"))
    assert bad.returncode == 0 and bad.stdout == "" and "unknown format" in bad.stderr


def test_no_store_creates_nothing(repo: Path, isolated_store: Path) -> None:
    done = run_cli("hook", "prompt", stdin=event(repo, "how do deploys go out?"))
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    assert list(isolated_store.iterdir()) == []


def test_the_cap_holds_and_is_configurable(repo: Path, isolated_store: Path) -> None:
    long = "Deploys go out with scripts/ship.sh; " + "the checklist says more. " * 400
    ids = seed(repo, [long])
    text = context(run_cli("hook", "prompt", stdin=event(repo, "how do deploys go out?")))
    assert f"[{ids[0]}]" in text and len(text) <= 1500
    (isolated_store / "config.toml").write_text("prompt_chars = 300\n")
    text = context(run_cli("hook", "prompt", stdin=event(repo, "how do deploys go out?", "b")))
    assert f"[{ids[0]}]" in text and len(text) <= 300
    (isolated_store / "config.toml").write_text("prompt_chars = 200\n")
    text = context(run_cli("hook", "prompt", stdin=event(repo, "how do deploys go out?", "d")))
    assert f"[{ids[0]}]" in text and len(text) <= 200
    (isolated_store / "config.toml").write_text("prompt_chars = 5\n")
    done = run_cli("hook", "prompt", stdin=event(repo, "how do deploys go out?", "c"))
    assert done.returncode == 0 and done.stdout == "" and "prompt_chars" in done.stderr


def test_text_format_and_the_fast_path_loads_no_heavy_module(repo: Path) -> None:
    seed(repo, FACTS)
    done = run_cli(
        "hook", "prompt", "--format", "text", stdin=event(repo, "what is the API timeout?")
    )
    assert done.returncode == 0 and "60 s" in done.stdout
    assert not done.stdout.startswith("{")
    code = (
        "import sys; from synapse_git.cli.entry import main; code = main(['hook', 'prompt']);"
        "print('LOADED', [m for m in ('typer', 'click', 'pygit2', 'mcp', 'numpy',"
        " 'pydantic', 'synapse_git.service.facade')"
        " if m in sys.modules])"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code],
        input=event(repo, "what is the API timeout?", "fast"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert "60 s" in ran.stdout
    assert "LOADED []" in ran.stdout


def test_a_memory_found_stale_at_the_last_refresh_is_left_out(repo: Path) -> None:
    (repo / "config").mkdir()
    (repo / "config" / "api.toml").write_text("timeout = 60\n")
    git(repo, "add", "config/api.toml")
    git(repo, "commit", "-q", "-m", "api config")
    seed(repo, FACTS)
    asked = event(repo, "what is the API timeout?", "before")
    assert "60 s" in context(run_cli("hook", "prompt", stdin=asked))
    git(repo, "rm", "-q", "config/api.toml")
    git(repo, "commit", "-q", "-m", "drop api config")
    svc = Synapse()
    assert svc.refresh_checkout(svc.scope(repo)) is not None
    done = run_cli("hook", "prompt", stdin=event(repo, "what is the API timeout?", "after"))
    assert done.returncode == 0 and done.stdout == ""


def test_the_fast_path_takes_the_typer_commands_options() -> None:
    import typer

    from synapse_git.cli.app import app
    from synapse_git.hooks import prompt_hook

    command = typer.main.get_command(app).get_command(None, "hook")  # type: ignore[attr-defined]
    prompt = command.get_command(None, "prompt")
    options = {name for param in prompt.params for name in param.opts}
    assert options == {"--format"}
    assert prompt_hook._format(["--format", "codex"]) == "codex"
    assert prompt_hook._format(["--format=text"]) == "text"


def test_an_unwritable_session_record_still_gives_the_context(
    repo: Path, isolated_store: Path
) -> None:
    ids = seed(repo, FACTS)
    (isolated_store / "prompt-given.json").mkdir()  # cannot be replaced by a file
    done = run_cli("hook", "prompt", stdin=event(repo, "what is the API timeout?"))
    assert f"[{ids[2]}]" in context(done)
    assert "cannot note what this session was given" in done.stderr
    assert not [p for p in isolated_store.iterdir() if p.name.startswith(".prompt-given")]


def test_a_client_writing_a_prompt_too_long_to_use_finishes_writing_it(repo: Path) -> None:
    # A client writes the whole event before it reads the answer; a hook that stopped
    # reading at the cap would leave it a closed pipe (EPIPE) instead of a finished hook.
    exe = Path(sys.executable).with_name("synapse")
    hook = subprocess.Popen(
        [str(exe), "hook", "prompt"],
        cwd=repo,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert hook.stdin is not None and hook.stderr is not None
    hook.stdin.write(event(repo, "deploys " * (512 * 1024)).encode())  # 4 MiB
    hook.stdin.close()
    assert hook.wait(timeout=60) == 0
    assert b"over 1048576 bytes" in hook.stderr.read()
