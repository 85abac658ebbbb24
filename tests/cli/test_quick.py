"""`memory read | list | recall` answer the same through their fast path as through
typer: each argument list is run both ways on the same store, in process, and what
the user sees (standard output, standard error, exit code) must be the same. What
the fast path leaves to typer is said per case, so that a case meant to be parsed
fast cannot pass by falling through."""

from __future__ import annotations

import os
import pty
import sys
from pathlib import Path

import pytest
import typer

from synapse_git.cli import app as app_module
from synapse_git.cli import quick
from synapse_git.cli.output import echo
from synapse_git.service import Synapse

FAST, TYPER = True, False

READ = [
    (["{id}"], FAST),
    (["{id}", "--json"], FAST),
    (["--json", "{id}"], FAST),
    (["{id}", "--offset", "5"], FAST),
    (["{id}", "--offset=5"], FAST),
    (["{id}", "--offset=-5"], FAST),
    (["{id}", "--offset", "-5"], FAST),
    (["{id}", "--offset", "1", "--offset", "0"], FAST),
    (["{id}", "--offset", "999999"], FAST),
    (["{long}"], FAST),
    (["{long}", "--offset", "6000"], FAST),
    (["{long}", "--budget", "lean", "--json"], FAST),
    (["{id}", "--budget", "lean"], FAST),
    (["{id}", "--budget=full"], FAST),
    (["{id}", "--budget", "huge"], FAST),
    (["{id}", "--budget", ""], FAST),
    (["{id}", "--budget", "--json"], FAST),
    (["{id}", "--project", "{repo}"], FAST),
    (["{id}", "--project=/elsewhere"], FAST),
    (["{id}", "--project", "/elsewhere", "--json"], FAST),
    (["{id}", "-C", "{repo}"], FAST),
    (["{id}", "-C{repo}"], FAST),
    (["{id}", "-C", "{outside}"], FAST),
    (["{id}", "--folder", "{outside}", "--json"], FAST),
    (["{id}", "--folder={repo}", "--json", "--json"], FAST),
    (["{id}", "-C", "{missing}"], FAST),
    (["{id}", "-C", ""], FAST),
    (["--", "{id}"], FAST),
    (["{esc}"], FAST),
    (["{esc}", "--json"], FAST),
    (["{gone}"], FAST),
    (["{gone}", "--json"], FAST),
    (["99999"], FAST),
    (["007"], FAST),
    (["0"], FAST),
    (["99999999999999999999999"], TYPER),
    (["abc"], TYPER),
    ([" 5"], TYPER),
    (["5.0"], TYPER),
    (["+5"], TYPER),
    (["-5"], TYPER),
    (["--", "-5"], FAST),
    (["{id}", "--offset"], TYPER),
    (["{id}", "--offset", "x"], TYPER),
    (["{id}", "--offset", "1e3"], TYPER),
    (["{id}", "--bogus"], TYPER),
    (["{id}", "--jso"], TYPER),
    (["{id}", "--json=1"], TYPER),
    (["{id}", "{id}"], TYPER),
    (["{id}", "--", "--json"], TYPER),
    ([], TYPER),
    (["--help"], TYPER),
    (["{id}", "-h"], TYPER),
    (["{id}", "-Cx", "-h"], TYPER),
]

LIST = [
    ([], FAST),
    (["--json"], FAST),
    (["deploy"], FAST),
    (["deploy", "--json"], FAST),
    (["port deploy"], FAST),
    ([""], FAST),
    (["nothing-matches-this"], FAST),
    (["-n", "1"], FAST),
    (["-n1"], FAST),
    (["--limit=2", "--json"], FAST),
    (["port", "-n", "1", "--json"], FAST),
    (["-n", "1", "-n", "3"], FAST),
    (["--scope", "project"], FAST),
    (["--scope=global"], FAST),
    (["--scope", "nowhere"], FAST),
    (["--source", "notes"], FAST),
    (["-s", "notes", "--json"], FAST),
    (["-snotes"], FAST),
    (["--author", "someone"], FAST),
    (["--since", "7d"], FAST),
    (["--since=2026-01-01"], FAST),
    (["--since", "someday"], FAST),
    (["--state", "any"], FAST),
    (["--state", "forgotten", "--json"], FAST),
    (["--state", "bogus"], FAST),
    (["deploy", "--state", "any"], FAST),
    (["-C", "{outside}"], FAST),
    (["--folder", "{repo}", "--json"], FAST),
    (["--", "-x"], FAST),
    (["escape"], FAST),
    (["\udcff"], FAST),
    (["a\x00b"], FAST),
    (["--limit", "0"], TYPER),
    (["--limit=-1"], TYPER),
    (["-n", "-1"], TYPER),
    (["--limit", "x"], TYPER),
    (["-n"], TYPER),
    (["-n=2"], TYPER),
    (["a", "b"], TYPER),
    (["--bogus"], TYPER),
    (["-x"], TYPER),
    (["--json=yes"], TYPER),
    (["--help"], TYPER),
    (["-h"], TYPER),
]

RECALL = [
    (["deploy"], FAST),
    (["deploy", "--json"], FAST),
    (["deploy", "--explain"], FAST),
    (["deploy", "--json", "--explain"], FAST),
    ([], FAST),
    (["--json"], FAST),
    ([""], FAST),
    (["editor"], FAST),
    (["tests port", "--also", "integration", "-n", "1"], FAST),
    (["tests", "--also=integration", "--also", "database", "--explain"], FAST),
    (["q", "--also", "a", "--also", "b", "--also", "c", "--also", "d", "--also", "e"], FAST),
    (["q", "--also", ""], FAST),
    (["port", "-n", "0"], FAST),
    (["port", "--limit=-1"], FAST),
    (["port", "-n", "99999999"], FAST),
    (["port", "-n", "2", "-n", "1"], FAST),
    (["port", "--budget", "huge"], FAST),
    (["port", "-b", "lean"], FAST),
    (["port", "-blean", "--json"], FAST),
    (["port", "--budget=full", "-n", "30"], FAST),
    (["port", "--at", "HEAD"], FAST),
    (["port", "--at=main", "--json"], FAST),
    (["port", "--at", "no-such-revision"], FAST),
    (["editor", "-C", "{outside}"], FAST),
    (["editor", "-C", "{outside}", "--json"], FAST),
    (["--", "--json"], FAST),
    (["escape"], FAST),
    (["\udcff"], FAST),
    (["--limit", "x", "q"], TYPER),
    (["q", "-n", "1.5"], TYPER),
    (["q", "--explain=yes"], TYPER),
    (["q", "--also"], TYPER),
    (["a", "b"], TYPER),
    (["q", "--nope"], TYPER),
    (["q", "-e"], TYPER),
    (["--help"], TYPER),
]

CASES = [
    pytest.param(command, args, fast, id=f"{command} {' '.join(args) or '(none)'}")
    for command, table in (("read", READ), ("list", LIST), ("recall", RECALL))
    for args, fast in table
]


@pytest.fixture
def store(repo: Path, tmp_path: Path) -> dict[str, str]:
    svc = Synapse()
    scope = svc.scope(repo)
    first = svc.remember("The deploy script lives in scripts/deploy.sh.", scope, source="notes")
    svc.remember("Integration tests need make db-up first; they use port 5433.", scope)
    svc.remember("Global note: the editor is vim.", scope, is_global=True)
    escaped = svc.remember("escape \x1b[31mred\x1b[0m and a bell \x07 here", scope)
    long = svc.remember("a paged note about the deploy port " + "word " * 3000, scope)
    gone = svc.remember("An old port note, forgotten since.", scope)
    svc.forget(gone.id, scope)
    outside = tmp_path / "outside"
    outside.mkdir()
    return {
        "id": str(first.id),
        "esc": str(escaped.id),
        "long": str(long.id),
        "gone": str(gone.id),
        "repo": str(repo),
        "outside": str(outside),
        "missing": str(tmp_path / "missing"),
    }


@pytest.mark.parametrize(("command", "args", "fast"), CASES)
def test_the_fast_path_answers_as_typer(
    store: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    command: str,
    args: list[str],
    fast: bool,
) -> None:
    monkeypatch.chdir(store["repo"])
    argv = [arg.format(**store) for arg in args]
    quick_code = quick.main(command, argv)
    quick_answer = (quick_code, *capfd.readouterr())
    typer_code = app_module.main(["memory", command, *argv])
    typer_answer = (typer_code, *capfd.readouterr())
    if not fast:
        assert quick_answer == (None, "", "")
        return
    assert quick_answer == typer_answer
    assert quick_answer[1] or quick_answer[2]


def test_shell_completion_is_left_to_typer(
    store: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("_SYNAPSE_COMPLETE", "complete_bash")
    assert quick.main("read", [store["id"]]) is None


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_echo_prints_as_typer_echo(monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    # As the app's commands echo (context color=True, cli/app.py): an escape sequence
    # is kept on a pipe too, for the stream to show it escaped (tests/test_escaping.py).
    text = "plain, \x1b[31mcoloured\x1b[0m, \x1b[2;3Hmoved, and é"
    reader, writer = pty.openpty() if terminal else os.pipe()
    with open(writer, "w", encoding="utf-8", closefd=True) as stream:
        monkeypatch.setattr(sys, "stdout", stream)
        monkeypatch.setattr(sys, "stderr", stream)
        echo(text)
        typer.echo(text, color=True)
        echo(text, err=True)
        typer.echo(text, err=True, color=True)
        monkeypatch.undo()
    # A terminal hands out what was written a line or so at a time.
    got = b""
    while got.count(b"\n") < 4 and (chunk := os.read(reader, 4096)):
        got += chunk
    os.close(reader)
    lines = got.decode("utf-8").splitlines()
    assert len(lines) == 4
    assert lines[0] == lines[1] == lines[2] == lines[3]
    assert lines[0] == text
