"""`synapse ui`: serve the local viewer (docs/ui.md); the web stack loads only here."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.cli.options import FOLDER_OPTION


def ui(
    port: int = typer.Option(
        0, "--port", "-p", metavar="N", help="Port to serve on; 0 picks any free port."
    ),
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        metavar="ADDRESS",
        help="Loopback address to bind.",
    ),
    no_open: bool = typer.Option(False, "--no-open", help="Print the address; open no browser."),
    allow_remote: bool = typer.Option(
        False, "--allow-remote", help="Allow a --host other machines can reach (not advised)."
    ),
    folder: Path = FOLDER_OPTION,
) -> None:
    """Look at memory, its drift and its team in a browser: a local page, guarded by a
    token printed with its address."""
    from synapse_git.ui.server import serve

    serve(folder, host=host, port=port, open_browser=not no_open, allow_remote=allow_remote)
