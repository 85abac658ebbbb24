"""The root command: every command has help, the README shows real commands, and
errors are one line with the right exit code."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from support import run_cli

from synapse_git import __version__
from synapse_git.cli.app import app, main

README = Path(__file__).resolve().parents[2] / "README.md"


def command_paths() -> Iterator[tuple[str, ...]]:
    """Every group and command under `synapse`, as the words that name it."""
    root = typer.main.get_command(app)

    def walk(command: object, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        yield path
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, (*path, name))

    yield from walk(root, ())


def leaf(words: list[str]) -> tuple[tuple[str, ...], object]:
    """The deepest command named by the leading `words`, and its path."""
    command: object = typer.main.get_command(app)
    path: list[str] = []
    for word in words:
        commands = getattr(command, "commands", None)
        if not commands or word not in commands:
            break
        command = commands[word]
        path.append(word)
    return tuple(path), command


@pytest.mark.parametrize("path", list(command_paths()), ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*path, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: synapse")
    assert " ".join(("synapse", *path)) in out.splitlines()[0]
    # Values and arguments named as git and click name them, no Python type names.
    for odd in ("<int>", "<str>", "<path>", "list[", "{"):
        assert odd not in out, f"`synapse {' '.join(path)} --help` shows {odd!r}"
    _, command = leaf(list(path))
    assert getattr(command, "help", None), f"{path} has no description"


def readme_commands() -> list[list[str]]:
    """The words after `synapse` in every code block line and inline code span."""
    snippets: list[str] = []
    prose: list[str] = []
    in_block = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = not in_block
        elif in_block:
            snippets.append(line.split(" #")[0])
        else:
            prose.append(line)
    # An inline span may wrap onto the next line of its paragraph.
    snippets += re.findall(r"`([^`]+)`", " ".join(prose))
    found = []
    for snippet in snippets:
        for part in re.split(r"&&|\||;", snippet):
            try:
                words = shlex.split(part.replace("[", " ").replace("]", " "))
            except ValueError:  # a quote opened before a `|` split it
                words = part.split()
            for n, word in enumerate(words):
                if (word == "synapse" or word.endswith("/synapse")) and words[n + 1 :]:
                    found.append(words[n + 1 :])
                    break
    return found


def test_the_readme_shows_commands() -> None:
    assert len(readme_commands()) >= 10


@pytest.mark.parametrize("words", readme_commands(), ids=" ".join)
def test_every_readme_command_exists_with_its_options(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, command = leaf(words)
    assert path, f"synapse {' '.join(words)} names no command"
    # A group runs alone only when it says so: `synapse mcp` serves, `mcp config` is below it.
    runs_alone = not hasattr(command, "commands") or command.invoke_without_command
    assert runs_alone, f"synapse {' '.join(path)} needs a subcommand"
    assert main([*path, "--help"]) == 0
    help_text = capsys.readouterr().out
    for option in (word for word in words if word.startswith("--")):
        assert option in help_text, f"synapse {' '.join(path)} has no {option}"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"synapse {__version__}\n"


def test_usage_errors_are_one_line_with_exit_2(outside: Path) -> None:
    done = run_cli("memory", "read", "not-a-number", cwd=outside)
    assert done.returncode == 2
    assert done.stderr.startswith("synapse: Invalid value for 'ID'")
    assert done.stderr.endswith("(see: synapse memory read --help)\n")
    assert done.stderr.count("\n") == 1


def test_a_broken_data_folder_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run_cli("memory", "remember", "x", "--global", env={"SYNAPSE_DATA": str(blocker)})
    assert done.returncode == 2
    assert done.stderr.startswith("synapse: the data folder ") and str(blocker) in done.stderr
    assert "is not a folder" in done.stderr and done.stderr.count("\n") == 1
