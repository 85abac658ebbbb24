"""The typer options many commands share. Kept apart from cli/output.py, which the
typer-free fast paths (cli/quick.py) import: building an option imports typer."""

from __future__ import annotations

import typer

JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of text.")
FOLDER_OPTION = typer.Option(
    None, "--folder", "-C", help="Act as if run in this folder (default: here)."
)
