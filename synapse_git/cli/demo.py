"""`synapse demo`: recall on the example store, in a temporary store removed afterwards."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import print_json
from synapse_git.cli.reading import print_recalled
from synapse_git.data_folder import data_dir
from synapse_git.service import demo as demo_run


def demo(
    question: str = typer.Argument(demo_run.QUESTION, help="The question to ask."),
    examples: Path = typer.Option(
        None,
        "--examples",
        help="A JSON Lines store to try (default: the example notes Synapse ships).",
    ),
    budget: str = typer.Option(None, "--budget", "-b", help="lean, balanced (default) or full."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Ask the example store a question without touching your store: the examples go into
    a temporary store that is removed before the command ends."""
    shown = demo_run.run(question, examples=examples, budget=budget)
    if as_json:
        print_json(
            {"examples": str(shown.examples), "imported": shown.imported, **shown.found.as_json()}
        )
        return
    typer.echo(
        f"demo: {shown.imported} example memories from {shown.examples} in a temporary store,"
        f" removed again; your store ({data_dir() / 'memory.db'}) is not touched"
    )
    typer.echo(f"$ synapse memory recall {question!r}")
    print_recalled(shown.found, question)
    typer.echo(
        'next: `synapse memory remember "…"` in a repository of yours, '
        "`synapse setup claude|codex|cursor` for an agent, `synapse status`"
    )
