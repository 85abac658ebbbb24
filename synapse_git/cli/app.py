"""The root `synapse` command and the one place errors become exit codes.

Each command's module is imported only when that command runs: `synapse
memory read 7` builds the root with the `memory` group and the commands of
cli/memory.py alone, where importing every module would cost start-up more
than the read itself (docs/architecture.md, "Why the fast paths avoid typer,
pygit2 and mcp"). Help, completion and anything not recognised build the whole
tree, so what a person sees (listings, suggestions, errors) is as before.
"""

from __future__ import annotations

import copy
import importlib
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

import typer

from synapse_git import __version__, exit_codes
from synapse_git.cli import completion
from synapse_git.cli.help_text import classic
from synapse_git.cli.output import failure, shown_streams, unwritable_output

# The root's commands: name -> (module, function).
ROOT_COMMANDS = {
    "setup": ("synapse_git.cli.setup", "setup"),
    "status": ("synapse_git.cli.status", "status"),
    "demo": ("synapse_git.cli.demo", "demo"),
    "ui": ("synapse_git.cli.ui", "ui"),
}
# The groups: name -> the module whose `app` holds its own commands, in the order
# `--help` lists the root's commands (groups and commands interleaved as added).
GROUPS = {
    "memory": "synapse_git.cli.memory",
    "project": "synapse_git.cli.project",
    "mcp": "synapse_git.cli.serve",
    "hook": "synapse_git.cli.hook",
    "ci": "synapse_git.cli.ci",
}
ORDER = ("memory", "project", "mcp", "setup", "status", "demo", "ui", "hook", "ci")
# Commands that live in modules of their own and join a group, in the order
# `--help` lists them after the group's own: group -> name -> (module, function).
JOINING = {
    "memory": {
        "show": ("synapse_git.cli.inspection", "show"),
        "blame": ("synapse_git.cli.inspection", "blame"),
        "backup": ("synapse_git.cli.backup", "backup"),
        "drift": ("synapse_git.cli.drift", "drift"),
        "keep": ("synapse_git.cli.drift", "keep"),
        "check": ("synapse_git.cli.maintenance", "check"),
        "export": ("synapse_git.cli.maintenance", "export"),
        "import": ("synapse_git.cli.maintenance", "import_"),
        "recall": ("synapse_git.cli.recall", "recall"),
        "eval": ("synapse_git.cli.recall", "eval_"),
        "embed": ("synapse_git.cli.semantic", "embed"),
        "share": ("synapse_git.cli.team", "share"),
        "unshare": ("synapse_git.cli.team", "unshare"),
        "sync": ("synapse_git.cli.team", "sync"),
    },
    "hook": {"merge-file": ("synapse_git.cli.team", "merge_file")},
}
EVERY = object()


def _function(where: tuple[str, str]) -> Any:
    module, name = where
    return getattr(importlib.import_module(module), name)


def _group(name: str, wanted: str | object) -> typer.Typer:
    """Group `name` with its own commands and the joining ones `wanted` names (one
    name, or EVERY); a copy, so that the module's own `app` is never changed."""
    own: typer.Typer = importlib.import_module(GROUPS[name]).app
    group = copy.copy(own)
    group.registered_commands = list(own.registered_commands)
    for command, where in JOINING.get(name, {}).items():
        if wanted is EVERY or wanted == command:
            group.command(command)(_function(where))
    return group


def build(argv: Sequence[str] | None = None) -> typer.Typer:
    """The root command with what running `argv` needs; None (or anything not
    recognised as one command) builds every command."""
    root = typer.Typer(
        name="synapse",
        help="Synapse: git-aware memory for coding agents and the people who work with them.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        # click's echo would strip escape sequences bound for a pipe: a memory's
        # (Synapse writes none of its own) is shown escaped there as on a terminal
        # (cli/output.py), not silently dropped from what the user reads.
        context_settings={"color": True},
    )
    root.callback()(_root)
    wanted = _wanted(argv)
    for name in wanted:
        if name in GROUPS:
            # `synapse memory read …` needs `read` alone; `synapse memory` or a name
            # not known gets every command (the listing, the suggestion).
            sub = argv[1] if argv is not None and len(wanted) == 1 and len(argv) > 1 else ""
            known = sub in _own_names(name) or sub in JOINING.get(name, {})
            root.add_typer(_group(name, sub if known else EVERY), name=name)
        else:
            root.command(name)(_function(ROOT_COMMANDS[name]))
    return root


def _wanted(argv: Sequence[str] | None) -> Sequence[str]:
    """The root's commands to build for `argv`: its first word's alone when that is
    one of them and neither help nor shell completion is asked for."""
    if argv is None or any(arg in ("--help", "-h") for arg in argv):
        return ORDER
    if any(key.startswith("_SYNAPSE_COMPLETE") for key in os.environ):
        return ORDER
    first = argv[0] if argv else ""
    return (first,) if first in ORDER else ORDER


def _own_names(group: str) -> set[str]:
    own: typer.Typer = importlib.import_module(GROUPS[group]).app
    return {
        info.name or getattr(info.callback, "__name__", "").lower().replace("_", "-")
        for info in own.registered_commands
    }


def __getattr__(name: str) -> Any:
    # `app`, the whole command tree, for what inspects it (tests, documentation checks).
    if name == "app":
        return build()
    raise AttributeError(name)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"synapse {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """Remember facts about your code; recall them by a question."""


def _click_class(name: str) -> type[Exception]:
    """Recent typer carries its own copy of click; older ones use click itself. Either
    way `typer.BadParameter` descends from the classes the parser raises."""
    found: type[Exception] = next(cls for cls in typer.BadParameter.__mro__ if cls.__name__ == name)
    return found


_CLICK_ERROR = _click_class("ClickException")
_USAGE_ERROR = _click_class("UsageError")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; bad input exits 2 with one line on stderr, internal errors 3."""
    with shown_streams():
        try:
            code = _run(argv)
        except BrokenPipeError:
            # The reader of what runs outside click (`synapse --show-completion zsh |
            # head -1`) went away: nothing left to say (0, as failure() has it), not a
            # traceback, and no second error when Python flushes standard output at exit.
            with suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return exit_codes.OK
        return unwritable_output(code)


def _run(argv: list[str] | None) -> int:
    given = sys.argv[1:] if argv is None else argv
    named = completion.named(given)
    if named is not None:
        return named
    command = typer.main.get_command(build(given))
    classic(command)
    try:
        result = command.main(args=argv, prog_name="synapse", standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        print("synapse: aborted", file=sys.stderr)
        return exit_codes.INTERRUPTED
    except _USAGE_ERROR as exc:
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError":
            # A bare `synapse` or group (`synapse memory`) asked for nothing wrong: its
            # help, on standard output, and success.
            print(exc.format_message())  # type: ignore[attr-defined]
            return 0
        where = ctx.command_path if ctx is not None else "synapse"
        message = exc.format_message()  # type: ignore[attr-defined]
        print(f"synapse: {message} (see: {where} --help)", file=sys.stderr)
        return exit_codes.ERROR
    except _CLICK_ERROR as exc:
        print(f"synapse: {exc.format_message()}", file=sys.stderr)  # type: ignore[attr-defined]
        return exit_codes.ERROR
    except Exception as exc:
        return failure(exc)
    return result if isinstance(result, int) else 0
