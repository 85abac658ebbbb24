"""The `synapse` console script.

`synapse mcp` is started by an MCP client every session and the SDK's import
alone takes over a second, so that one command starts here without loading
the rest of the CLI (typer, click, every command module). Anything else, and
any `mcp` arguments this does not recognise (`--help`, typos), goes to the
full CLI, which prints help and errors as for every command.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

from synapse_git import config
from synapse_git.errors import BadInput, SynapseError


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["mcp"]:
        options = _mcp_options(argv[1:])
        if options is not None:
            return _run_mcp(*options)
    from synapse_git.cli.app import main as cli_main

    return cli_main()


def serve_mcp(project: Path | None, budget: str | None) -> None:
    """Serve MCP over stdio (the body of `synapse mcp`, whichever way it was reached)."""
    settings = config.load()
    if budget is not None:
        settings.budget(budget)
    if project is not None and not project.expanduser().is_dir():
        raise BadInput(f"--project {project}: not a folder")
    # Imported only now: nothing else should pay for the MCP SDK.
    from synapse_git import mcp_server

    mcp_server.serve(settings, project=project, budget=budget)


def _mcp_options(args: list[str]) -> tuple[Path | None, str | None] | None:
    """`--project PATH` and `--budget B` (either as `--opt=value`), or None for anything else."""
    found: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if name not in ("--project", "--budget") or name in found:
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
    try:
        serve_mcp(project, budget)
    except SynapseError as exc:
        print(f"synapse: {exc}", file=sys.stderr)
        return exc.exit_code
    except Exception as exc:
        if os.environ.get("SYNAPSE_DEBUG") == "1":
            traceback.print_exc()
        else:
            print(
                f"synapse: internal error: {type(exc).__name__}: {exc} "
                "(set SYNAPSE_DEBUG=1 for the traceback)",
                file=sys.stderr,
            )
        return 3
    return 0
