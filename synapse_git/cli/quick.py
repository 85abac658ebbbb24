"""`synapse memory read | list | recall` without typer: importing typer (and the
pydantic it converts values with) costs several times what these commands do.

This parses the options those commands accept, as click does (`--opt value` and
`--opt=value`, `-C value` and `-Cvalue`, the last of a repeated option, each
`--also` kept, `--` ending the options) and calls the same function of
cli/reading.py the typer command calls, with the same translation of errors into
exit codes. Whatever it is not sure of it does not guess at: an option it does not
know, a value it would have to convert in a way of typer's own (` 5`, `+5`, `5.0`),
a missing or extra argument, `--help` anywhere, or shell completion at work all
return None, and the full CLI answers, with its help and its error lines.
"""

from __future__ import annotations

import errno
import os
import sys

TYPE_CHECKING = False  # not typing's: see cli/entry.py
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

# What each option's value is; the defaults are those of cli/reading.py's functions,
# which are the typer commands' (tests/cli/test_quick.py holds the two together).
NUMBER, POSITIVE, TEXT, PATH, FLAG, EACH = "number", "positive", "text", "path", "flag", "each"
FOLDER = {"--folder": ("folder", PATH), "-C": ("folder", PATH)}
JSON = {"--json": ("as_json", FLAG)}

# Per command: its argument (name, kind, required) and its options.
COMMANDS: dict[str, tuple[tuple[str, str, bool], dict[str, tuple[str, str]]]] = {
    "read": (
        ("memory_id", NUMBER, True),
        {
            "--offset": ("offset", NUMBER),
            "--budget": ("budget", TEXT),
            "--project": ("project", TEXT),
            **FOLDER,
            **JSON,
        },
    ),
    "list": (
        ("query", TEXT, False),
        {
            "--limit": ("limit", POSITIVE),
            "-n": ("limit", POSITIVE),
            "--scope": ("scope_name", TEXT),
            "--source": ("source", TEXT),
            "-s": ("source", TEXT),
            "--author": ("author", TEXT),
            "--since": ("since", TEXT),
            "--state": ("state", TEXT),
            **FOLDER,
            **JSON,
        },
    ),
    "recall": (
        ("question", TEXT, False),
        {
            "--budget": ("budget", TEXT),
            "-b": ("budget", TEXT),
            "--limit": ("limit", NUMBER),
            "-n": ("limit", NUMBER),
            "--explain": ("explain", FLAG),
            "--also": ("also", EACH),
            "--at": ("at", TEXT),
            **FOLDER,
            **JSON,
        },
    ),
}
# Longer numbers go to typer: a value that large is an error its way or the store's.
MAX_DIGITS = 18


def main(command: str, args: Sequence[str]) -> int | None:
    """Run `synapse memory COMMAND ARGS`, or None when the full CLI should."""
    if command not in COMMANDS or any(key.startswith("_SYNAPSE_COMPLETE") for key in os.environ):
        return None
    values = parse(command, args)
    if values is None:
        return None
    from synapse_git.cli import reading

    run: dict[str, Callable[..., None]] = {
        "read": reading.read,
        "list": reading.list_,
        "recall": reading.recall,
    }
    return _answer(run[command], values)


def parse(command: str, args: Sequence[str]) -> dict[str, Any] | None:
    """The values `args` give `command`'s function, or None for what typer should see."""
    argument, options = COMMANDS[command]
    values: dict[str, Any] = {}
    given: list[str] = []
    rest = list(args)
    ended = False
    while rest:
        arg = rest.pop(0)
        if arg in ("--help", "-h"):
            return None
        if ended or arg == "-" or not arg.startswith("-"):
            given.append(arg)
            continue
        if arg == "--":
            ended = True
            continue
        # `--name=value`, `--name value`, `-Xvalue` or `-X value`.
        name, eq, attached = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
        known = options.get(name)
        if known is None:
            return None
        key, kind = known
        if kind == FLAG:
            if eq or attached:
                return None
            values[key] = True
            continue
        if not (eq or attached):
            if not rest:
                return None
            attached = rest.pop(0)
        value = _value(kind, attached)
        if value is None:
            return None
        if kind == EACH:
            values.setdefault(key, []).append(value)
        else:
            values[key] = value
    name, kind, required = argument
    if len(given) > 1 or (required and not given):
        return None
    if given:
        value = _value(kind, given[0])
        if value is None:
            return None
        values[name] = value
    return values


def _value(kind: str, text: str) -> object | None:
    if kind in (NUMBER, POSITIVE):
        digits = text.removeprefix("-")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS):
            return None
        number = int(text)
        return None if kind == POSITIVE and number < 1 else number
    if kind == PATH:
        from pathlib import Path

        return Path(text)
    return text


def _answer(run: Callable[..., None], values: dict[str, Any]) -> int:
    """Run as the full CLI runs a command: the same streams, the same exit codes."""
    from synapse_git import exit_codes
    from synapse_git.cli.output import failure, shown_streams, unwritable_output

    with shown_streams():
        try:
            run(**values)
        except EOFError:
            # click's answer to both: an empty line, then typer's abort.
            sys.stderr.write("\n")
            sys.stderr.flush()
            print("synapse: aborted", file=sys.stderr)
            code = exit_codes.INTERRUPTED
        except KeyboardInterrupt:
            code = 130
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                # click exits 1 when the reader went away.
                raise SystemExit(1) from None
            code = failure(exc)
        except Exception as exc:
            code = failure(exc)
        else:
            code = 0
        return unwritable_output(code)
