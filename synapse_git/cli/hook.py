"""`synapse hook …`: install the git hooks, and the hook commands git and agents run.

`session`, `post-checkout` and `post-merge` are normally served by
`hooks.dispatch.fast_main` before typer loads (see `cli/entry.py`, which
`python -m synapse_git` runs too); these typer commands give them help text and
serve what the fast path leaves to typer.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import typer

from synapse_git.answers import HOOKS
from synapse_git.cli.output import scope_of, service
from synapse_git.hooks import checkout, commit, session_hook

app = typer.Typer(help="Git hooks and agent session start.", no_args_is_help=True)

FOLDER_OPTION = typer.Option(
    None, "--folder", "-C", help="Act as if run in this folder (default: here)."
)
HOOKS_OPTION = typer.Option(",".join(HOOKS), "--hooks", help="Comma-separated hooks to act on.")


def _names(hooks: str) -> list[str]:
    return [name.strip() for name in hooks.split(",") if name.strip()]


def _bindir() -> str | None:
    """Where this Synapse's commands live, so hooks find them without PATH set up."""
    beside = Path(sys.executable).parent
    if (beside / "synapse-drift-hook").exists():
        return str(beside)
    found = shutil.which("synapse-drift-hook")
    return str(Path(found).parent) if found else None


@app.command("install")
def install(hooks: str = HOOKS_OPTION, folder: Path = FOLDER_OPTION) -> None:
    """Install the git hooks into this repository's hooks folder (core.hooksPath, or the
    common one of all worktrees). A hook already there is chained, never overwritten."""
    svc = service()
    where, actions = svc.install_hooks(scope_of(svc, folder, quiet=True), _names(hooks), _bindir())
    for action in actions:
        extra = f" (the previous hook runs first: {action.chained})"
        chained = action.done in ("chained", "rechained")
        typer.echo(f"{action.done:>9}  {action.path}" + (extra if chained else ""))
    typer.echo(f"hooks folder: {where}")


@app.command("uninstall")
def uninstall(hooks: str = HOOKS_OPTION, folder: Path = FOLDER_OPTION) -> None:
    """Remove Synapse's git hooks and put back the hooks they chained."""
    svc = service()
    _, actions = svc.uninstall_hooks(scope_of(svc, folder, quiet=True), _names(hooks))
    for action in actions:
        note = " (not written by Synapse)" if action.done == "left alone" else ""
        typer.echo(f"{action.done:>10}  {action.path}{note}")


@app.command("session")
def session(
    budget: str = typer.Option(None, "--budget", help="lean, balanced or full."),
    fmt: str = typer.Option(
        "text", "--format", help="text, or claude or cursor for that client's JSON."
    ),
    folder: Path = FOLDER_OPTION,
) -> None:
    """Print what an agent session starting here should know (at most 8 KiB)."""
    # The budget and format are checked where the fast path checks them, in that order.
    raise typer.Exit(session_hook.session(folder, budget, fmt))


@app.command("prompt")
def prompt(
    fmt: str = typer.Option(
        "claude", "--format", help="claude or codex (their UserPromptSubmit JSON), or text."
    ),
) -> None:
    """Read a client's UserPromptSubmit hook JSON on stdin and print the memories that
    answer the prompt (nothing when none answers well); never fails the prompt."""
    from synapse_git.hooks import prompt_hook

    raise typer.Exit(prompt_hook.main(["--format", fmt]))


@app.command("post-checkout")
def post_checkout(
    old: str = typer.Argument(None, help="The previous HEAD (git passes it)."),
    new: str = typer.Argument(None, help="The new HEAD."),
    flag: str = typer.Argument(None, help="1 for a branch switch, 0 for a file checkout."),
    folder: Path = FOLDER_OPTION,
) -> None:
    """After a branch switch: re-check drift, print a summary, refresh the session snapshot."""
    chosen = flag if flag is not None else checkout.checkout_flag()
    raise typer.Exit(checkout.post_checkout(old, new, chosen, folder))


@app.command("post-merge")
def post_merge(
    squash: str = typer.Argument(None, help="1 for a squash merge (git passes it)."),
    folder: Path = FOLDER_OPTION,
) -> None:
    """After a merge or pull: the same refresh as a branch switch."""
    del squash
    raise typer.Exit(checkout.post_checkout(None, None, "1", folder))


@app.command("post-rewrite")
def post_rewrite(
    command: str = typer.Argument(None, help="amend or rebase (git passes it)."),
    folder: Path = FOLDER_OPTION,
) -> None:
    """After a rebase or amend: the same refresh, for the rewritten commits."""
    raise typer.Exit(checkout.post_rewrite(command, folder))


@app.command("pre-commit")
def pre_commit(
    warn_only: bool = typer.Option(False, "--warn-only", help="Report, never block."),
) -> None:
    """Check the staged commit (the same check as `synapse-drift-hook`)."""
    raise typer.Exit(commit.pre_commit_main(["--warn-only"] if warn_only else []))
