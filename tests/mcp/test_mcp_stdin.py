"""Standard input as the SDK-backed server reads it: the lines the client wrote, each
whole, read on the event loop with no worker thread while the input is a pipe."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import anyio
import pytest

from synapse_git.mcp.checks import CheckedInput
from synapse_git.mcp.scoped_server import LoopLines

BIG = "x" * (3 << 20)  # a line far longer than one read of the descriptor


def checked_input(monkeypatch: pytest.MonkeyPatch, fd: int) -> CheckedInput:
    """CheckedInput over `fd` standing as standard input (it takes a copy of it)."""
    stdin = os.fdopen(fd, "r")
    monkeypatch.setattr(sys, "stdin", stdin)
    lines = CheckedInput(set())
    stdin.close()
    return lines


def read_all(lines: LoopLines) -> tuple[list[str], list[int]]:
    """Every line, and how many worker threads anyio had as each was handed on."""

    async def run() -> tuple[list[str], list[int]]:
        got, workers = [], []
        async for line in lines:
            got.append(line)
            workers.append(sum("AnyIO" in thread.name for thread in threading.enumerate()))
        return got, workers

    return anyio.run(run)


def test_lines_from_a_pipe_are_read_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    lines = LoopLines(checked_input(monkeypatch, read))
    sent = ['{"id": 1}\n', f'{{"id": 2, "body": "{BIG}"}}\n', "\n", '{"id": 3}']

    def writer() -> None:
        with os.fdopen(write, "w") as out:
            for text in sent:
                out.write(text)
                out.flush()

    feeding = threading.Thread(target=writer)
    feeding.start()
    got, workers = read_all(lines)
    feeding.join()
    assert got == sent  # the last line with no newline after it, as a file reads it
    # The end of the input, which the last line waits for, is met on a worker thread.
    assert workers[:-1] == [0, 0, 0], "a line was read on a worker thread"
    lines.lines.close()


def test_lines_from_a_regular_file_are_read_all_the_same(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sent = ['{"id": 1}\n', '{"id": 2, "text": "\\ud800"}\n', "last"]
    path = tmp_path / "input"
    path.write_text("".join(sent), "utf-8")
    lines = LoopLines(checked_input(monkeypatch, os.open(path, os.O_RDONLY)))
    got, _ = read_all(lines)
    # The lone surrogate is replaced, and its request noted, as on any input.
    assert got == [sent[0], '{"id": 2, "text": "?"}\n', "last"]
    assert lines.lines.bad_text == {"2"}
    lines.lines.close()


def test_lines_already_read_come_first(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    checked = checked_input(monkeypatch, read)
    os.write(write, b'{"id": 1}\n{"id": 2}\n')
    first = checked.readline()  # the session's first line, read before the SDK
    checked.pending[:0] = [first]  # given again, as a session handed to the SDK is

    async def two() -> list[str]:
        # The second line was read with the first: it comes without the client
        # writing anything more.
        got = []
        with anyio.fail_after(30):
            async for line in LoopLines(checked):
                got.append(line)
                if len(got) == 2:
                    break
        return got

    assert anyio.run(two) == ['{"id": 1}\n', '{"id": 2}\n']
    os.close(write)
    checked.close()
