"""What every command shares: the service, scope notices, JSON, stdin bodies, and
the standard streams that show control characters instead of obeying them.

Nothing here imports typer: the fast paths of the reading commands (cli/quick.py)
print through this module as the full CLI does."""

from __future__ import annotations

import codecs
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from synapse_git.cli.colour import shown
from synapse_git.errors import BadInput, StoreError, output_failed, report
from synapse_git.escaping import json_text, shell_command
from synapse_git.service import Scope, Synapse
from synapse_git.settings import MAX_BODY_BYTES


def echo(text: str, *, err: bool = False) -> None:
    """Print `text` and a newline, flushed at once. Unlike click's echo, nothing is
    stripped on a pipe: Synapse writes no escape sequence of its own (colour is
    marked, cli/colour.py), so one in the text is a memory's, which the stream shows
    escaped on a pipe as on a terminal, never dropped. A stream click would not
    write to as it is (none at all, one of no or an ASCII encoding) is left to typer."""
    stream = sys.stderr if err else sys.stdout
    if _unusual(stream):
        import typer

        typer.echo(text, err=err)
        return
    stream.write(text + "\n")
    stream.flush()


def _unusual(stream: IO[str] | None) -> bool:
    if stream is None or getattr(stream, "errors", None) is None:
        return True
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii"
    except LookupError:
        return True


def failure(exc: Exception) -> int:
    """The exit code of a command that raised `exc`, said in one line on standard
    error (click's own errors aside, which cli/app.py turns into usage lines)."""
    if isinstance(exc, sqlite3.Error):
        # The service translates these; any that slips past is still the store's state.
        return report(Synapse.store_error(exc))
    if isinstance(exc, BrokenPipeError):
        return 0
    if isinstance(exc, OSError):
        # A path the system refuses (a name too long, a loop of links) that no
        # command anticipated: still the user's to fix, said in one line.
        if exc.filename is None:
            return report(exc)
        name = str(exc.filename)
        name = name if len(name) <= 120 else name[:117] + "..."
        return report(StoreError(f"cannot use {name}: {exc.strerror or exc}"))
    return report(exc)


def service() -> Synapse:
    return Synapse()


def scope_of(svc: Synapse, folder: Path | None = None, *, quiet: bool = False) -> Scope:
    """The scope of `folder`; outside a project, say once that only global memory shows."""
    found = svc.scope(folder)
    if not quiet:
        note_global_only(found)
    return found


def note_global_only(found: Scope) -> None:
    """Outside a project, the note that only global memory shows (on standard error)."""
    if found.project is None:
        echo(f"note: {found.note}; only global memory is visible.", err=True)


def print_json(data: Any) -> None:
    echo(json_text(data))


class _Shown:
    """A text stream that writes control characters visibly escaped (`\\x1b`).

    Every line a command prints (tables, bodies, paths, notes, errors echoing
    what the user typed) goes through standard output or error, so escaping
    here covers them all, including lines added later. `--json` is escaped
    before (`json_text`) and passes through unchanged; the `.buffer` beneath,
    which `read` and `export` write exact bytes to, is the real one."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.failed = False

    def write(self, text: str) -> int:
        try:
            return self._stream.write(shown(text))
        except BrokenPipeError:
            raise
        except OSError as exc:
            # `> /dev/full`: one line and exit 2, not a traceback.
            self.failed = True
            raise output_failed(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def shown_streams() -> Iterator[None]:
    """Standard output and error escape control characters while a command runs."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Shown(sys.stdout), _Shown(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def write_bytes(data: bytes, *, flush: bool = False) -> None:
    """Exact bytes to standard output (`read`, `export`); a full device is one line, exit 2."""
    try:
        sys.stdout.buffer.write(data)
        if flush:
            sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        with suppress(AttributeError):
            setattr(sys.stdout, "failed", True)  # noqa: B010  (only _Shown has it)
        raise output_failed(exc) from None


def unwritable_output(code: int) -> int:
    """`code`, or 2 when standard output cannot take what is left to print: said in
    one line on standard error (once), not as a traceback at exit."""
    failed = getattr(sys.stdout, "failed", False)
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return code
    except OSError as exc:
        if not failed:
            code = report(output_failed(exc))
        failed = True
    if failed:
        # Python flushes what the stream keeps again at exit, and would fail there too.
        with suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return code or 2
    return code


def body_arg(text: str) -> str:
    """The body as given, or standard input read as strict UTF-8 when it is `-`."""
    if text != "-":
        return text
    # One byte past the limit is enough to refuse: `remember - < /dev/zero` ends at once.
    raw = sys.stdin.buffer.read(MAX_BODY_BYTES + 1)
    if len(raw) > MAX_BODY_BYTES:
        raise BadInput(
            f"body is over {MAX_BODY_BYTES} bytes; the limit is {MAX_BODY_BYTES} bytes (1 MiB)"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"standard input is not valid UTF-8 (byte {exc.start})") from None


def other_history_hints(other: tuple[str, str | None] | None, project: str | None) -> list[str]:
    """What to say when another repository stands where this project's memories were
    written (its root commit is not the one stored)."""
    if other is None or project is None:
        return []
    stored, current = other
    now = f"this one's is {current[:12]}" if current else "this one has no commit yet"
    return [
        f"note: the memories of {project} were written in a repository whose first commit"
        f" is {stored[:12]}, and {now}: perhaps a new repository at the same path. If"
        f" the old one moved, run: {shell_command('synapse', 'project', 'move', project, 'NEW')};"
        " to keep them here, run:"
        f" {shell_command('synapse', 'project', 'move', project, project)}"
    ]


def moved_hints(moved_from: list[str], project: str | None) -> list[str]:
    """What to run when this repository's memories still carry its old path."""
    return [
        f"hint: {old} no longer exists and has this repository's root commit; "
        f"run: {shell_command('synapse', 'project', 'move', old, project or '.')}"
        for old in moved_from
    ]
