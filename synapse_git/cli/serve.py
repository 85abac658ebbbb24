"""`synapse mcp`: serve memory to an agent over MCP stdio; `synapse mcp config`: the
client configuration that starts it on this store.

The console script usually starts the server without typer (see `cli/entry.py`:
only `--project` and `--budget` take that path, so `config …` arrives here);
this group gives it help and its place in `synapse --help`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.cli.output import scope_of, service
from synapse_git.mcp.launch import serve_mcp

app = typer.Typer(
    help="Serve recall, readmemory, remember, supersede and forget to an MCP client over stdio.",
    invoke_without_command=True,
)


@app.callback()
def mcp(
    ctx: typer.Context,
    project: Path = typer.Option(
        None,
        "--project",
        help="Folder whose repository to serve when the client offers no roots (default: here).",
    ),
    budget: str = typer.Option(
        None, "--budget", help="Default budget for recall and readmemory: lean, balanced or full."
    ),
) -> None:
    """Serve recall, readmemory, remember, supersede and forget to an MCP client over stdio."""
    if ctx.invoked_subcommand is None:
        serve_mcp(project, budget)


@app.command("config")
def config(
    client: str = typer.Argument(
        ..., help="claude (.mcp.json), codex (.codex/config.toml) or json."
    ),
    write: bool = typer.Option(
        False, "--write", help="Merge it into the client's file at the repository root."
    ),
    folder: Path = typer.Option(
        None, "--folder", "-C", help="Act as if run in this folder (default: here)."
    ),
) -> None:
    """Print the client configuration that starts `synapse mcp` on this store, whatever
    environment the client passes: the command's absolute path and SYNAPSE_DATA pinned."""
    svc = service()
    text, written = svc.mcp_config(client, scope_of(svc, folder, quiet=True), write=write)
    if written is None:
        typer.echo(text, nl=False)
    else:
        typer.echo(f"{written.done}  {written.path}")
        if written.done != "unchanged":
            # The repository's client file is the one a team commits.
            typer.echo(
                f"synapse: note: {written.path.name} now names this machine's paths;"
                f" if the file is shared, `synapse setup {client} --scope"
                f" {'local' if client == 'claude' else 'user'}` keeps them in your own files",
                err=True,
            )
