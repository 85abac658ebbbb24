"""The `synapse` console script: fast paths first, the full CLI otherwise.

`synapse mcp` is started by an MCP client every session and the SDK's import
alone takes over a second; agents run `synapse hook session` at every start and
git runs the checkout hooks on every switch, and importing typer alone costs
~160 ms. So those commands start here without loading the rest of the CLI
(typer, every command module), a bare `synapse --version` prints the version
as the full CLI would, and `memory read`, `memory list` and `memory recall`,
which a person types and waits for, parse their own options (cli/quick.py).
Anything else, any `--help`, and any arguments these do not recognise (typos)
go to the full CLI, which prints help and errors as for every command. Nothing
beyond the standard library's few is imported at the top of this module: each
path imports what it uses.
"""

from __future__ import annotations

import os
import sys

# Not typing's: importing typing takes more instructions than starting the interpreter.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:
        # What the root command's eager --version option prints, without typer.
        from synapse_git import __version__

        return _print_version(f"synapse {__version__}")
    if args[:1] == ["memory"] and len(args) > 1:
        # read, list and recall parse their own options (cli/quick.py); None: typer's.
        from synapse_git.cli import quick

        code = quick.main(args[1], args[2:])
        if code is not None:
            return code
    if args[:1] == ["mcp"]:
        options = _mcp_options(args[1:])
        if options is not None:
            return _run_mcp(*options)
    if args[:2] == ["hook", "prompt"] and not {"--help", "-h"} & set(args):
        # Before every prompt an agent sends: its own module, which never fails the prompt.
        from synapse_git.hooks import prompt_hook

        return prompt_hook.main(args[2:])
    if len(args) >= 2 and args[0] == "hook" and not {"--help", "-h"} & set(args):
        from synapse_git.hooks import dispatch

        if args[1] in dispatch.FAST:
            try:
                return dispatch.fast_main(args[1:])
            except BrokenPipeError:
                # The reader went away (`| head`): nothing left to say, and no
                # second error when Python flushes standard output at exit.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 0
            except OSError as exc:
                return _unwritable(exc)
    from synapse_git.cli.app import main as cli_main

    return cli_main(args)


def _print_version(line: str) -> int:
    try:
        print(line, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as exc:
        return _unwritable(exc)
    return 0


def _unwritable(exc: OSError) -> int:
    """`> /dev/full`: one line, exit 2, and nothing left for the exit flush."""
    from synapse_git.errors import output_failed, report

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return report(output_failed(exc))


def _mcp_options(args: list[str]) -> tuple[Path | None, str | None] | None:
    """`--project PATH` and `--budget B` (either as `--opt=value`), or None for anything else."""
    from pathlib import Path

    from synapse_git.mcp.launch import OPTIONS as MCP_OPTIONS

    found: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if name not in MCP_OPTIONS or name in found:
            return None
        if not eq:
            if not rest:
                return None
            value = rest.pop(0)
        found[name] = value
    project = found.get("--project")
    return (None if project is None else Path(project)), found.get("--budget")


def _run_mcp(project: Path | None, budget: str | None) -> int:
    # The same translation as the full CLI's: one line on stderr, exit 2 or 3.
    from synapse_git.errors import report
    from synapse_git.mcp.launch import serve_mcp

    try:
        serve_mcp(project, budget)
    except Exception as exc:
        return report(exc)
    return 0
